/**
 * Calibration and decision (issue 11): the probability rises with the lexical logit in every
 * (language, length) cell, the score is round(100 p), the mode never changes the score, thresholds
 * are ordered conservative >= balanced >= aggressive per cell, and the verdict mapping in
 * src/detector/decide/verdict.ts is monotone in p and in the mode, with `inconclusive` where a cell cannot
 * keep the mode's promise.
 */
import { beforeAll, describe, expect, it, setDefaultTimeout } from 'bun:test';
import { SUITE_TIMEOUT_MS } from '../timeout';
import { LENGTH_BUCKETS, lengthBucket } from '../../src/detector/score/calibration';
import { MIN_PROSE_WORDS, UNJUDGED_PROBABILITY, proseWordCount, type Engine } from '../../src/detector/score/engine';
import { isAiVerdict, modelLang, SENSITIVITIES, type TextLang, VERDICT_KEYS } from '../../src/contract';
import { AI_FLOOR, EVEN_ODDS, HUMAN_BELOW, aiThreshold, cellOf, decideVerdict } from '../../src/detector/decide/verdict';
import { detectorFor } from '../../src/detector';
import { sharedEngine } from './fixture';
import { AI_EN, AI_ES, HUMAN_EN, HUMAN_EN_2, HUMAN_ES } from './texts';

setDefaultTimeout(SUITE_TIMEOUT_MS);

let engine: Engine;
beforeAll(async () => {
  engine = await sharedEngine();
});

const LANGS = ['en', 'es'] as const;
const TEXTS = [
  AI_EN,
  HUMAN_EN,
  HUMAN_EN_2,
  AI_ES,
  HUMAN_ES,
  'Short.',
  '',
  '😀😀😀',
  '我喜欢猫。他们很可爱。',
  AI_EN.slice(0, 200),
  `${HUMAN_EN}\n\n${AI_EN}`,
  `${HUMAN_ES}\n\n${AI_ES}`,
];
const rank = (v: string) => VERDICT_KEYS.indexOf(v as (typeof VERDICT_KEYS)[number]);
/** Probabilities 0, 0.001, ..., 1. */
const GRID = Array.from({ length: 1001 }, (_, i) => i / 1000);
/** A word count inside each length bucket. */
const BUCKET_WORDS = LENGTH_BUCKETS.map((lo) => lo + 5);

describe('length buckets', () => {
  it('put 20-39 words in the first, 300+ in the last, and shorter texts in the first', () => {
    expect([0, 19, 20, 39, 40, 79, 80, 149, 150, 299, 300, 5000].map(lengthBucket)).toEqual([0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4]);
  });
});

describe('calibration', () => {
  it('maps a larger lexical logit to a larger probability in every cell', () => {
    for (const ml of LANGS) {
      for (const words of BUCKET_WORDS) {
        expect(cellOf(engine.model, ml, words).platt.a).toBeGreaterThan(0);
        let prev = -1;
        for (let lex = -8; lex <= 8; lex += 0.25) {
          const p = engine.calibrate(lex, words, ml);
          expect(p).toBeGreaterThan(prev);
          expect(p).toBeGreaterThanOrEqual(0);
          expect(p).toBeLessThanOrEqual(1);
          prev = p;
        }
      }
    }
  });

  it('reports the probability of its own calibration and score = round(100 p) in 0..100', () => {
    for (const t of TEXTS) {
      const r = engine.analyze(t);
      const calibrated = engine.calibrate(r.lexicalLogit, r.scoredWords, modelLang(r.language));
      const judged = proseWordCount(r.sentences) >= MIN_PROSE_WORDS;
      expect(r.probability).toBe(judged ? calibrated : Math.min(calibrated, UNJUDGED_PROBABILITY));
      expect(Number.isInteger(r.score)).toBe(true);
      expect(r.score).toBe(Math.round(100 * r.probability));
      for (const s of r.sentences) {
        expect(s.probability).toBeGreaterThanOrEqual(0);
        expect(s.probability).toBeLessThanOrEqual(1);
      }
    }
  });

  it('does not depend on the sensitivity mode', () => {
    const d = detectorFor(engine);
    for (const t of TEXTS) {
      const [a, b, c] = SENSITIVITIES.map((sensitivity) => d.analyze(t, { sensitivity }));
      expect([b.score, c.score]).toEqual([a.score, a.score]);
      expect([b.probability, c.probability]).toEqual([a.probability, a.probability]);
      expect([b.aiShare, c.aiShare]).toEqual([a.aiShare, a.aiShare]);
    }
  });
});

