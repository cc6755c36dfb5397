/**
 * What an operator trips on when making a profile through the real server (issue 45 items 1, 3, 5
 * and 7, on SQLite): misspelt fields and form parts are named with the right one; AI examples alone,
 * or of a language without human texts, are refused before anything is charged, saying what was sent,
 * what is missing and what to do; a text over the size limit is named by its field and index; the
 * 415 names the AI fields; and a mode's texts read as mixed are counted in the profile.
 */
import { afterAll, beforeAll, describe, expect, it, setDefaultTimeout } from 'bun:test';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { aiNotes, humanNote, humanNotes } from '../../scripts/lib/calibration-texts';
import { AI_EN, HUMAN_EN } from '../engine/texts';
import { runCommand, startServerProcess, type ServerProcess } from '../fixtures/server-process';
import { SUITE_TIMEOUT_MS } from '../timeout';
import { spanishAiNotes } from '../../scripts/lib/spanish-notes';

setDefaultTimeout(SUITE_TIMEOUT_MS);

const ROOT = join(import.meta.dir, '../..');
const dir = mkdtempSync(join(tmpdir(), 'calibration-requests-'));
/** Small, so that one text over it is cheap to send. */
const MAX_TEXT_CHARS = 5000;
const env = { DATABASE_PATH: join(dir, 'db.sqlite'), WORKERS: '1', BOOTSTRAP_KEY: '0', MAX_TEXT_CHARS: String(MAX_TEXT_CHARS) };

let server: ServerProcess;
let key = '';
beforeAll(async () => {
  server = await startServerProcess(['bun', 'src/main.ts', 'serve'], { cwd: ROOT, env });
  const made = runCommand(['bun', 'src/main.ts', 'keys', 'create', '--plan', 'enterprise'], ROOT, env);
  if (made.code !== 0) throw new Error(made.err);
  key = made.out.trim().split('\n').at(-1)!;
});
afterAll(async () => {
  await server?.stop();
  rmSync(dir, { recursive: true, force: true });
});

type Json = Record<string, any>;

async function post(body: unknown, headers: Record<string, string> = {}) {
  const json = !(body instanceof FormData) && typeof body !== 'string';
  const response = await fetch(`${server.base}/v1/calibrations`, {
    method: 'POST',
    headers: { 'x-api-key': key, ...(json ? { 'content-type': 'application/json' } : {}), ...headers },
    body: json ? JSON.stringify(body) : (body as BodyInit),
  });
  return { status: response.status, json: (await response.json()) as Json };
}

const wordsUsed = async () =>
  ((await (await fetch(`${server.base}/v1/usage`, { headers: { 'x-api-key': key } })).json()) as Json).words.used as number;

function form(parts: Array<[string, string[]]>): FormData {
  const body = new FormData();
  body.append('name', 'Uploaded');
  for (const [part, texts] of parts) texts.forEach((text, i) => body.append(part, new File([text], `${part.replace(/\W/g, '')}-${i}.txt`)));
  return body;
}

