/**
 * Sentence annotations (issue #3 item 3): flagged sentences in text order whose start/end slice the
 * whole sentence out of the submitted text (also after emoji, CRLF, NFKC-changed and zero-width
 * characters), shortened to at most 200 characters with "…", and a flagged set that grows
 * conservative ⊆ balanced ⊆ aggressive.
 */
import { beforeAll, describe, expect, it, setDefaultTimeout } from 'bun:test';
import { SUITE_TIMEOUT_MS } from '../timeout';
import type { Engine } from '../../src/detector/score/engine';
import type { Analysis, Detector } from '../../src/detector/types';
import type { Sensitivity } from '../../src/contract';
import { MAX_SENTENCE_CHARS, shorten } from '../../src/detector/explain/annotations';
import { DIMENSIONS } from '../../src/detector/explain';
import { sharedDetector, sharedEngine } from '../engine/fixture';
import { AI_EN, AI_ES, HUMAN_EN, HUMAN_EN_2, HUMAN_ES } from '../engine/texts';
import { EXAMPLES } from './examples';

setDefaultTimeout(SUITE_TIMEOUT_MS);

let engine: Engine;
let detector: Detector;
beforeAll(async () => {
  engine = await sharedEngine();
  detector = await sharedDetector();
});

const MODES: Sensitivity[] = ['conservative', 'balanced', 'aggressive'];
const DIM_IDS = new Set(DIMENSIONS.map((d) => d.id));

/** One sentence of ~400 characters, dense with stock phrases and opening with a transition. */
const LONG_SENTENCE = `Moreover, in today's fast-paced world, it is important to note that comprehensive and innovative strategies play a crucial role in fostering collaboration, enhancing productivity, empowering individuals, and ensuring that organizations can navigate the complexities of an ever-evolving landscape with robust, seamless and transformative solutions that unlock a myriad of opportunities for everyone.`;
const LONG_TEXT = `${LONG_SENTENCE} Furthermore, it is essential to leverage these insights. ${AI_EN}`;

const PREFIXES: Record<string, string> = {
  'emoji and a ZWJ sequence': '😀👨‍👩‍👧‍👦 Emoji 👋🏽 intro line here.\n\n',
  'CRLF line endings': 'Intro line one here.\r\nIntro line two here.\r\n\r\n',
  'emoji then CRLF': '🙂 Hi there 👩🏽‍💻!\r\n\r\n',
  'NFKC-changed characters (fullwidth, ligature, combining accent, math bold)': 'Ｆｕｌｌ ﬁne cafe\u0301 𝐛𝐨𝐥𝐝 intro.\n\n',
  'zero-width characters': 'In\u200Bvisible mar\u200Dks he\u2060re.\n\n',
  'a byte-order mark and CJK': '\uFEFF我喜欢猫。他们很可爱。\n\n',
};

/** The annotation invariants that hold for any text and mode. */
function checkAnnotations(text: string, a: Analysis): void {
  const sentences = engine.analyze(text).sentences;
  let prevEnd = 0;
  for (const t of a.textAnnotations) {
    const whole = text.slice(t.start, t.end);
    // The span is one of the engine's sentences, in text order.
    expect(sentences.some((s) => s.start === t.start && s.end === t.end)).toBe(true);
    expect(t.start).toBeGreaterThanOrEqual(prevEnd);
    prevEnd = t.end;
    // The sentence text is the span, shortened only when longer than 200 characters.
    expect(t.sentence.length).toBeLessThanOrEqual(MAX_SENTENCE_CHARS);
    if (whole.length <= MAX_SENTENCE_CHARS) expect(t.sentence).toBe(whole);
    else {
      expect(t.sentence.endsWith('…')).toBe(true);
      expect(whole.startsWith(t.sentence.slice(0, -1))).toBe(true);
    }
    expect(t.dims.length).toBeGreaterThan(0);
    for (const d of t.dims) expect(DIM_IDS.has(d.id)).toBe(true);
    expect(new Set(t.dims.map((d) => d.id)).size).toBe(t.dims.length);
  }
}

const spans = (a: Analysis) => a.textAnnotations.map((t) => `${t.start}-${t.end}`);

