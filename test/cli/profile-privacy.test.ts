/**
 * Issue 44 item 6: a profile's per-text scores are not fingerprints. On main before this, a profile
 * file kept every text's logit to 17 digits: holding the file, an attacker who scores a candidate text
 * and looks for a sample within 1e-9 of its logit found every one of the 100 texts used (and none of 100
 * others of the same kind). Now the samples are kept on a grid (decide/profile.ts keptSample): the exact
 * attack finds none, and an attacker who rounds the candidate's scores the same way (and matches its
 * probability, length and type too) finds members little more often than texts that were not used.
 * Through the real `calibrate` command (in process), with the file it writes.
 */
import { afterAll, beforeAll, describe, expect, it, setDefaultTimeout } from 'bun:test';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { aiNotes, humanNotes } from '../../scripts/lib/calibration-texts';
import { runCalibrateCli } from '../../src/cli/calibrate';
import { keptSample, parseProfile, type ProfileSample } from '../../src/detector/decide/profile';
import { detector } from '../http/helpers';
import { SUITE_TIMEOUT_MS } from '../timeout';

setDefaultTimeout(SUITE_TIMEOUT_MS);

let dir = '';
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'profile-privacy-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** 200 notes of one kind: the first 100 make the profile (members), the other 100 do not. */
const notes = humanNotes(200).map((t, i) => `${t} ${humanNotes(400)[200 + i]}`);
const members = notes.slice(0, 100);
const others = notes.slice(100);

async function profileOf(human: string[], ai: string[]): Promise<ProfileSample[]> {
  const out = join(dir, `p-${ai.length}.json`);
  const stdin = [...human.map((text) => ({ text })), ...ai.map((text) => ({ text, label: 'ai' }))].map((l) => JSON.stringify(l)).join('\n');
  const code = await runCalibrateCli(['--out', out], {
    detector: detector(),
    stdin: (async function* () {
      yield new TextEncoder().encode(stdin);
    })(),
    out: () => {},
    err: () => {},
  });
  expect(code).toBe(0);
  return parseProfile(JSON.parse(readFileSync(out, 'utf8'))).languages.en!.samples;
}

/** How many of `texts` an attacker holding `samples` says were used: by the logit within 1e-9, or by every kept field on the grid. */
function attacks(samples: readonly ProfileSample[], texts: readonly string[]) {
  let exact = 0;
  let grid = 0;
  const kept = new Set(samples.map((s) => JSON.stringify([s.logit, s.probability, s.words, s.docType])));
  for (const text of texts) {
    const s = detector().profileSample(text)!;
    if (samples.some((x) => Math.abs(x.logit - s.logit) < 1e-9)) exact++;
    const k = keptSample(s);
    if (kept.has(JSON.stringify([k.logit, k.probability, k.words, k.docType]))) grid++;
  }
  return { exact, grid };
}

/** A form letter with one secret word. */
const letter = (word: string) =>
  `Dear Ms Okafor, thank you for calling us on Monday about the account. As agreed on the phone, the word you chose to confirm who you are is ${word}, and we will ask for it whenever you ring. Your new card should arrive within five working days; if it does not, please call the number on the back of your statement and quote the reference we gave you. Kind regards, the customer team.`;

describe('a profile file does not say which texts made it (issue 44 item 6)', () => {
  it("leaves many of a form letter's candidate secret words possible, not 2", async () => {
    const candidates = [
      ...new Set(
        [...humanNotes(300), ...aiNotes(300)]
          .join(' ')
          .toLowerCase()
          .match(/\p{L}{4,}/gu),
      ),
    ].slice(0, 300);
    const secret = candidates[123];
    const samples = await profileOf([...members.slice(0, 99), letter(secret)], []);
    const kept = new Set(samples.map((s) => JSON.stringify(s)));
    const exact = new Set(samples.map((s) => s.logit));
    let possible = 0;
    let exactly = 0;
    for (const word of candidates) {
      const s = detector().profileSample(letter(word))!;
      if (kept.has(JSON.stringify(keptSample(s)))) possible++;
      if (exact.has(s.logit)) exactly++;
    }
    console.log(`secret word: ${possible} of ${candidates.length} candidates fit the file on the grid (exact logit: ${exactly})`);
    expect(exactly).toBe(0);
    expect(possible).toBeGreaterThanOrEqual(candidates.length / 4);
  });

  for (const [name, ai] of [
    ['calibration-only', []],
    ['adapted', aiNotes(80)],
  ] as const) {
    it(`${name}: no sample within 1e-9 of a member's logit; on the grid, members match little more than others`, async () => {
      const samples = await profileOf(members, [...ai]);
      expect(samples).toHaveLength(100);
      const m = attacks(samples, members);
      const o = attacks(samples, others);
      console.log(`${name}: 100 members / 100 others matched: exact ${m.exact} / ${o.exact}; on the grid ${m.grid} / ${o.grid}`);
      expect([m.exact, o.exact]).toEqual([0, 0]);
      // Every member's rounded scores are in the file (that is what keeping them means); the grid is coarse
      // enough that about half the texts of the same kind that were NOT used match as well (52 of 100 measured).
      expect(m.grid).toBe(100);
      expect(o.grid).toBeGreaterThanOrEqual(40);
    });
  }
});
