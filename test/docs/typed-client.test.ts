/**
 * Issue 45 item 8: a client generated from the served document with openapi-typescript and called with
 * openapi-fetch, compiled with `tsc --strict` (no hand-narrowing of `data`), then run against the real
 * app: a JSON detection's `data.score` is a number, and POST /v1/detect/batch streams NDJSON. A control
 * document that still answers /v1/detect with two media types must fail the same compile (the union
 * that broke `data.score`). And every answer object of the document is closed (`additionalProperties:
 * false`): real answers validate against it with a strict JSON Schema validator (ajv, draft 2020-12).
 */
import { describe, expect, it, setDefaultTimeout } from 'bun:test';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import Ajv2020 from 'ajv/dist/2020';
import openapiTS, { astToString } from 'openapi-typescript';
import ts from 'typescript';
import { humanNotes } from '../../scripts/lib/calibration-texts';
import { SUITE_TIMEOUT_MS } from '../timeout';
import { AI_EN } from '../engine/texts';
import { call, makeApp } from '../http/helpers';

setDefaultTimeout(SUITE_TIMEOUT_MS);

type Json = Record<string, any>;
const ROOT = join(import.meta.dir, '..', '..');

/** The client a user writes: no cast, no `in` check, no narrowing of `data` beyond the error test. */
const CLIENT = `import createClient from 'openapi-fetch';
import type { paths } from './api';

export async function detect(baseUrl: string, key: string, text: string, fetchImpl: (r: Request) => Promise<Response>) {
  const client = createClient<paths>({ baseUrl, fetch: fetchImpl });
  const { data, error } = await client.POST('/v1/detect', { body: { text }, headers: { 'X-API-Key': key } });
  if (error) throw new Error(error.error.code);
  const score: number = data.score;
  const verdict: string = data.verdictKey;
  const bound: number | null = data.measuredError.upperBound;
  const adapted: boolean = data.calibration?.adapted ?? false;
  return { score, verdict, bound, adapted };
}

export async function batch(baseUrl: string, key: string, form: FormData, fetchImpl: (r: Request) => Promise<Response>) {
  const client = createClient<paths>({ baseUrl, fetch: fetchImpl });
  const { response } = await client.POST('/v1/detect/batch', {
    // The form's parts as the schema names them; the FormData itself is what is sent.
    body: { 'files[]': [] },
    bodySerializer: () => form,
    headers: { 'X-API-Key': key },
    parseAs: 'text',
  });
  return { status: response.status, type: response.headers.get('content-type')?.split(';')[0] };
}
`;

/** Type-checks `files` of `dir` as a strict client would; the diagnostics, one line each. */
function strictCheck(dir: string, files: string[]): string[] {
  const program = ts.createProgram(
    files.map((f) => join(dir, f)),
    {
      strict: true,
      noEmit: true,
      skipLibCheck: true,
      target: ts.ScriptTarget.ES2022,
      module: ts.ModuleKind.ESNext,
      moduleResolution: ts.ModuleResolutionKind.Bundler,
      lib: ['lib.es2022.d.ts', 'lib.dom.d.ts'],
      types: [],
    },
  );
  return ts.getPreEmitDiagnostics(program).map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n').split('\n')[0]);
}

/** A scratch folder under node_modules/, so `openapi-fetch` resolves as it would in a user's project. */
function scratch(): string {
  const base = join(ROOT, 'node_modules', '.cache');
  mkdirSync(base, { recursive: true });
  return mkdtempSync(join(base, 'typed-client-'));
}

