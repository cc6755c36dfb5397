/**
 * Issue 22 item 8: the client examples run against a real server process, and the TypeScript
 * example's generated types match a fresh `bun run examples:types`. Issue 39: each also makes a
 * calibration profile from a folder of known-human files, scores with it, lists and deletes it.
 */
import { afterAll, beforeAll, describe, expect, it, setDefaultTimeout } from 'bun:test';
import { SUITE_TIMEOUT_MS } from '../timeout';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { VERDICT_KEYS } from '../../src/contract';
import { modelVersion } from '../../src/model-version';
import { EXAMPLE_TYPES_PATH, generateExampleTypes } from '../../scripts/example-types';
import { bootstrapKeyOf, startServerProcess, type ServerProcess } from '../fixtures/server-process';
import { detector, PROSE } from '../http/helpers';
import { humanTexts } from '../../scripts/lib/human-texts';
import { aiNotes } from '../../scripts/lib/calibration-texts';

setDefaultTimeout(SUITE_TIMEOUT_MS);

const ROOT = join(import.meta.dir, '../..');
const dir = mkdtempSync(join(tmpdir(), 'detector-examples-'));
const file = join(dir, 'essay.md');
const FILE_TEXT = `# Notes\n\n${PROSE}`;
/**
 * The known-human folder: 50 notes (the fewest a profile's language needs) cut to 24 words, so three
 * runs of the clients on one free key (10,000 words a month) stay within it, and one file too short to use.
 */
const folder = join(dir, 'known-human');
const NOTES = humanTexts(50, 39).map((text) => `${text.split(' ').slice(0, 24).join(' ')}.`);
/** Issue 45 item 9: AI examples beside them (the diary register in a chat model's voice), cut to 30 words (at 24 some are the same text). */
const aiFolder = join(dir, 'ai-examples');
const AI_NOTES = aiNotes(54).map((text) => `${text.split(' ').slice(0, 30).join(' ')}.`);
const NOTE_WORDS = [...NOTES, ...AI_NOTES].reduce((n, text) => n + detector().countWords(text), 0);
const HAVE_PYTHON = Bun.which('python3') !== null;
let server: ServerProcess;
let key = '';

beforeAll(async () => {
  writeFileSync(file, FILE_TEXT);
  mkdirSync(folder);
  NOTES.forEach((text, i) => writeFileSync(join(folder, `note-${String(i).padStart(2, '0')}.txt`), text));
  writeFileSync(join(folder, 'short.txt'), 'Three words only.');
  mkdirSync(aiFolder);
  AI_NOTES.forEach((text, i) => writeFileSync(join(aiFolder, `ai-${String(i).padStart(2, '0')}.txt`), text));
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
  const result = Bun.spawnSync([...command, file, folder, aiFolder], {
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

/** Checks one client's steps, given the key's words and calls used before the run. */
function expectSteps(steps: Array<Record<string, any>>, wordsBefore: number, callsBefore: number) {
  expect(steps.map((s) => s.step)).toEqual(['text', 'file', 'calibrate', 'calibrated', 'profiles', 'deleted', 'usage']);
  const [text, scored, made, calibrated, profiles, deleted, usage] = steps;
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
  // The profile: the 50 notes, the short file named with its reason; used by a detection of the same
  // text (its score never moves), listed, then deleted.
  expect(made.id).toMatch(/^cal_[0-9A-Za-z]{22}$/);
  expect(made.texts).toEqual({ en: NOTES.length });
  expect(made.skipped).toBe(1);
  expect(made.skippedFiles).toEqual([{ fileName: 'short.txt', code: 'text_too_short' }]);
  // The AI examples arrived as such (aiFiles[]): 50 of them, adapted or with the reason it did not adapt, never "no AI examples".
  const en = made.adaptation.en;
  if (en.notAdapted === undefined) expect(en.aiTexts).toBe(AI_NOTES.length);
  else expect(['not_separable', 'no_gain', 'examples_look_human']).toContain(en.notAdapted);
  // The detection says whether the adapted score decided, and the model's own score when it did.
  expect(calibrated.adapted).toBe(calibrated.calibration.adapted);
  expect(calibrated.modelScore).toBe(calibrated.adapted ? calibrated.calibration.modelScore : null);
  if (!calibrated.adapted) expect(calibrated.score).toBe(text.score);
  expect(calibrated.calibration).toMatchObject({ id: made.id, name: 'Known-human examples' });
  expect(typeof calibrated.calibration.applied).toBe('boolean');
  expect(calibrated.measuredError).toBe(calibrated.calibration.applied ? 'calibration' : 'model');
  expect(profiles.ids).toContain(made.id);
  expect(deleted.id).toBe(made.id);
  // Usage agrees with what the four charged calls were charged: the text twice, the file, the notes.
  expect(usage.plan).toBe('free');
  expect(usage.words.used).toBe(wordsBefore + 2 * text.words + scored.words + NOTE_WORDS);
  expect(usage.words.remaining).toBe(10_000 - usage.words.used);
  expect(usage.calls.used).toBe(callsBefore + 4);
  expect(usage.trial).toBeNull();
}

describe('client examples against a real server', () => {
  it('the TypeScript client (on the generated types) scores a text and a file, calibrates, and reads usage', () => {
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