describe('mode thresholds', () => {
  it('are ordered conservative >= balanced >= aggressive in every cell, each from held-out texts of its cell', () => {
    for (const ml of LANGS) {
      for (const cell of engine.model.cells[ml]) {
        expect(cell.thresholds.conservative).toBeGreaterThanOrEqual(cell.thresholds.balanced);
        expect(cell.thresholds.balanced).toBeGreaterThanOrEqual(cell.thresholds.aggressive);
        expect(cell.texts.human).toBeGreaterThan(500);
      }
      expect(engine.model.cells[ml]).toHaveLength(LENGTH_BUCKETS.length);
    }
  });

  it('are conclusive in a more cautious mode only where they are in a bolder one', () => {
    for (const ml of LANGS) {
      for (const cell of engine.model.cells[ml]) {
        if (cell.conclusive.conservative) expect(cell.conclusive.balanced).toBe(true);
        if (cell.conclusive.balanced) expect(cell.conclusive.aggressive).toBe(true);
      }
    }
  });

  it('order the sentence thresholds the same way', () => {
    for (const ml of LANGS) {
      const t = engine.model.sentenceThresholds[ml];
      expect(t.conservative).toBeGreaterThanOrEqual(t.balanced);
      expect(t.balanced).toBeGreaterThanOrEqual(t.aggressive);
    }
  });
});

describe('verdict mapping', () => {
  const model = () => engine.model;

  it('is monotone in the probability for every language, length and mode', () => {
    for (const lang of ['en', 'es', 'other'] as TextLang[]) {
      for (const words of BUCKET_WORDS) {
        for (const mode of SENSITIVITIES) {
          let prev = 0;
          for (const p of GRID) {
            const r = rank(decideVerdict(model(), p, lang, words, mode));
            expect(r).toBeGreaterThanOrEqual(prev);
            prev = r;
          }
          expect(decideVerdict(model(), 0, lang, words, mode)).toBe('human');
          const top = decideVerdict(model(), 1, lang, words, mode);
          expect(top).toBe(cellOf(model(), lang, words).conclusive[mode] ? 'ai' : 'inconclusive');
        }
      }
    }
  });

  it('is never more AI at a more cautious mode (conservative <= balanced <= aggressive)', () => {
    for (const lang of LANGS) {
      for (const words of BUCKET_WORDS) {
        for (const p of GRID) {
          const [c, b, a] = SENSITIVITIES.map((m) => rank(decideVerdict(model(), p, lang, words, m)));
          expect(c).toBeLessThanOrEqual(b);
          expect(b).toBeLessThanOrEqual(a);
        }
      }
    }
  });

  it('calls a text AI exactly from the cell threshold on, where the cell is conclusive; inconclusive from even odds otherwise', () => {
    for (const lang of LANGS) {
      for (const words of BUCKET_WORDS) {
        const cell = cellOf(model(), lang, words);
        for (const mode of SENSITIVITIES) {
          const t = aiThreshold(cell, mode);
          for (const p of [...GRID, t, t - 1e-9, AI_FLOOR, AI_FLOOR - 1e-9]) {
            const v = decideVerdict(model(), p, lang, words, mode);
            expect(isAiVerdict(v)).toBe(cell.conclusive[mode] && p >= t);
            if (v === 'ai') expect(p).toBeGreaterThanOrEqual(AI_FLOOR);
            if (v === 'inconclusive') expect(p).toBeGreaterThanOrEqual(EVEN_ODDS);
            if (v === 'likely_human') expect(p).toBeGreaterThanOrEqual(HUMAN_BELOW);
            if (v === 'human') expect(p).toBeLessThan(HUMAN_BELOW);
          }
        }
      }
    }
  });

  it('reads English thresholds for text in other languages', () => {
    for (const mode of SENSITIVITIES) {
      for (const p of GRID) expect(decideVerdict(model(), p, 'other', 100, mode)).toBe(decideVerdict(model(), p, 'en', 100, mode));
    }
  });

  it('is what the detector reports for texts without an AI passage (verdictKey, ai), conservative by default', () => {
    const d = detectorFor(engine);
    for (const t of TEXTS) {
      const byDefault = d.analyze(t);
      expect(byDefault.sensitivity).toBe('conservative');
      for (const sensitivity of SENSITIVITIES) {
        const a = d.analyze(t, { sensitivity });
        const r = engine.analyze(t);
        const expected = decideVerdict(model(), a.probability, a.language, r.scoredWords, sensitivity);
        if (a.verdictKey !== 'mixed' && !a.dimensions.find((x) => x.id === 'obfuscation')?.detected)
          expect(a.verdictKey as string).toBe(expected);
        expect(a.ai).toBe(isAiVerdict(a.verdictKey));
        if (sensitivity === 'conservative') expect(a.verdictKey).toBe(byDefault.verdictKey);
      }
    }
  });
});