describe('a calibration request as an operator writes it', () => {
  it('names a misspelt JSON field or form part and the right one, charging nothing (item 3)', async () => {
    const texts = humanNotes(60);
    for (const field of ['aitexts', 'ai_texts']) {
      const refused = await post({ name: 'Notes', texts, [field]: aiNotes(60) });
      expect([refused.status, refused.json.error.code]).toEqual([400, 'invalid_request']);
      expect(refused.json.error.message).toBe(
        `Unknown field "${field}": did you mean "aiTexts"? A calibration takes "name", "texts" and "aiTexts".`,
      );
    }
    const other = await post({ name: 'Notes', texts, sensitivity: 'balanced' });
    expect(other.json.error.message).toBe('Unknown field "sensitivity": a calibration takes "name", "texts" and "aiTexts".');
    for (const part of ['AIFiles[]', 'aiFile[]', 'ai_files[]']) {
      const refused = await post(
        form([
          ['files[]', texts],
          [part, aiNotes(60)],
        ]),
      );
      expect([refused.status, refused.json.error.code]).toEqual([400, 'invalid_request']);
      expect(refused.json.error.message).toBe(
        `Unknown form part "${part}": did you mean "aiFiles[]"? A calibration takes "name", "files[]" and "aiFiles[]".`,
      );
    }
    // Human files under a misspelt part are named too, not "send at least one file".
    const misnamed = await post(form([['file[]', texts]]));
    expect(misnamed.json.error.message).toContain('did you mean "files[]"?');
    expect(await wordsUsed()).toBe(0);
  });

  it('says what was sent, what is missing and what to do when only AI examples come (item 5)', async () => {
    const alone = await post({ name: 'Notes', aiTexts: aiNotes(60) });
    expect([alone.status, alone.json.error.code]).toEqual([400, 'invalid_request']);
    expect(alone.json.error.message).toBe(
      'The "texts" field is required: 60 AI examples in "aiTexts" alone cannot make a profile, whose bars are set on known-human texts. Add at least 50 human texts per language in "texts".',
    );
    const empty = await post({ name: 'Notes', texts: [], aiTexts: aiNotes(60) });
    expect([empty.status, empty.json.error.code]).toEqual([422, 'calibration_empty']);
    expect(empty.json.error.message).toBe(
      `No known-human text: 60 usable AI examples were sent, and a profile's bars are set on known-human texts. Send at least 50 human texts of 20+ words per language in "texts" with them.`,
    );
    const files = await post(form([['aiFiles[]', aiNotes(60)]]));
    expect([files.status, files.json.error.code]).toEqual([422, 'calibration_empty']);
    expect(files.json.error.message).toContain('60 usable AI examples were sent');
    expect(files.json.error.message).toContain('in "files[]"');
    const plain = await post('hello', { 'content-type': 'text/plain' });
    expect([plain.status, plain.json.error.code]).toEqual([415, 'unsupported_media_type']);
    expect(plain.json.error.message).toContain('"aiTexts"');
    expect(plain.json.error.message).toContain('aiFiles[]');
    expect(await wordsUsed()).toBe(0);
  });

  it('refuses AI examples of a language with no human text before charging, naming it and the count (item 1)', async () => {
    const refused = await post({ name: 'Notes', texts: humanNotes(150), aiTexts: spanishAiNotes(60) });
    expect([refused.status, refused.json.error.code]).toEqual([422, 'calibration_ai_without_human']);
    expect(refused.json.error.message).toStartWith('60 AI examples are in Spanish, and no known-human text is');
    expect(refused.json.error.message).toEndWith('Nothing was charged.');
    const spanish = await fetch(`${server.base}/v1/calibrations`, {
      method: 'POST',
      headers: { 'x-api-key': key, 'content-type': 'application/json', 'accept-language': 'es' },
      body: JSON.stringify({ name: 'Notes', texts: humanNotes(150), aiTexts: spanishAiNotes(60) }),
    });
    expect(((await spanish.json()) as Json).error.message).toStartWith('Hay 60 ejemplos de IA en español');
    expect(await wordsUsed()).toBe(0);
  });

  it('names a text over the size limit by its field and index, and counts the texts read as mixed (items 5 and 7)', async () => {
    // 148 notes and 2 read as mixed (an AI paragraph after the note): at conservative, k = 0 of 150.
    const mixed = [0, 1].map((i) => `${HUMAN_EN} ${humanNote(i + 900)}\n\n${AI_EN}`);
    const texts = [...humanNotes(148), ...mixed];
    const long = `${humanNote(7)} `.repeat(Math.ceil(MAX_TEXT_CHARS / 200));
    expect(long.length).toBeGreaterThan(MAX_TEXT_CHARS);
    const made = await post({ name: 'Notes', texts: [...texts, 'four words too short'], aiTexts: [long] });
    expect(made.status).toBe(201);
    expect(made.json.skipped).toBe(2);
    expect(made.json.skippedTexts).toEqual([
      { field: 'texts', index: 150, code: 'text_too_short', message: 'The text is too short: at least 20 words are needed, 4 found.' },
      {
        field: 'aiTexts',
        index: 0,
        code: 'text_too_long',
        message: `The text has ${long.length} characters; the limit is ${MAX_TEXT_CHARS} per text. Split it into shorter texts.`,
      },
    ]);
    const conservative = made.json.languages.en.modes.conservative;
    expect(conservative).toMatchObject({ texts: 150, flagged: 2, mixed: 2 });
    expect(made.json.languages.en.modes.balanced.mixed).toBe(2);
  });
});