describe('annotation offsets', () => {
  it('slice back to their sentences in every mode', () => {
    for (const text of [AI_EN, AI_ES, LONG_TEXT, HUMAN_EN, ...Object.values(EXAMPLES).flatMap((e) => [e.en.positive, e.es.positive])]) {
      for (const sensitivity of MODES) checkAnnotations(text, detector.analyze(text, { sensitivity }));
    }
  });

  for (const [name, prefix] of Object.entries(PREFIXES)) {
    it(`slice back to their sentences after ${name}`, () => {
      // AI_EN is called AI at aggressive, so it must show highlights; AI_ES (95 words, a Spanish
      // cell that gives no AI verdict) may show some, and they must slice back just the same.
      for (const [body, mustHighlight] of [
        [AI_EN, true],
        [AI_ES, false],
      ] as const) {
        const text = prefix + body;
        const a = detector.analyze(text, { sensitivity: 'aggressive' });
        if (mustHighlight) expect(a.textAnnotations.length).toBeGreaterThan(0);
        checkAnnotations(text, a);
        // The body's sentences are flagged at the body's own offsets shifted by the prefix.
        const bodySpans = new Set(engine.analyze(body).sentences.map((s) => `${s.start + prefix.length}-${s.end + prefix.length}`));
        const inBody = a.textAnnotations.filter((t) => t.start >= prefix.length);
        if (mustHighlight) expect(inBody.length).toBeGreaterThan(0);
        for (const t of inBody) {
          expect(bodySpans.has(`${t.start}-${t.end}`)).toBe(true);
          expect(body.includes(t.sentence)).toBe(true);
        }
      }
    });
  }
});

describe('long sentences', () => {
  it('are shortened to at most 200 characters with "…", while start/end cover the whole sentence', () => {
    const a = detector.analyze(LONG_TEXT, { sensitivity: 'aggressive' });
    const long = a.textAnnotations.find((t) => t.start === 0);
    expect(long).toBeDefined();
    expect(LONG_TEXT.slice(long!.start, long!.end)).toBe(LONG_SENTENCE);
    expect(LONG_SENTENCE.length).toBeGreaterThan(MAX_SENTENCE_CHARS);
    expect(long!.sentence.length).toBeLessThanOrEqual(MAX_SENTENCE_CHARS);
    expect(long!.sentence.endsWith('…')).toBe(true);
    expect(LONG_SENTENCE.startsWith(long!.sentence.slice(0, -1))).toBe(true);
  });

  it('are never cut inside a surrogate pair', () => {
    const loneSurrogate = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
    for (let at = 190; at <= 202; at++) {
      const s = `${'x'.repeat(at)}😀${'y'.repeat(100)}`;
      const short = shorten(s);
      expect(short.length).toBeLessThanOrEqual(MAX_SENTENCE_CHARS);
      expect(short.endsWith('…')).toBe(true);
      expect(loneSurrogate.test(short)).toBe(false);
    }
  });

  it('are left alone up to exactly 200 characters', () => {
    const s = 'a'.repeat(MAX_SENTENCE_CHARS);
    expect(shorten(s)).toBe(s);
    expect(shorten(`${s}b`)).toHaveLength(MAX_SENTENCE_CHARS);
  });
});

describe('sensitivity', () => {
  const AI_LIKE = [
    AI_EN,
    AI_ES,
    LONG_TEXT,
    EXAMPLES.stock_phrases.en.positive,
    EXAMPLES.transition_overuse.es.positive,
    EXAMPLES.hedged_framing.en.positive,
  ];

  it('flags more sentences the more aggressive the mode (conservative ⊆ balanced ⊆ aggressive)', () => {
    for (const text of AI_LIKE) {
      const [c, b, a] = MODES.map((sensitivity) => detector.analyze(text, { sensitivity }));
      expect(c.textAnnotations.length).toBeLessThanOrEqual(b.textAnnotations.length);
      expect(b.textAnnotations.length).toBeLessThanOrEqual(a.textAnnotations.length);
      for (const s of spans(c)) expect(spans(b)).toContain(s);
      for (const s of spans(b)) expect(spans(a)).toContain(s);
    }
  });

  it('flags sentences of AI-like text at aggressive, and changes the count across modes on some of them', () => {
    const counts = AI_LIKE.map((text) => MODES.map((sensitivity) => detector.analyze(text, { sensitivity }).textAnnotations.length));
    for (const [, , aggressive] of counts) expect(aggressive).toBeGreaterThan(0);
    expect(counts.some(([c, , a]) => a > c)).toBe(true);
  });

  it('leaves a plainly human text without annotations at conservative', () => {
    for (const text of [HUMAN_EN, HUMAN_EN_2, HUMAN_ES, EXAMPLES.low_burstiness.en.negative, EXAMPLES.low_burstiness.es.negative]) {
      const a = detector.analyze(text, { sensitivity: 'conservative' });
      expect({ text: text.slice(0, 40), annotations: a.textAnnotations }).toEqual({ text: text.slice(0, 40), annotations: [] });
    }
  });
});