describe('short texts', () => {
  // Issue 11: the 25-word opening of a human text was flagged 14.5% (English) and 24.8% (Spanish) of
  // the time at conservative. Twenty words now either stay human or say there is too little evidence.
  const SHORT_HUMAN_EN =
    'Honestly the bus was late again so I walked, grabbed a coffee on the corner and still made it before the meeting started.';
  /** The opening of a research abstract (written for this test): the previous model scored it 93 and called it "ai" at conservative. */
  const ABSTRACT_OPENING =
    'We propose a novel framework for efficient retrieval that leverages contrastive learning to improve robustness across diverse domains and languages.';
  const SHORT_AI_LIKE =
    'In today’s fast-paced world, it is important to note that technology plays a crucial role in our daily lives and fosters innovation.';
  it('never calls a 20-word text AI where its cell is not conclusive, calls stock AI text AI where it is, and never a human or abstract opening', () => {
    const d = detectorFor(engine);
    for (const text of [SHORT_HUMAN_EN, SHORT_AI_LIKE, ABSTRACT_OPENING]) {
      expect(d.countWords(text)).toBeGreaterThanOrEqual(20);
      expect(d.countWords(text)).toBeLessThan(40);
      for (const sensitivity of SENSITIVITIES) {
        const a = d.analyze(text, { sensitivity });
        if (!cellOf(engine.model, a.language, engine.analyze(text).scoredWords).conclusive[sensitivity]) {
          expect(['human', 'likely_human', 'inconclusive']).toContain(a.verdictKey);
        }
      }
    }
    // Issue 21: thresholds at the promise, one per language, leave the English 20-39-word cell
    // conclusive: a stock AI sentence is called AI at the default mode (it was `inconclusive`).
    expect(cellOf(engine.model, 'en', 23).conclusive.conservative).toBe(true);
    expect(['ai', 'likely_ai']).toContain(d.analyze(SHORT_AI_LIKE).verdictKey);
    for (const sensitivity of SENSITIVITIES)
      expect(['human', 'likely_human', 'inconclusive'] as string[]).toContain(d.analyze(ABSTRACT_OPENING, { sensitivity }).verdictKey);
  });
});

describe('non-prose input', () => {
  it('does not call a list of numbers AI-generated at conservative', () => {
    const d = detectorFor(engine);
    const numbers = Array.from({ length: 30 }, (_, i) => String(i * 7)).join(' ');
    expect(d.countWords(numbers)).toBe(30);
    expect(d.analyze(numbers).ai).toBe(false);
  });
});

describe('a pasted AI passage', () => {
  // Issue 21: a human paragraph followed by a stock ChatGPT paragraph (184 words) scored 85 and read
  // "Not enough evidence" with no AI passage. Passages are held to the language's threshold too.
  const PERSONAL =
    "Last spring I finally fixed the leaking tap in our kitchen, which had dripped for about two years. My brother lent me a wrench that was far too big, so I ended up buying a cheap one at the hardware shop on Elm Street. It took me three tries and one flooded cupboard before the washer sat right. I'm still a bit proud of it, honestly, and my mum keeps telling the story at dinner as if I'd rebuilt the house.";
  const STOCK =
    "In today's fast-paced digital landscape, effective communication has become more important than ever. Whether you are collaborating with colleagues, engaging with customers, or sharing ideas with a broader audience, the ability to convey your message clearly and concisely can make all the difference. Moreover, strong communication skills foster trust, enhance productivity, and pave the way for meaningful connections. By prioritizing clarity, active listening, and empathy, individuals and organizations alike can navigate challenges more effectively and unlock new opportunities for growth. Ultimately, investing in communication is not just a valuable skill; it is an essential foundation for success in both personal and professional endeavors.";
  it('makes a human text mixed, with the pasted paragraph as its AI passage, at the default and balanced modes', () => {
    const d = detectorFor(engine);
    for (const text of [`${PERSONAL}\n\n${STOCK}`, `${STOCK}\n\n${PERSONAL}`]) {
      for (const sensitivity of ['conservative', 'balanced'] as const) {
        const a = d.analyze(text, { sensitivity });
        expect({ sensitivity, verdict: a.verdictKey }).toEqual({ sensitivity, verdict: 'mixed' });
        const ai = a.segments.filter((s) => s.label === 'ai');
        expect(ai.length).toBe(1);
        expect(text.slice(ai[0].start, ai[0].end)).toContain('Moreover, strong communication skills');
        expect(text.slice(ai[0].start, ai[0].end)).not.toContain('leaking tap');
      }
    }
    // The personal paragraph alone stays on the human side.
    expect(isAiVerdict(d.analyze(PERSONAL).verdictKey)).toBe(false);
  });
});
