/**
 * Issue 22 item 8: the client examples run against a real server process, and the TypeScript
 * example's generated types match a fresh `bun run examples:types`.
 */
import { afterAll, beforeAll, describe, expect, it, setDefaultTimeout } from 'bun:test';
import { SUITE_TIMEOUT_MS } from '../timeout';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { VERDICT_KEYS } from '../../src/contract';
import { modelVersion } from '../../src/model-version';
import { EXAMPLE_TYPES_PATH, generateExampleTypes } from '../../scripts/example-types';
import { bootstrapKeyOf, startServerProcess, type ServerProcess } from '../fixtures/server-process';
import { detector, PROSE } from '../http/helpers';

setDefaultTimeout(SUITE_TIMEOUT_MS);

const ROOT = join(import.meta.dir, '../..');
const dir = mkdtempSync(join(tmpdir(), 'detector-examples-'));
const file = join(dir, 'essay.md');
const FILE_TEXT = `# Notes\n\n${PROSE}`;
const HAVE_PYTHON = Bun.which('python3') !== null;
let server: ServerProcess;
let key = '';

beforeAll(async () => {
  writeFileSync(file, FILE_TEXT);
  server = await startServerProcess(['bun', 'src/main.ts', 'serve'], {
    cwd: ROOT,
    env: { DATABASE_PATH: join(dir, 'x.sqlite'), WORKERS: '1' },
  });
  key = await bootstrapKeyOf(server);
}, 30_000);
afterAll(async () => {
  await server?.stop();
  rmSync(dir, { recursive: true, force: true });
});

/** Runs a client; its stdout as one object per step. */
function runClient(command: string[]) {
  const result = Bun.spawnSync([...command, file], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '', DETECTOR_URL: server.base, DETECTOR_KEY: key },
    stdout: 'pipe',
    stderr: 'pipe',
  });
  expect(result.stderr.toString()).toBe('');
  expect(result.exitCode).toBe(0);
  return result.stdout
    .toString()
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line));
}

/** Checks one client's three steps, given the key's words and calls used before the run. */
function expectSteps(steps: Array<Record<string, any>>, wordsBefore: number, callsBefore: number) {
  expect(steps.map((s) => s.step)).toEqual(['text', 'file', 'usage']);
  const [text, scored, usage] = steps;
  expect(text.score).toBeGreaterThanOrEqual(0);
  expect(text.score).toBeLessThanOrEqual(100);
  expect(VERDICT_KEYS).toContain(text.verdictKey);
  expect(text.modelVersion).toBe(modelVersion());
  expect(scored.fileName).toBe('essay.md');
  // `#` is no word: the Markdown heading's text counts as one word, as in the file.
  expect(scored.words).toBe(detector().countWords(FILE_TEXT));
  expect(VERDICT_KEYS).toContain(scored.verdictKey);
  expect(typeof scored.why).toBe('string');
  expect(scored.why.length).toBeGreaterThan(0);
  // Usage agrees with what the two calls were charged.
  expect(usage.plan).toBe('free');
  expect(usage.words.used).toBe(wordsBefore + text.words + scored.words);
  expect(usage.words.remaining).toBe(10_000 - usage.words.used);
  expect(usage.calls.used).toBe(callsBefore + 2);
  expect(usage.trial).toBeNull();
}

describe('client examples against a real server', () => {
  it('the TypeScript client (on the generated types) scores a text and a file and reads usage', () => {
    expectSteps(runClient(['bun', 'examples/typescript/client.ts']), 0, 0);
  }, 30_000);

  it.if(HAVE_PYTHON)(
    'the Python client (standard library only) does the same',
    () => {
      const before = runClient(['bun', 'examples/typescript/client.ts']).at(-1)!;
      expectSteps(runClient(['python3', 'examples/python/client.py']), before.words.used, before.calls.used);
    },
    30_000,
  );

  it('keeps the committed generated types in step with the OpenAPI document', async () => {
    expect(await generateExampleTypes()).toBe(await Bun.file(EXAMPLE_TYPES_PATH).text());
  });
});
