import { describe, expect, it, setDefaultTimeout } from 'bun:test';
import { SUITE_TIMEOUT_MS } from '../timeout';
import SwaggerParser from '@apidevtools/swagger-parser';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SENSITIVITIES, VERDICT_KEYS } from '../../src/contract';
import { DIMENSIONS } from '../../src/detector/explain/dimensions';
import { DOC_TYPES } from '../../src/detector/score/doctype';
import { EXTRACT_ERROR_STATUS } from '../../src/extract/errors';
import { ERROR_STATUS, SENT_ERROR_CODES } from '../../src/http/errors';
import { FILE_ERROR_CODES } from '../../src/modules/batch/model';
import { CALIBRATION_CREATE_CODES } from '../../src/modules/docs/openapi';
import { call, makeApp } from '../http/helpers';

/** Error codes whose body carries unit/needed/remaining/limit/resetAt. */
const QUOTA_CODES: readonly string[] = ['quota_exceeded', 'exceeds_plan', 'trial_calls_exhausted', 'rate_limited'];

setDefaultTimeout(SUITE_TIMEOUT_MS);

type Json = Record<string, any>;

/** The pinned devDependency (package.json), run by Bun: no download, no Node needed. */
const REDOCLY_CLI = join(import.meta.dir, '../../node_modules/@redocly/cli/bin/cli.js');

const { app } = makeApp();
const spec: Json = await (await call(app, '/swagger/json')).json();
const schemas: Json = spec.components.schemas;
const detect: Json = spec.paths['/api/detect'].post;

/** Every schema object in the document, with its JSON pointer. */
function* walk(node: unknown, pointer = '#'): Generator<[string, Json]> {
  if (node === null || typeof node !== 'object') return;
  yield [pointer, node as Json];
  for (const [key, value] of Object.entries(node)) yield* walk(value, `${pointer}/${key}`);
}

