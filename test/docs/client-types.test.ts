import { describe, expect, it, setDefaultTimeout } from 'bun:test';
import { SUITE_TIMEOUT_MS } from '../timeout';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import openapiTS, { astToString } from 'openapi-typescript';
import ts from 'typescript';
import { VERDICT_KEYS } from '../../src/contract';
import { SENT_ERROR_CODES } from '../../src/http/errors';
import { FILE_ERROR_CODES } from '../../src/modules/batch/model';
import { call, makeApp } from '../http/helpers';

setDefaultTimeout(SUITE_TIMEOUT_MS);

type Json = Record<string, any>;

const union = (values: readonly string[]) => values.map((v) => JSON.stringify(v)).join(' | ');
const index = (key: string) => `[${JSON.stringify(key)}]`;

/** The TypeScript type a correct client gives a (non-object) schema; null when only its parts are checked. */
function expectedType(schema: Json): string | null {
  if (schema.$ref) return `components["schemas"]${index(schema.$ref.split('/').pop())}`;
  if (schema.enum) return union(schema.enum);
  if ('const' in schema) return JSON.stringify(schema.const);
  if (schema.anyOf) {
    const parts = schema.anyOf.map(expectedType);
    return parts.includes(null) ? null : parts.map((p: string) => `(${p})`).join(' | ');
  }
  switch (schema.type) {
    case 'integer':
    case 'number':
      return 'number';
    case 'string':
      return 'string';
    case 'boolean':
      return 'boolean';
    case 'null':
      return 'null';
    case 'array': {
      const item = expectedType(schema.items);
      return item === null ? null : `(${item})[]`;
    }
    default:
      return null;
  }
}

/** One type assertion per documented field (recursing into objects and array items). */
function fieldAssertions(schema: Json, access: string, out: string[]): void {
  if (schema.type === 'array') {
    fieldAssertions(schema.items, `${access}[number]`, out);
    return;
  }
  if (schema.type !== 'object') return;
  for (const [name, field] of Object.entries(schema.properties ?? {}) as [string, Json][]) {
    const path = `${access}${index(name)}`;
    const type = expectedType(field);
    const optional = !(schema.required ?? []).includes(name);
    if (type !== null) out.push(`type _${out.length} = Assert<Equal<${path}, ${optional ? `(${type}) | undefined` : type}>>;`);
    fieldAssertions(field, optional ? `Exclude<${path}, undefined>` : path, out);
  }
}

const PRELUDE = `import type { components, paths } from './api';
type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends (<T>() => T extends B ? 1 : 2) ? true : false;
type Assert<T extends true> = T;
`;

/** Type-checks files in `dir`; returns the diagnostics of each file by base name. */
function typecheck(dir: string, files: string[]): Record<string, string[]> {
  const program = ts.createProgram(
    files.map((f) => join(dir, f)),
    { strict: true, noEmit: true, skipLibCheck: true, target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.ESNext, types: [] },
  );
  const byFile: Record<string, string[]> = Object.fromEntries(files.map((f) => [f, []]));
  for (const d of ts.getPreEmitDiagnostics(program)) {
    const name = d.file ? d.file.fileName.split('/').pop()! : 'global';
    const line = d.file && d.start !== undefined ? d.file.text.split('\n')[d.file.getLineAndCharacterOfPosition(d.start).line] : '';
    (byFile[name] ??= []).push(`${ts.flattenDiagnosticMessageText(d.messageText, '\n').split('\n')[0]} ${line}`);
  }
  return byFile;
}

describe('a client generated from /swagger/json with openapi-typescript', () => {
  it('types every documented field as the schema says: integers as number, enums as unions, NDJSON lines present', async () => {
    const { app } = makeApp();
    const spec: Json = await (await call(app, '/swagger/json')).json();
    const generated = astToString(await openapiTS(spec as never));

    const checks: string[] = [];
    for (const [name, schema] of Object.entries(spec.components.schemas) as [string, Json][]) {
      fieldAssertions(schema, `components["schemas"]${index(name)}`, checks);
    }
    const response = 'components["schemas"]["DetectResponse"]';
    const ndjson = 'paths["/v1/detect/batch"]["post"]["responses"][200]["content"]["application/x-ndjson"]';
    checks.push(
      `type _score = Assert<Equal<${response}["score"], number>>;`,
      `type _start = Assert<Equal<${response}["textAnnotations"][number]["start"], number>>;`,
      `type _end = Assert<Equal<${response}["bullets"][number]["end"], number>>;`,
      `type _verdict = Assert<Equal<${response}["verdictKey"], ${union(VERDICT_KEYS)}>>;`,
      `type _json = Assert<Equal<paths["/api/detect"]["post"]["responses"][200]["content"]["application/json"], ${response}>>;`,
      // Issue 45 item 8: one media type per answer, so a generated client's `data` needs no narrowing.
      `type _onlyJson = Assert<Equal<keyof paths["/v1/detect"]["post"]["responses"][200]["content"], "application/json">>;`,
      `type _onlyNdjson = Assert<Equal<keyof paths["/v1/detect/batch"]["post"]["responses"][200]["content"], "application/x-ndjson">>;`,
      `type _lines = Assert<Equal<${ndjson}, components["schemas"]["BatchLine"]>>;`,
      `type _lineTypes = Assert<Equal<${ndjson}["type"], "progress" | "result" | "error" | "complete">>;`,
      `type _fileCodes = Assert<Equal<components["schemas"]["BatchErrorLine"]["code"], ${union(FILE_ERROR_CODES)}>>;`,
      `type _codes = Assert<Equal<components["schemas"]["ErrorBody"]["error"]["code"], ${union(SENT_ERROR_CODES)}>>;`,
    );

    const dir = mkdtempSync(join(tmpdir(), 'openapi-client-'));
    try {
      await Bun.write(join(dir, 'api.ts'), generated);
      await Bun.write(join(dir, 'check.ts'), `${PRELUDE}${checks.join('\n')}\nexport {};\n`);
      // A control: the same assertion machinery must reject a wrong type.
      await Bun.write(
        join(dir, 'control.ts'),
        `${PRELUDE}type _wrong = Assert<Equal<${response}["score"], string | number>>;\nexport {};\n`,
      );
      const diagnostics = typecheck(dir, ['api.ts', 'check.ts', 'control.ts']);
      expect(diagnostics['api.ts']).toEqual([]);
      expect(diagnostics['check.ts']).toEqual([]);
      expect(diagnostics['control.ts']).toHaveLength(1);
      expect(checks.length).toBeGreaterThan(60);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 30_000);
});
