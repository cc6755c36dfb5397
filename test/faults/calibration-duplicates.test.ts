/**
 * Issue 40 item 7, through a real server: duplicate texts are not independent evidence. One news text
 * sent 1,000 times made a profile of "1,000 texts" (charged 501,000 words) whose answers then said
 * "flagged 0%; at most 0.3%" from one distinct text; 50 identical AI texts counted as 50 examples. Now a
 * text counts once after normalisation (NFKC, whitespace), the rest are neither scored nor charged, and the
 * answer says how many were dropped.
 */
import { afterAll, beforeAll, describe, expect, it, setDefaultTimeout } from 'bun:test';
import { aiNotes, humanNotes } from '../../scripts/lib/calibration-texts';
import { NEWS } from '../fixtures/near-copies';
import { SUITE_TIMEOUT_MS } from '../timeout';
import { type FaultServer, startFaultServer } from './fault-server';

setDefaultTimeout(SUITE_TIMEOUT_MS);

let f: FaultServer;
beforeAll(async () => {
  f = await startFaultServer('calibration-duplicates');
});
afterAll(async () => {
  await f?.stop();
});

async function post(body: unknown) {
  const response = await fetch(`${f.server.base}/v1/calibrations`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-api-key': f.key },
    body: JSON.stringify(body),
  });
  return { status: response.status, json: (await response.json()) as Record<string, any> };
}

const used = async () =>
  ((await (await fetch(`${f.server.base}/v1/usage`, { headers: { 'x-api-key': f.key } })).json()) as { words: { used: number } }).words
    .used;

describe('duplicate calibration texts (issue 40 item 7)', () => {
  it('counts one news text sent 1,000 times as one text: too few for a profile, and nothing charged', async () => {
    const before = await used();
    // The same text, some copies re-spaced: still the same after normalisation.
    const copies = Array.from({ length: 1000 }, (_, i) => (i % 3 ? NEWS : `  ${NEWS.replace(/ /g, i % 2 ? '  ' : '\n')}\n`));
    const answer = await post({ name: 'One story', texts: copies });
    expect([answer.status, answer.json.error.code]).toEqual([422, 'calibration_too_small']);
    expect(answer.json.error.message).toContain('1 of at least 50');
    expect(await used()).toBe(before);
  });

  it('makes a profile of the distinct texts only, charges them once, and says how many copies it dropped, human and AI', async () => {
    const before = await used();
    const human = humanNotes(60);
    const ai = aiNotes(60);
    const answer = await post({
      name: 'Notes and copies',
      texts: [...human, ...Array.from({ length: 1000 }, () => NEWS), ...human.slice(0, 20)],
      aiTexts: [...ai, ...Array.from({ length: 49 }, () => ai[0]), human[5]],
    });
    expect(answer.status).toBe(201);
    expect(answer.json.duplicates).toEqual({ human: 1019, ai: 50 });
    // 61 distinct human texts (the news story once), 60 distinct AI examples: n is what the bound is computed on.
    expect(answer.json.languages.en.texts).toBe(61);
    expect(answer.json.languages.en.modes.balanced.texts).toBe(61);
    const adaptation = answer.json.languages.en.adaptation ?? answer.json.languages.en.notAdapted;
    expect(adaptation.aiTexts).toBe(60);
    const words = (texts: string[]) => texts.reduce((n, t) => n + t.match(/[\p{L}\p{N}]+(?:['’-][\p{L}\p{N}]+)*/gu)!.length, 0);
    expect((await used()) - before).toBe(words([...human, NEWS, ...ai]));
  });
});
