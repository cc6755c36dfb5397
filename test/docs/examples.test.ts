import { describe, expect, it, setDefaultTimeout } from 'bun:test';
import { SUITE_TIMEOUT_MS } from '../timeout';
import type { TSchema } from '@sinclair/typebox';
import { ErrorBodySchema, ERROR_STATUS, SENT_ERROR_CODES } from '../../src/http/errors';
import { compileSchema } from '../../src/http/schema';
import { BATCH_LINE_SCHEMAS } from '../../src/modules/batch/model';
import { EXAMPLES } from '../../src/modules/docs/examples';
import { CalibrationSchema } from '../../src/modules/calibrations/model';
import { DetectRequestSchema, DetectResponseSchema } from '../../src/modules/detect/model';
import { generateExamples } from '../../scripts/docs-examples';

setDefaultTimeout(SUITE_TIMEOUT_MS);

/** Fields that change from run to run (timing) or month to month (quota state): not compared. */
const VOLATILE_FIELDS = new Set(['ms_cost', 'rate_limit', 'rate_remaining']);
/** Quota messages quote the next reset, an ISO date that moves every month. */
const ISO_DATE = /\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z/g;
/** A calibration profile's id is random (issue 34). */
const CALIBRATION_ID = /cal_[0-9A-Za-z]{22}/g;

function stable(value: unknown): unknown {
  if (typeof value === 'string') return value.replace(ISO_DATE, '<date>').replace(CALIBRATION_ID, '<calibration id>');
  if (Array.isArray(value)) return value.map(stable);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value)
      .filter(([key]) => !VOLATILE_FIELDS.has(key))
      .map(([key, v]) => [key, stable(v)]),
  );
}

/** Paths of fields in `value` that `schema` does not declare (the document must show everything sent). */
function undeclared(schema: Record<string, any>, value: unknown, path = ''): string[] {
  // A union (`{...} | null`): the value is declared if one member declares all of it.
  if (Array.isArray(schema.anyOf)) {
    const tries = schema.anyOf.map((member: Record<string, any>) => undeclared(member, value, path));
    return tries.find((t: string[]) => t.length === 0) ?? tries[0];
  }
  if (Array.isArray(value)) return value.flatMap((item, i) => undeclared(schema.items ?? {}, item, `${path}[${i}]`));
  if (value === null || typeof value !== 'object') return [];
  const properties: Record<string, object> = schema.properties ?? {};
  return Object.entries(value).flatMap(([key, v]) =>
    Object.hasOwn(properties, key) ? undeclared(properties[key], v, `${path}.${key}`) : [`${path}.${key}`],
  );
}

function expectMatches(schema: TSchema, value: unknown): void {
  const check = compileSchema(schema);
  expect([...check.Errors(value)].map((e) => `${e.path}: ${e.message}`)).toEqual([]);
  expect(undeclared(schema, value)).toEqual([]);
}

describe('the documented examples', () => {
  it('are what the app answers today (run `bun run docs:examples` after retraining or changing a message)', async () => {
    const fresh = await generateExamples();
    expect(stable(EXAMPLES)).toEqual(stable(fresh));
  });

  it('match the schemas they illustrate, field for field', () => {
    expectMatches(DetectRequestSchema, EXAMPLES.single.request);
    expectMatches(DetectResponseSchema, EXAMPLES.single.response);
    for (const line of EXAMPLES.batch.lines) expectMatches(BATCH_LINE_SCHEMAS[line.type], line);
    expectMatches(CalibrationSchema, EXAMPLES.calibration);
    for (const example of Object.values(EXAMPLES.errors)) {
      expectMatches(ErrorBodySchema, example.body);
      expect(example.status).toBe(ERROR_STATUS[example.body.error.code as keyof typeof ERROR_STATUS]);
    }
  });

  it('show a scored text with annotations and bullets, every batch line type, and every error code', () => {
    const single = EXAMPLES.single.response;
    expect(single.textAnnotations.length).toBeGreaterThan(0);
    expect(single.bullets.length).toBeGreaterThan(0);
    for (const bullet of single.bullets.filter((b) => b.end > b.start)) {
      expect(EXAMPLES.single.request.text.slice(bullet.start, bullet.end)).toBe(bullet.example);
    }
    expect(new Set(EXAMPLES.batch.lines.map((line) => line.type))).toEqual(new Set(['progress', 'result', 'error', 'complete']));
    const missing = SENT_ERROR_CODES.filter((code) => !Object.hasOwn(EXAMPLES.errors, code));
    // A new code: add a request that produces it to scripts/docs-examples.ts, then `bun run docs:examples`.
    expect(missing).toEqual([]);
  });

  it('are compared in a way that can fail', () => {
    const tampered = structuredClone(EXAMPLES);
    tampered.single.response.dimensions[0].id = 'uniform_sentences';
    expect(stable(tampered)).not.toEqual(stable(EXAMPLES));
    expect(compileSchema(DetectResponseSchema).Check(tampered.single.response)).toBe(false);
  });
});
