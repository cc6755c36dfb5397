/**
 * Issue 44 items 1 and 2 and issue 45 item 6, through a real server: near-copies of a text (a word
 * dropped per copy, re-spaced, a counter appended, a signature added) are one text, among the human
 * texts and among the AI examples: counted once towards `n`, the rule's k, the stated bound, the
 * 50-example minimum and the catch rates, left out as duplicates and not charged. On main before this,
 * 100 texts sent 4 times made "400 texts" whose bars were set by each text's own near-copies. A text given
 * both as human and as AI is a labelling conflict: used as human, and the profile warns how many.
 */
import { afterAll, beforeAll, describe, expect, it, setDefaultTimeout } from 'bun:test';
import { binomialUpperBound } from '../../src/detector/score/bounds';
import { SUITE_TIMEOUT_MS } from '../timeout';
import { dropWordCopies, NEWS, longAiTexts, longHumanTexts, variant, wordsOf } from '../fixtures/near-copies';
import { type FaultServer, startFaultServer } from './fault-server';

setDefaultTimeout(SUITE_TIMEOUT_MS);

let f: FaultServer;
beforeAll(async () => {
  f = await startFaultServer('calibration-near-duplicates');
});
afterAll(async () => {
  await f?.stop();
});

async function api(path: string, body?: unknown) {
  const response = await fetch(`${f.server.base}${path}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: { 'content-type': 'application/json', 'x-api-key': f.key },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: response.status, json: (await response.json()) as Record<string, any> };
}

const used = async () => (await api('/v1/usage')).json.words.used as number;

describe('near-duplicate calibration texts (issue 44 items 1 and 2)', () => {
  it('counts 100 human texts sent 4 times, each copy missing a different word, as 100: every stated figure is of 100', async () => {
    const before = await used();
    const human = longHumanTexts(100);
    const copies = human.map((t) => dropWordCopies(t, 4));
    const ai = longAiTexts(300);
    const answer = await api('/v1/calibrations', { name: 'Drafts', texts: copies.flat(), aiTexts: ai });
    expect(answer.status).toBe(201);
    expect(answer.json.duplicates).toEqual({ human: 300, ai: 0 });
    const en = answer.json.languages.en;
    expect(en.texts).toBe(100);
    // The API never returns a text's scores (issue 44 item 6), nor the fit.
    expect([en.samples, en.aiSamples, en.adaptation?.fit]).toEqual([undefined, undefined, undefined]);
    const modes = [en.modes, ...(en.adaptation ? [en.adaptation.modes] : [])];
    for (const m of modes.flatMap((x) => Object.values(x) as any[])) {
      expect(m.texts).toBe(100);
      expect(m.upperBound).toBeCloseTo(binomialUpperBound(m.flagged, 100), 6);
    }
    // The rule's k is of 100: none flagged at conservative (99 texts are the fewest that set a 1% bar with k = 0).
    expect(en.modes.conservative.flagged).toBe(0);
    expect((en.adaptation ?? en.notAdapted).aiTexts).toBe(300);
    // Charged once: the first copy of each text and the AI examples.
    expect((await used()) - before).toBe(wordsOf([...copies.map((c) => c[0]), ...ai]));
  });

  it('counts one news text sent 1,000 times with "(Copy N.)" appended as one text: too few, nothing charged', async () => {
    const before = await used();
    const answer = await api('/v1/calibrations', {
      name: 'One story',
      texts: Array.from({ length: 1000 }, (_, i) => `${NEWS} (Copy ${i + 1}.)`),
    });
    expect([answer.status, answer.json.error.code]).toEqual([422, 'calibration_too_small']);
    expect(answer.json.error.message).toContain('1 of at least 50');
    expect(await used()).toBe(before);
  });

  it('counts 20 AI examples sent 5 times each (re-spaced, a counter, a word dropped, signed) as 20: too few to adapt', async () => {
    const before = await used();
    const human = longHumanTexts(60);
    const ai = longAiTexts(20);
    const answer = await api('/v1/calibrations', {
      name: 'Few examples',
      texts: human,
      aiTexts: ai.flatMap((t, i) => [t, ...[1, 2, 3, 4].map((k) => variant(t, i * 4 + k))]),
    });
    expect(answer.status).toBe(201);
    expect(answer.json.duplicates).toEqual({ human: 0, ai: 80 });
    const en = answer.json.languages.en;
    expect(en.adaptation).toBeNull();
    expect(en.notAdapted).toMatchObject({ reason: 'too_few_ai_texts', aiTexts: 20, minAiTexts: 50 });
    expect(answer.json.warnings).toContainEqual({
      code: 'not_adapted',
      language: 'en',
      reason: 'too_few_ai_texts',
      aiTexts: 20,
      needed: 50,
    });
    expect((await used()) - before).toBe(wordsOf([...human, ...ai]));
  });
});

describe('a text given both as human and as AI (issue 45 item 6)', () => {
  it('is used as human, left out of the AI examples, and the profile warns how many, in the 201 and on GET', async () => {
    const human = longHumanTexts(60);
    const ai = longAiTexts(55);
    // Three human texts given again as AI examples: one the same, two near-copies.
    const answer = await api('/v1/calibrations', {
      name: 'Mislabelled',
      texts: human,
      aiTexts: [...ai, human[7], variant(human[8], 1), variant(human[9], 2)],
    });
    expect(answer.status).toBe(201);
    expect(answer.json.duplicates).toEqual({ human: 0, ai: 3 });
    expect(answer.json.languages.en.texts).toBe(60);
    expect((answer.json.languages.en.adaptation ?? answer.json.languages.en.notAdapted).aiTexts).toBe(55);
    const warning = { code: 'labelling_conflict', count: 3 };
    expect(answer.json.warnings).toContainEqual(warning);
    const read = await api(`/v1/calibrations/${answer.json.id}`);
    expect(read.json.warnings).toContainEqual(warning);
    const list = await api('/v1/calibrations');
    expect(list.json.calibrations.find((c: { id: string }) => c.id === answer.json.id).warnings).toContainEqual(warning);
  });
});
