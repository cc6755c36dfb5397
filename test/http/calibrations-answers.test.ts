/**
 * What POST /v1/calibrations tells a new user (issue 39): a profile larger than the key's plan points
 * to the offline `bun run calibrate` (a profile cannot be split); each skipped file is named with its
 * reason; a name too long says so and quotes the limit; a wrong Content-Type gets the calibration
 * wording. In process (app.handle) on a fresh SQLite store, in English and Spanish.
 */
import { describe, expect, it, setDefaultTimeout } from 'bun:test';
import { humanTexts } from '../../scripts/lib/human-texts';
import { MAX_CALIBRATION_NAME } from '../../src/modules/calibrations';
import { SUITE_TIMEOUT_MS } from '../timeout';
import { call, makeApp } from './helpers';

setDefaultTimeout(SUITE_TIMEOUT_MS);

type ErrorBody = { error: { code: string; message: string } };
const period = () => new Date().toISOString().slice(0, 7);

/** Usable known-human texts of 40-90 words: 250 of them are ~16,000 words, more than a free month (10,000). */
const OVER_FREE = humanTexts(250, 39);

describe('a calibration larger than the plan', () => {
  it('answers 413 exceeds_plan pointing to the offline calibrate command, not to splitting (JSON and files, en and es)', async () => {
    const { app, store, newKey } = makeApp();
    const { key, row } = await newKey('free');
    const form = () => {
      const f = new FormData();
      f.append('name', 'Essays 2021');
      for (const [i, text] of OVER_FREE.entries()) f.append('files[]', new File([text], `essay-${i}.txt`));
      return f;
    };
    for (const [lang, command, not] of [
      ['en', 'bun run calibrate', 'Split'],
      ['es', 'bun run calibrate', 'Divide'],
    ] as const) {
      for (const body of [{ json: { name: 'Essays 2021', texts: OVER_FREE } }, { body: form() }]) {
        const answer = await call(app, `/v1/calibrations?lang=${lang}`, { key, ...body });
        const { error } = (await answer.json()) as ErrorBody;
        expect([answer.status, error.code]).toEqual([413, 'exceeds_plan']);
        expect(error.message).toContain(command);
        expect(error.message).toContain('10');
        expect(error.message).not.toContain(not);
      }
    }
    // A detection too large for the plan still says to split it.
    const detect = await call(app, '/v1/detect', { key, json: { text: OVER_FREE.join('\n\n') } });
    expect(((await detect.json()) as ErrorBody).error.message).toContain('Split');
    expect(await store.quota.read(row.id, period(), true)).toEqual({ wordsUsed: 0, calls: 0 });
  });
});

describe('skipped calibration files', () => {
  it('are counted in `skipped` and named in `skippedFiles` with the code and message a batch error line gives', async () => {
    const { app, newKey } = makeApp();
    const { key } = await newKey('enterprise');
    const form = new FormData();
    form.append('name', 'Uploaded notes');
    for (const [i, text] of humanTexts(60, 5).entries()) {
      form.append('files[]', new File([text], `note-${i}.md`));
      if (i === 10) form.append('files[]', new File(['three words only'], 'short.txt'));
      if (i === 20) form.append('files[]', new File(['%PDF-1.7\n1 0 obj << broken'], 'broken.pdf'));
    }
    form.append('files[]', new File([new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0, 0, 0, 0])], 'photo.png'));
    const made = await call(app, '/v1/calibrations?lang=es', { key, body: form });
    expect(made.status).toBe(201);
    const body = (await made.json()) as {
      skipped: number;
      skippedFiles: Array<Record<string, unknown>>;
      languages: { en: { texts: number } };
    };
    expect(body.languages.en.texts).toBe(60);
    expect(body.skipped).toBe(3);
    expect(body.skippedFiles.map(({ index, fileName, code }) => ({ index, fileName, code }))).toEqual([
      { index: 11, fileName: 'short.txt', code: 'text_too_short' },
      { index: 22, fileName: 'broken.pdf', code: 'corrupt_file' },
      { index: 62, fileName: 'photo.png', code: 'unsupported_format' },
    ]);
    // Messages in the request's language, as in a batch's error lines.
    expect(body.skippedFiles[0].message).toContain('20');
    expect(body.skippedFiles[2].message).toMatch(/^Formato de archivo no admitido/);
    // A set with nothing to skip says so with an empty list.
    const clean = new FormData();
    clean.append('name', 'Clean');
    for (const [i, text] of humanTexts(50, 6).entries()) clean.append('files[]', new File([text], `n-${i}.txt`));
    const cleanBody = (await (await call(app, '/v1/calibrations', { key, body: clean })).json()) as {
      skipped: number;
      skippedFiles: unknown[];
    };
    expect([cleanBody.skipped, cleanBody.skippedFiles]).toEqual([0, []]);
  });
});

describe('the wording of a bad calibration request', () => {
  it('says a name is too long, with the limit (JSON and files, en and es)', async () => {
    const { app, newKey } = makeApp();
    const { key } = await newKey('enterprise');
    const long = 'n'.repeat(5000);
    const form = new FormData();
    form.append('name', long);
    form.append('files[]', new File([humanTexts(1)[0]], 'a.txt'));
    for (const body of [{ json: { name: long, texts: humanTexts(60) } }, { body: form }]) {
      const answer = await call(app, '/v1/calibrations', { key, ...body });
      const { error } = (await answer.json()) as ErrorBody;
      expect([answer.status, error.code]).toEqual([400, 'invalid_request']);
      expect(error.message).toBe(`The "name" field is too long: 5000 characters, at most ${MAX_CALIBRATION_NAME}.`);
    }
    const es = await call(app, '/v1/calibrations?lang=es', { key, json: { name: long, texts: humanTexts(60) } });
    expect(((await es.json()) as ErrorBody).error.message).toBe(
      `El campo "name" es demasiado largo: 5000 caracteres, como mucho ${MAX_CALIBRATION_NAME}.`,
    );
    // A missing or blank name is still "required".
    for (const name of [undefined, '   ']) {
      const answer = await call(app, '/v1/calibrations', { key, json: { name, texts: humanTexts(60) } });
      expect(((await answer.json()) as ErrorBody).error.message).toContain('required');
    }
  });

  it('answers another Content-Type with what a calibration takes, not the detection wording', async () => {
    const { app, newKey } = makeApp();
    const { key } = await newKey('enterprise');
    for (const [lang, words] of [
      ['en', ['application/json', '"name"', '"texts"', 'multipart/form-data', 'files[]']],
      ['es', ['application/json', '"name"', '"texts"', 'multipart/form-data', 'files[]']],
    ] as const) {
      const answer = await call(app, `/v1/calibrations?lang=${lang}`, { key, body: 'hello', headers: { 'content-type': 'text/plain' } });
      const { error } = (await answer.json()) as ErrorBody;
      expect([answer.status, error.code]).toEqual([415, 'unsupported_media_type']);
      for (const word of words) expect(error.message).toContain(word);
      expect(error.message).not.toMatch(/one text|un texto/);
    }
    // The detection route keeps its own wording.
    const detect = await call(app, '/v1/detect', { key, body: 'hello', headers: { 'content-type': 'text/plain' } });
    expect(((await detect.json()) as ErrorBody).error.message).toContain('one text');
  });
});