describe('a typed client generated from /swagger/json (issue 45 item 8)', () => {
  it('compiles under tsc --strict with openapi-fetch, with no narrowing of data, and runs against the real app', async () => {
    const { app, newKey } = makeApp();
    const spec: Json = await (await call(app, '/swagger/json')).json();
    const dir = scratch();
    try {
      await Bun.write(join(dir, 'api.ts'), astToString(await openapiTS(spec as never)));
      await Bun.write(join(dir, 'client.ts'), CLIENT);
      expect(strictCheck(dir, ['api.ts', 'client.ts'])).toEqual([]);

      // Run it: the same client against the app (the fetch is the app's handler: no port needed).
      const { key } = await newKey('premium');
      const fetchImpl = (r: Request) => app.handle(r);
      const client = await import(join(dir, 'client.ts'));
      const single = await client.detect('http://localhost', key, AI_EN, fetchImpl);
      expect(typeof single.score).toBe('number');
      expect(single.score).toBeGreaterThan(50);
      expect(['ai', 'likely_ai']).toContain(single.verdict);
      const form = new FormData();
      form.append('files[]', new File([humanNotes(1)[0]], 'note.txt', { type: 'text/plain' }));
      expect(await client.batch('http://localhost', key, form, fetchImpl)).toEqual({ status: 200, type: 'application/x-ndjson' });

      // The control: the document as it was (two media types on /v1/detect's 200) breaks `data.score`.
      const control = structuredClone(spec);
      control.paths['/v1/detect'].post.responses['200'].content['application/x-ndjson'] = {
        schema: { $ref: '#/components/schemas/BatchLine' },
      };
      await Bun.write(join(dir, 'api.ts'), astToString(await openapiTS(control as never)));
      const broken = strictCheck(dir, ['api.ts', 'client.ts']);
      expect(broken.length).toBeGreaterThan(0);
      expect(broken.join('\n')).toContain('score');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);

  it('answers a JSON body on /v1/detect/batch with 415 naming the two paths', async () => {
    const { app, newKey } = makeApp();
    const { key } = await newKey();
    const res = await call(app, '/v1/detect/batch', { method: 'POST', headers: { 'X-API-Key': key }, json: { text: AI_EN } });
    expect(res.status).toBe(415);
    const body = await res.json();
    expect(body.error.code).toBe('unsupported_media_type');
    expect(body.error.message).toContain('/v1/detect/batch');
  });
});

describe('the served document closes every answer object (issue 45 item 8)', () => {
  it('sets additionalProperties: false on each object of an answer, and real answers validate strictly', async () => {
    const { app, newKey } = makeApp();
    const spec: Json = await (await call(app, '/swagger/json')).json();
    const open: string[] = [];
    const walk = (s: unknown, at: string) => {
      if (!s || typeof s !== 'object') return;
      if (Array.isArray(s)) return s.forEach((v, i) => walk(v, `${at}[${i}]`));
      const o = s as Json;
      if (o.type === 'object' && o.properties && o.additionalProperties === undefined) open.push(at);
      for (const [k, v] of Object.entries(o)) walk(v, `${at}.${k}`);
    };
    const requests = new Set(['DetectRequest', 'BatchForm', 'CreateCalibration', 'CalibrationForm']);
    let objects = 0;
    for (const [name, schema] of Object.entries(spec.components.schemas)) {
      if (requests.has(name)) continue;
      walk(schema, name);
      objects += JSON.stringify(schema).split('"additionalProperties":false').length - 1;
    }
    expect(open).toEqual([]);
    expect(objects).toBeGreaterThan(60);

    // Real answers, validated by a strict validator against the served schemas.
    const ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: false });
    ajv.addSchema({ $id: 'doc', components: spec.components });
    const check = (name: string, body: unknown) => {
      const validate = ajv.getSchema(`doc#/components/schemas/${name}`)!;
      const ok = validate(body);
      return ok ? [] : (validate.errors ?? []).map((e) => `${name}${e.instancePath} ${e.message} ${JSON.stringify(e.params)}`);
    };
    const { key } = await newKey('premium');
    const headers = { 'X-API-Key': key };
    const detect = await (await call(app, '/v1/detect', { method: 'POST', headers, json: { text: AI_EN } })).json();
    expect(check('DetectResponse', detect)).toEqual([]);
    expect(check('DetectResponse', { ...detect, surprise: 1 })).not.toEqual([]);
    expect(check('DetectResponse', { ...detect, measuredError: { ...detect.measuredError, surprise: 1 } })).not.toEqual([]);
    const usage = await (await call(app, '/v1/usage', { headers })).json();
    expect(check('Usage', usage)).toEqual([]);
    const limits = await (await call(app, '/v1/limits', { headers })).json();
    expect(check('Limits', limits)).toEqual([]);
    const created = await call(app, '/v1/calibrations', { method: 'POST', headers, json: { name: 'notes', texts: humanNotes(120) } });
    expect(created.status).toBe(201);
    expect(check('Calibration', await created.json())).toEqual([]);
    const list = await (await call(app, '/v1/calibrations', { headers })).json();
    expect(check('CalibrationList', list)).toEqual([]);
    const error = await (await call(app, '/v1/detect', { method: 'POST', headers, json: { text: 1 } })).json();
    expect(check('ErrorBody', error)).toEqual([]);
  }, 60_000);
});
