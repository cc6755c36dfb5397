/**
 * Heavy work for nothing (issue 44 item 7): a set whose languages cannot make a profile is refused
 * before a text is scored or a word charged, from a first reading of each text's language; a refusal
 * only scoring can see (a text whose opening reads as another language than the whole) is charged,
 * since the work was done. In process (app.handle) on a fresh SQLite store, with the real detector
 * wrapped to count its scorings.
 */
import { describe, expect, it, setDefaultTimeout } from 'bun:test';
import { humanNotes } from '../../scripts/lib/calibration-texts';
import { createApp } from '../../src/app';
import { loadConfig } from '../../src/config';
import type { Detector } from '../../src/detector/types';
import { createJsonLogger } from '../../src/http/logger';
import { SUITE_TIMEOUT_MS } from '../timeout';
import { call, detector, freshStore, keyOn } from './helpers';
import { spanishAiNotes } from '../../scripts/lib/spanish-notes';

setDefaultTimeout(SUITE_TIMEOUT_MS);

const period = () => new Date().toISOString().slice(0, 7);

/** An app whose detector counts the texts it scores; `firstReading` stands in for its first language reading. */
function countingApp(firstReading?: Detector['language']) {
  const real = detector();
  const scored = { count: 0 };
  const counting: Detector = {
    countWords: (text) => real.countWords(text),
    analyze: (text, options) => real.analyze(text, options),
    profileSample(text) {
      scored.count++;
      return real.profileSample(text);
    },
    language: firstReading ?? ((text) => real.language!(text)),
    facts: real.facts,
  };
  const store = freshStore();
  const config = loadConfig({ DATABASE_PATH: ':memory:', BOOTSTRAP_KEY: '0' });
  return { app: createApp({ config, store, detector: counting, logger: createJsonLogger(() => {}) }), store, scored };
}

/** `n` distinct Spanish texts (given as known-human: only their language and count matter here; not near-copies of each other). */
const spanishHumans = (n: number) => spanishAiNotes(n);

describe('a calibration set its languages cannot make a profile of', () => {
  it('is refused before any text is scored or a word charged: too few texts of a language', async () => {
    const { app, store, scored } = countingApp();
    const { key, row } = await keyOn(store, 'enterprise');
    const answer = await call(app, '/v1/calibrations', {
      key,
      json: { name: 'Two languages', texts: [...humanNotes(150), ...spanishHumans(49)] },
    });
    expect(answer.status).toBe(422);
    const body = (await answer.json()) as { error: { code: string; message: string } };
    expect(body.error.code).toBe('calibration_too_small');
    expect(body.error.message).toStartWith('Too few usable texts in Spanish: 49 of at least 50');
    expect(scored.count).toBe(0);
    expect(await store.quota.read(row.id, period(), true)).toEqual({ wordsUsed: 0, calls: 0 });
  });

  it('is refused before any text is scored or a word charged: AI examples of a language without human texts', async () => {
    const { app, store, scored } = countingApp();
    const { key, row } = await keyOn(store, 'enterprise');
    const answer = await call(app, '/v1/calibrations', {
      key,
      json: { name: 'Stray', texts: humanNotes(150), aiTexts: spanishAiNotes(60) },
    });
    expect(answer.status).toBe(422);
    expect(((await answer.json()) as { error: { code: string } }).error.code).toBe('calibration_ai_without_human');
    expect(scored.count).toBe(0);
    expect(await store.quota.read(row.id, period(), true)).toEqual({ wordsUsed: 0, calls: 0 });
  });

  it('reads in full the texts a first reading would refuse for, and refuses nothing they do not confirm', async () => {
    // 11 English notes whose openings a first reading takes for Spanish (the bench's corpus did this: 11 in 150).
    const notes = humanNotes(150);
    const misread = new Set(notes.slice(0, 11));
    const { app, store } = countingApp((text) => (misread.has(text) ? 'es' : 'en'));
    const { key } = await keyOn(store, 'enterprise');
    const answer = await call(app, '/v1/calibrations', { key, json: { name: 'English only', texts: notes } });
    expect(answer.status).toBe(201);
    const body = (await answer.json()) as { languages: Record<string, { texts: number }> };
    expect(Object.keys(body.languages)).toEqual(['en']);
    expect(body.languages.en.texts).toBe(150);
  });

  it('charges a refusal only scoring could see (the first reading said otherwise), and says so', async () => {
    // Every text read as English at first: the 49 Spanish ones are found Spanish once scored.
    const { app, store, scored } = countingApp(() => 'en');
    const { key, row } = await keyOn(store, 'enterprise');
    const texts = [...humanNotes(150), ...spanishHumans(49)];
    const answer = await call(app, '/v1/calibrations', { key, json: { name: 'Two languages', texts } });
    expect(answer.status).toBe(422);
    const body = (await answer.json()) as { error: { code: string; message: string } };
    expect(body.error.code).toBe('calibration_too_small');
    expect(body.error.message).toEndWith('Charged: the texts were scored before this could be seen.');
    expect(scored.count).toBe(199);
    const words = texts.reduce((n, t) => n + detector().countWords(t), 0);
    expect((await store.quota.read(row.id, period(), true)).wordsUsed).toBe(words);
    expect(await store.calibrations.count(row.id)).toBe(0);
  });
});
