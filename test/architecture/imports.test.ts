/**
 * The layering rules of ARCHITECTURE.md, checked: no import cycles between files (type-only imports
 * count) or between src/ folders; the playground imports types and src/contract only; the detector
 * and the extractors never import Elysia, the store or the modules. The scanner and the rules are
 * also run on small made-up graphs, to show that each check fails when its rule is broken.
 */
import { describe, expect, it, setDefaultTimeout } from 'bun:test';
import { SUITE_TIMEOUT_MS } from '../timeout';
import { cycles, fileEdges, folderEdges, importGraph, scanImports, sourceFiles, type ImportEdge } from './graph';

setDefaultTimeout(SUITE_TIMEOUT_MS);

/** Folders a rule forbids, by importing folder: [forbidden target prefix, why]. */
const SERVER_ONLY: readonly string[] = ['elysia', '@elysiajs/', 'src/store/', 'src/modules/', 'src/http/', 'src/app.ts', 'src/main.ts'];
const NEVER: Record<string, readonly string[]> = {
  'src/detector/': SERVER_ONLY,
  // The spine runs one way: score -> decide -> explain; no stage reaches back, none imports the entry.
  'src/detector/score/': ['src/detector/decide/', 'src/detector/explain/', 'src/detector/learn/', 'src/detector/index.ts'],
  // Raw wasm slots stay in score/: decide and explain read named counts (score/counts.ts). Applying a
  // profile (decide/) never reaches into making one (learn/): the profile is data between them.
  'src/detector/decide/': ['src/detector/explain/', 'src/detector/learn/', 'src/detector/index.ts', 'src/detector/score/layout.ts'],
  'src/detector/explain/': ['src/detector/learn/', 'src/detector/index.ts', 'src/detector/score/layout.ts'],
  // Making a profile (fitting, the threshold rule) reads scores and the profile's format, never explanations.
  'src/detector/learn/': ['src/detector/explain/', 'src/detector/index.ts', 'src/detector/score/layout.ts'],
  'src/contract/': [...SERVER_ONLY, 'src/detector/', 'src/i18n/', 'src/extract/'],
  'src/extract/': [...SERVER_ONLY, 'src/detector/'],
  'src/i18n/': [...SERVER_ONLY, 'src/detector/'],
  'assembly/': ['src/'],
};

/** What an import points at, for the rules: a repository path, or the package name. */
const targetOf = (i: ImportEdge) => i.target ?? i.specifier;

/** Every broken layering rule in a graph, as "from -> to (rule)". */
export function layerViolations(graph: ReadonlyMap<string, readonly ImportEdge[]>): string[] {
  const out: string[] = [];
  for (const [file, imports] of graph) {
    for (const i of imports) {
      const to = targetOf(i);
      for (const [from, banned] of Object.entries(NEVER)) {
        if (file.startsWith(from) && banned.some((b) => to === b || to.startsWith(b)))
          out.push(`${file} -> ${to} (${from} never imports it)`);
      }
      // The playground runs in a browser: from the server it takes types, and the shared vocabulary.
      if (file.startsWith('src/web/') && !i.typeOnly && i.target && !/^src\/(web|contract)\//.test(i.target)) {
        out.push(`${file} -> ${i.target} (src/web/ imports only types and src/contract/ at run time)`);
      }
    }
  }
  return out;
}

const FILES = sourceFiles(['src', 'scripts', 'bench', 'assembly']);
const GRAPH = importGraph(FILES);

describe('import scanner', () => {
  it('reads type-only, named, namespace, side-effect, re-export and dynamic imports', () => {
    const src = `import type { A } from './a';\nimport { type B, type C } from './b';\nimport { D, type E } from './d';
import * as F from './f';\nimport './g';\nexport { H } from './h';\nexport type { I } from './i';\nconst j = await import('./j');
// import { K } from './k';\n/* import { L } from './l'; */`;
    expect(scanImports(src)).toEqual([
      { specifier: './a', typeOnly: true },
      { specifier: './b', typeOnly: true },
      { specifier: './d', typeOnly: false },
      { specifier: './f', typeOnly: false },
      { specifier: './h', typeOnly: false },
      { specifier: './i', typeOnly: true },
      { specifier: './g', typeOnly: false },
      { specifier: './j', typeOnly: false },
    ]);
  });

  it('finds a type-only cycle, and a folder cycle, in a made-up graph', () => {
    expect(
      cycles(
        new Map([
          ['a', ['b']],
          ['b', ['c']],
          ['c', ['a']],
          ['d', ['a']],
        ]),
      ),
    ).toEqual([['a', 'b', 'c']]);
    const edge = (target: string, typeOnly = true): ImportEdge => ({ specifier: target, target, typeOnly });
    const graph = new Map([
      ['src/modules/detect/service.ts', [edge('src/modules/batch/model.ts')]],
      ['src/modules/batch/model.ts', [edge('src/modules/detect/model.ts')]],
      ['src/modules/detect/model.ts', []],
    ]);
    expect(cycles(fileEdges(graph))).toEqual([]);
    expect(cycles(folderEdges(graph))).toEqual([['src/modules/batch', 'src/modules/detect']]);
  });

  it('flags the detector importing Elysia or the store, and the playground importing server code', () => {
    const graph = new Map<string, ImportEdge[]>([
      ['src/detector/index.ts', [{ specifier: 'elysia', target: null, typeOnly: false }]],
      ['src/detector/score/x.ts', [{ specifier: '../../store', target: 'src/store/index.ts', typeOnly: true }]],
      ['src/web/app.ts', [{ specifier: '../detector', target: 'src/detector/index.ts', typeOnly: false }]],
      ['src/web/api.ts', [{ specifier: '../detector', target: 'src/detector/index.ts', typeOnly: true }]],
    ]);
    expect(layerViolations(graph)).toEqual([
      'src/detector/index.ts -> elysia (src/detector/ never imports it)',
      'src/detector/score/x.ts -> src/store/index.ts (src/detector/ never imports it)',
      'src/web/app.ts -> src/detector/index.ts (src/web/ imports only types and src/contract/ at run time)',
    ]);
  });
});

describe('the repository', () => {
  it('resolves its relative imports (the scanner sees the whole graph)', () => {
    const unresolved = [...GRAPH].flatMap(([file, imports]) =>
      imports
        .filter((i) => i.specifier.startsWith('.') && !i.target && !/\.(wasm|bin|json|css|html|md|txt|js|mjs|sql)$/.test(i.specifier))
        .map((i) => `${file}: ${i.specifier}`),
    );
    expect(unresolved).toEqual([]);
    expect(FILES.length).toBeGreaterThan(150);
  });

  it('has no import cycle between files, type-only imports included', () => {
    expect(cycles(fileEdges(GRAPH))).toEqual([]);
  });

  it('has no import cycle between src/ folders', () => {
    expect(cycles(folderEdges(GRAPH))).toEqual([]);
  });

  it('keeps the layering rules', () => {
    expect(layerViolations(GRAPH)).toEqual([]);
  });
});
