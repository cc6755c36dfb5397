/**
 * The import graph of the repository's TypeScript, read with a small scanner (not Bun.Transpiler's
 * scanImports, which drops type-only imports: a type-only cycle is still a misplaced type). Every
 * static `import ... from`, `export ... from`, side-effect `import '...'` and dynamic `import('...')`
 * with a literal path counts, `import type` included.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

/** The repository root. */
export const ROOT = resolve(import.meta.dir, '../..');

/** One import of a file: the specifier as written and the repository file it resolves to (null: a package). */
export interface ImportEdge {
  specifier: string;
  /** Repository-relative path of the imported file, or null for a package or an asset. */
  target: string | null;
  typeOnly: boolean;
}

/** Block and line comments, and template/string contents are left alone: the patterns below need `from '...'` shapes. */
const COMMENT = /\/\*[\s\S]*?\*\/|(^|[^:\\])\/\/[^\n]*/g;
const STATIC = /(?:^|[;\n}])\s*(import|export)\s+(type\s+)?([\w*{}\s,$]*?)\s*from\s*['"]([^'"]+)['"]/g;
const BARE = /(?:^|[;\n])\s*import\s*['"]([^'"]+)['"]/g;
const DYNAMIC = /\bimport\(\s*['"]([^'"]+)['"]\s*\)/g;

/** The import specifiers of a source text (exported for the scanner's own tests). */
export function scanImports(source: string): { specifier: string; typeOnly: boolean }[] {
  const code = source.replace(
    COMMENT,
    (m, pre: string | undefined) => (pre ?? '') + ' '.repeat(Math.max(0, m.length - (pre?.length ?? 0))),
  );
  const out: { specifier: string; typeOnly: boolean }[] = [];
  for (const m of code.matchAll(STATIC)) {
    const names = m[3] ?? '';
    // `import { type A, type B } from` is type-only too: every named binding is marked `type`.
    const inner = /^\{([^}]*)\}$/.exec(names.trim())?.[1];
    const allTypes = inner !== undefined && inner.trim() !== '' && inner.split(',').every((n) => !n.trim() || /^type\s/.test(n.trim()));
    out.push({ specifier: m[4], typeOnly: Boolean(m[2]) || allTypes });
  }
  for (const m of code.matchAll(BARE)) out.push({ specifier: m[1], typeOnly: false });
  for (const m of code.matchAll(DYNAMIC)) out.push({ specifier: m[1], typeOnly: false });
  return out;
}

const EXTENSIONS = ['.ts', '.tsx', '/index.ts'];

/** The repository file a relative specifier names, or null (a package, or a non-TypeScript asset). */
function resolveSpecifier(from: string, specifier: string): string | null {
  if (!specifier.startsWith('.')) return null;
  const base = resolve(dirname(join(ROOT, from)), specifier);
  if (/\.(ts|tsx)$/.test(base) && existsSync(base)) return relative(ROOT, base);
  for (const ext of EXTENSIONS) if (existsSync(base + ext)) return relative(ROOT, base + ext);
  return null;
}

/** TypeScript files under `dirs` (repository-relative), skipping generated bundles and declarations. */
export function sourceFiles(dirs: readonly string[]): string[] {
  const out: string[] = [];
  const walk = (dir: string) => {
    for (const name of readdirSync(join(ROOT, dir))) {
      const path = join(dir, name);
      if (name === 'node_modules' || name === 'bundle') continue;
      if (statSync(join(ROOT, path)).isDirectory()) walk(path);
      else if (/\.tsx?$/.test(name) && !name.endsWith('.d.ts')) out.push(path);
    }
  };
  for (const d of dirs) if (existsSync(join(ROOT, d))) walk(d);
  return out.sort();
}

/** The import graph of `files`: file -> its imports. */
export function importGraph(files: readonly string[]): Map<string, ImportEdge[]> {
  const graph = new Map<string, ImportEdge[]>();
  for (const file of files) {
    const edges = scanImports(readFileSync(join(ROOT, file), 'utf8')).map(({ specifier, typeOnly }) => ({
      specifier,
      target: resolveSpecifier(file, specifier),
      typeOnly,
    }));
    graph.set(file, edges);
  }
  return graph;
}

/** Strongly connected components with more than one node (or a self-loop): each is an import cycle. */
export function cycles(edges: ReadonlyMap<string, readonly string[]>): string[][] {
  let index = 0;
  const idx = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const on = new Set<string>();
  const out: string[][] = [];
  const connect = (v: string) => {
    idx.set(v, index);
    low.set(v, index++);
    stack.push(v);
    on.add(v);
    for (const w of edges.get(v) ?? []) {
      if (!idx.has(w)) {
        connect(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (on.has(w)) low.set(v, Math.min(low.get(v)!, idx.get(w)!));
    }
    if (low.get(v) === idx.get(v)) {
      const scc: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        on.delete(w);
        scc.push(w);
      } while (w !== v);
      if (scc.length > 1 || (edges.get(v) ?? []).includes(v)) out.push(scc.sort());
    }
  };
  for (const v of edges.keys()) if (!idx.has(v)) connect(v);
  return out;
}

/** File -> files it imports (repository files only). */
export function fileEdges(graph: ReadonlyMap<string, readonly ImportEdge[]>): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const [file, imports] of graph) out.set(file, [...new Set(imports.flatMap((i) => (i.target ? [i.target] : [])))]);
  return out;
}

/**
 * The folder of a file under src/, the unit of the folder rule: `src/modules/<name>` for a module,
 * `src/<folder>` otherwise, and `src` for the files at the top (the composition root).
 */
export function folderOf(file: string): string | null {
  const parts = file.split('/');
  if (parts[0] !== 'src') return null;
  if (parts.length === 2) return 'src';
  if (parts[1] === 'modules' && parts.length > 3) return parts.slice(0, 3).join('/');
  return parts.slice(0, 2).join('/');
}

/** Folder -> folders it imports (files at the top of src/ are left out: they wire everything). */
export function folderEdges(graph: ReadonlyMap<string, readonly ImportEdge[]>): Map<string, string[]> {
  const out = new Map<string, Set<string>>();
  for (const [file, imports] of graph) {
    const from = folderOf(file);
    if (!from || from === 'src') continue;
    const set = out.get(from) ?? new Set<string>();
    out.set(from, set);
    for (const i of imports) {
      const to = i.target ? folderOf(i.target) : null;
      if (to && to !== from && to !== 'src') set.add(to);
    }
  }
  return new Map([...out].map(([k, v]) => [k, [...v]]));
}
