/** The same input always gives the same output: twice on one engine, across engines, and after other texts. */
import { describe, expect, it, setDefaultTimeout } from 'bun:test';
import { SUITE_TIMEOUT_MS } from '../timeout';
import { loadEngine } from '../../src/detector/score/load';
import { detectorFor } from '../../src/detector';
import { sharedEngine } from './fixture';
import { AI_EN, AI_ES, HUMAN_EN, HUMAN_ES } from './texts';

setDefaultTimeout(SUITE_TIMEOUT_MS);

const TEXTS = [
  AI_EN,
  HUMAN_EN,
  AI_ES,
  HUMAN_ES,
  'Hi 👋🏽 there.\r\n\r\n我喜欢猫。 The wo\u200Brd is hid\u200Cden. Ｔｈｅ ｃａｔ ｓａｔ．',
  `# Title\n\n- one item here\n- two item here\n\n${AI_EN}`,
  '',
];

describe('determinism', () => {
  it('gives deep-equal results for the same input twice on one engine', async () => {
    const e = await sharedEngine();
    for (const text of TEXTS) expect(e.analyze(text)).toEqual(e.analyze(text));
  });

  it('gives deep-equal results on two engine instances', async () => {
    const [a, b] = await Promise.all([loadEngine(), loadEngine()]);
    for (const text of TEXTS) expect(a.analyze(text)).toEqual(b.analyze(text));
  });

  it('does not carry state from one text to the next', async () => {
    const fresh = await loadEngine();
    const first = TEXTS.map((t) => fresh.analyze(t));
    // A long text grows the core's buffers; shorter texts afterwards must not see its leftovers.
    fresh.analyze(AI_EN.repeat(60));
    const again = [...TEXTS]
      .reverse()
      .map((t) => fresh.analyze(t))
      .reverse();
    expect(again).toEqual(first);
  });

  it('gives the same scores with and without n-gram emission', async () => {
    const e = await sharedEngine();
    for (const text of TEXTS) {
      const { feats, ...plain } = e.analyze(text, undefined, true);
      expect(feats).toBeInstanceOf(Uint32Array);
      const { feats: none, ...again } = e.analyze(text);
      expect(none).toBeUndefined();
      expect(plain).toEqual(again);
    }
  });

  it('gives the same full analysis (apart from timing) on two detectors', async () => {
    const a = detectorFor(await sharedEngine());
    const b = detectorFor(await loadEngine());
    for (const text of TEXTS.filter(Boolean)) {
      for (const sensitivity of ['conservative', 'aggressive'] as const) {
        for (const labelLang of ['en', 'es'] as const) {
          const { msCost: _a, ...x } = a.analyze(text, { sensitivity, labelLang });
          const { msCost: _b, ...y } = b.analyze(text, { sensitivity, labelLang });
          expect(x).toEqual(y);
        }
      }
    }
  });
});