describe('the OpenAPI document', () => {
  it('passes redocly lint (recommended rules) with no errors', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'openapi-lint-'));
    try {
      const file = join(dir, 'openapi.json');
      await Bun.write(file, JSON.stringify(spec, null, 2));
      const lint = Bun.spawnSync({
        cmd: [process.execPath, REDOCLY_CLI, 'lint', file, '--format=json'],
        env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true', NO_COLOR: '1' },
        // A scratch directory: no redocly.yaml around, so the built-in recommended rules apply.
        cwd: dir,
      });
      const report = JSON.parse(lint.stdout.toString());
      const errors = report.problems.filter((p: Json) => p.severity === 'error').map((p: Json) => `${p.ruleId}: ${p.message}`);
      expect(errors).toEqual([]);
      expect(report.totals.errors).toBe(0);
      expect(lint.exitCode).toBe(0);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 30_000);

  it('passes @apidevtools/swagger-parser validation as OpenAPI 3.1', async () => {
    const api = await SwaggerParser.validate(structuredClone(spec) as never);
    expect(api).toHaveProperty('openapi', '3.1.0');
  });

  it('writes integers as integer, never as a string-or-integer union', () => {
    for (const [pointer, node] of walk(spec)) {
      if (node.format === 'integer') throw new Error(`${pointer} documents an integer as a formatted string`);
    }
    const response = schemas.DetectResponse.properties;
    for (const field of ['score', 'totalDimensions', 'activeDimensions', 'rate_limit', 'rate_remaining', 'words']) {
      expect([field, response[field].type]).toEqual([field, 'integer']);
    }
    expect(response.textAnnotations.items.properties.start.type).toBe('integer');
    expect(response.bullets.items.properties.end.type).toBe('integer');
    expect(response.ms_cost.type).toBe('number');
    expect(schemas.BatchResultLine.properties.score.type).toBe('integer');
  });

  it('takes every enumeration from its single-source constant', () => {
    const response = schemas.DetectResponse.properties;
    expect(response.verdictKey.enum).toEqual([...VERDICT_KEYS]);
    expect(response.sensitivity.enum).toEqual([...SENSITIVITIES]);
    expect(response.docType.enum).toEqual([...DOC_TYPES]);
    expect(response.dimensions.items.properties.id.enum).toEqual(DIMENSIONS.map((d) => d.id));
    expect(response.textAnnotations.items.properties.dims.items.properties.id.enum).toEqual(DIMENSIONS.map((d) => d.id));
    expect(schemas.ErrorBody.properties.error.properties.code.enum).toEqual(SENT_ERROR_CODES);
    // Logged only (the client had gone): never part of the contract.
    expect(SENT_ERROR_CODES).not.toContain('client_closed');
    expect(schemas.BatchResultLine.properties.verdictKey.enum).toEqual([...VERDICT_KEYS]);
    const fileCodes: string[] = schemas.BatchErrorLine.properties.code.enum;
    expect(fileCodes).toEqual([...FILE_ERROR_CODES]);
    for (const code of [...Object.keys(EXTRACT_ERROR_STATUS), 'extract_timeout', 'extract_failed', 'text_too_short', 'batch_timeout']) {
      expect(fileCodes).toContain(code);
    }
    const sensitivity = schemas.DetectRequest.properties.sensitivity.anyOf;
    expect(sensitivity).toEqual(expect.arrayContaining([expect.objectContaining({ type: 'string', enum: [...SENSITIVITIES] })]));
    expect(schemas.BatchForm.properties.sensitivity.enum).toEqual([...SENSITIVITIES]);
  });

  it('puts no example on Idempotency-Key, which Swagger UI would send on every "Try it out" (issue 28)', () => {
    for (const operation of [detect, spec.paths['/v1/detect'].post]) {
      const parameter = operation.parameters.find((p: Json) => p.name === 'Idempotency-Key');
      expect(parameter).toBeDefined();
      expect(parameter.example).toBeUndefined();
      expect(parameter.examples).toBeUndefined();
      expect(parameter.schema.example).toBeUndefined();
      expect(parameter.schema.default).toBeUndefined();
    }
  });

  it('documents each NDJSON line type as a component of a discriminated union', () => {
    const lines = { progress: 'BatchProgressLine', result: 'BatchResultLine', error: 'BatchErrorLine', complete: 'BatchCompleteLine' };
    expect(schemas.BatchLine.discriminator.propertyName).toBe('type');
    for (const [type, name] of Object.entries(lines)) {
      expect(schemas[name].properties.type).toEqual(expect.objectContaining({ const: type }));
      expect(schemas[name].required).toContain('type');
      expect(schemas.BatchLine.oneOf).toContainEqual({ $ref: `#/components/schemas/${name}`, type: 'object' });
      expect(schemas.BatchLine.discriminator.mapping[type]).toBe(`#/components/schemas/${name}`);
    }
    const stream = spec.paths['/v1/detect/batch'].post.responses['200'].content['application/x-ndjson'];
    expect(stream.schema).toEqual({ $ref: '#/components/schemas/BatchLine' });
    const exampleTypes = Object.values(stream.examples).map((e) => (e as Json).value.type);
    expect(new Set(exampleTypes)).toEqual(new Set(Object.keys(lines)));
  });

  it('documents every error code under its status, with a real example, and 404/405 for every operation', () => {
    const generic: Json = spec.components.responses.Error;
    for (const path of Object.keys(spec.paths)) {
      for (const operation of Object.values(spec.paths[path]) as Json[]) {
        expect(operation.responses.default).toEqual({ $ref: '#/components/responses/Error' });
      }
    }
    const create: Json = spec.paths['/v1/calibrations'].post;
    for (const code of SENT_ERROR_CODES) {
      // The codes only POST /v1/calibrations answers are documented there (issue 34), the others on detection.
      const owner = CALIBRATION_CREATE_CODES.includes(code) ? create : detect;
      const generalCodes: string[] = ['not_found', 'method_not_allowed', 'internal_error'];
      const response: Json = generalCodes.includes(code) ? generic : (owner.responses[String(ERROR_STATUS[code])] ?? generic);
      expect([code, response.description]).toEqual([code, expect.stringContaining(`\`${code}\``)]);
      const example = response.content['application/json'].examples[code];
      // Quota and rate errors add their numbers (issue 28); the others are code and message alone.
      const numbers = QUOTA_CODES.includes(code)
        ? {
            unit: expect.any(String),
            needed: expect.any(Number),
            remaining: expect.any(Number),
            limit: expect.any(Number),
            resetAt: expect.anything(),
          }
        : {};
      const resetAt = code === 'trial_calls_exhausted' ? { resetAt: null } : {};
      expect([code, example?.value]).toEqual([
        code,
        { success: false, error: { code, message: expect.any(String), ...numbers, ...resetAt } },
      ]);
    }
    expect(Object.keys(generic.content['application/json'].examples).sort()).toEqual(['internal_error', 'method_not_allowed', 'not_found']);
    expect(generic.headers.Allow.schema.type).toBe('string');
    expect(Object.keys(detect.responses['429'].headers)).toEqual(expect.arrayContaining(['Retry-After', 'RateLimit', 'RateLimit-Policy']));
    expect(Object.keys(detect.responses['401'].headers)).toContain('WWW-Authenticate');
  });

  it('pre-fills Accept-Language with English, so "Try it out" answers in English', () => {
    const header = detect.parameters.find((p: Json) => p.name === 'Accept-Language');
    expect(header.example).toBe('en');
    expect(detect.parameters.find((p: Json) => p.name === 'lang').schema.enum).toEqual(['en', 'es']);
  });
});
