/**
 * Bullets (issue #3 item 4): 2 to 6 plain-language findings, each with an example passage taken from
 * the submitted text (example === text.slice(start, end)), including findings that point toward a
 * human writer.
 */
import { beforeAll, describe, expect, it, setDefaultTimeout } from 'bun:test';
import { SUITE_TIMEOUT_MS } from '../timeout';
import { BULLET_LEANINGS, type Analysis, type Detector } from '../../src/detector/types';
import type { LabelLang, Sensitivity } from '../../src/contract';
import { DIMENSIONS } from '../../src/detector/explain/dimensions';
import { MAX_BULLETS, MIN_BULLETS } from '../../src/detector/explain/bullets';
import { en } from '../../src/i18n/en';
import { es } from '../../src/i18n/es';
import { sharedDetector, sharedEngine } from '../engine/fixture';
import { conclusiveFrom } from '../../src/detector/decide/verdict';
import { decide } from '../../src/detector/decide';
import { explain } from '../../src/detector/explain';
import type { ModelFile } from '../../src/detector/score/model';
import { AI_EN, AI_ES, HUMAN_EN, HUMAN_EN_2, HUMAN_ES } from '../engine/texts';
import { EXAMPLES } from './examples';
import { HUMAN_SIGNAL_DIMENSION, humanFindings } from '../../src/detector/explain/findings';
import { hasData, loadRows, splitFiles } from '../../scripts/lib/data';

setDefaultTimeout(SUITE_TIMEOUT_MS);

let detector: Detector;
beforeAll(async () => {
  detector = await sharedDetector();
});

/** Longest example passage a bullet quotes. */
const MAX_EXAMPLE_CHARS = 200;
const MODES: Sensitivity[] = ['conservative', 'balanced', 'aggressive'];

const TEXTS: string[] = [
  AI_EN,
  AI_ES,
  HUMAN_EN,
  HUMAN_EN_2,
  HUMAN_ES,
  ...Object.values(EXAMPLES).flatMap((e) => [e.en.positive, e.en.negative, e.es.positive, e.es.negative]),
  `😀 Emoji first.\r\n\r\n${AI_EN}`,
  'Hi.',
  'Two words',
  `${'A very long sentence that goes on and on without any full stop at all, '.repeat(8)}and ends here.`,
];

/** Every signal id a bullet may carry: the dimensions, and the human-side and neutral signals. */
const SIGNALS = new Set([
  ...DIMENSIONS.map((d) => d.id),
  'personal_voice',
  'varied_rhythm',
  'concrete_details',
  'informal_register',
  'mixed_authorship',
  'short_text',
  'short_style',
  'language_limit',
  'uncertain_score',
  'ai_passage',
  'lexical_reading',
  'no_style_signals',
]);
const idsOf = (a: Analysis) => a.bullets.map((b) => b.id);

function checkBullets(text: string, a: Analysis, lang: LabelLang): void {
  expect(a.bullets.length).toBeGreaterThanOrEqual(MIN_BULLETS);
  expect(a.bullets.length).toBeLessThanOrEqual(MAX_BULLETS);
  expect(MIN_BULLETS).toBe(2);
  expect(MAX_BULLETS).toBe(6);
  for (const b of a.bullets) {
    expect(b.example).toBe(text.slice(b.start, b.end));
    expect(b.start).toBeGreaterThanOrEqual(0);
    expect(b.end).toBeGreaterThanOrEqual(b.start);
    expect(b.end).toBeLessThanOrEqual(text.length);
    expect(b.example.length).toBeLessThanOrEqual(MAX_EXAMPLE_CHARS);
    expect(b.text).not.toMatch(/\{\w+\}/); // every placeholder filled
    expect(SIGNALS.has(b.id)).toBe(true);
    expect(BULLET_LEANINGS).toContain(b.leaning);
    expect(Object.values(lang === 'es' ? es.bullets : en.bullets).length).toBeGreaterThan(0);
  }
  expect(new Set(a.bullets.map((b) => b.text)).size).toBe(a.bullets.length);
}

describe('bullets', () => {
  it('never say "too short to call" beside a verdict that was called: the README example is called ai, and its short-text note is about style (issue 28)', () => {
    const text =
      'In today’s fast-paced world, it is important to note that technology plays a crucial role in our daily lives. Moreover, it offers numerous benefits that enhance productivity and foster innovation.';
    for (const labelLang of ['en', 'es'] as LabelLang[]) {
      const a = detector.analyze(text, { labelLang });
      expect(a.verdictKey).toBe('ai');
      expect(idsOf(a)).not.toContain('short_text');
      const note = a.bullets.find((b) => b.id === 'short_style');
      expect(note?.text).toBe(
        labelLang === 'en'
          ? 'With 30 words, the text is too short to measure its style (rhythm, vocabulary, register): the score rests on its word patterns.'
          : 'Con 30 palabras, el texto es demasiado corto para medir su estilo (ritmo, vocabulario, registro): la puntuación se basa en sus patrones de palabras.',
      );
      for (const b of a.bullets) expect(b.text).not.toMatch(/too short to call|demasiado corto para decidir/);
    }
  });

  it('lead an inconclusive verdict with why there is none: the language’s limit when no sensitivity calls its length, the sensitivity’s otherwise (issue 28)', async () => {
    // Calibration cells decide where a language gets verdicts (model/model.json, `cells.<lang>[].conclusive`);
    // the retrained model of 2026-11-26 calls every Spanish length, so the limit is set here on a copy of it.
    const engine = await sharedEngine();
    const text = AI_ES.split(/\s+/).slice(0, 60).join(' ');
    const r = engine.analyze(text);
    expect(r.language).toBe('es');
    expect(r.score).toBeGreaterThanOrEqual(70);
    const limited = (modes: readonly Sensitivity[]) => {
      const model = structuredClone(engine.model);
      model.cells.es = model.cells.es.map((cell, b) =>
        b < 3 ? { ...cell, conclusive: { ...cell.conclusive, ...Object.fromEntries(modes.map((m) => [m, false])) } } : cell,
      );
      return model;
    };
    const answer = (model: ModelFile, mode: Sensitivity, lang: LabelLang) =>
      explain(model, text, r, decide(model, engine.docTypes, text, r, mode), lang);
    // No sensitivity calls Spanish under 150 words: the reason names the language and the length, in words.
    const none = limited(MODES);
    for (const mode of MODES) {
      expect(conclusiveFrom(none, 'es', mode)).toBe(150);
      const es = answer(none, mode, 'es');
      expect(es.verdictKey).toBe('inconclusive');
      expect(es.bullets[0].id).toBe('language_limit');
      expect(es.bullets[0].text).toBe(
        `Este modelo aún no distingue la escritura de IA de la humana en textos en español de menos de 150 palabras, con ninguna sensibilidad: con ${r.style.words} palabras, este recibe una puntuación pero no un veredicto.`,
      );
      expect(answer(none, mode, 'en').bullets[0].text).toBe(
        `This model cannot yet tell AI from human writing in Spanish texts under 150 words, at any sensitivity: with ${r.style.words} words, this one gets a score but no verdict.`,
      );
    }
    // Only the conservative mode cannot: the reason is the length at this sensitivity, not the language.
    const conservativeOnly = limited(['conservative']);
    const en = answer(conservativeOnly, 'conservative', 'en');
    expect(en.verdictKey).toBe('inconclusive');
    expect(en.bullets[0].id).toBe('short_text');
    expect(en.bullets[0].text).toBe(
      `With ${r.style.words} words, the text is too short to call either way at this sensitivity: the score is shown, but no verdict is given.`,
    );
    expect(answer(conservativeOnly, 'aggressive', 'en').verdictKey).toBe('ai');
  });

  it('are 2 to 6 per text, each example === text.slice(start, end), in every mode and label language', () => {
    for (const text of TEXTS) {
      for (const sensitivity of MODES) {
        for (const labelLang of ['en', 'es'] as LabelLang[])
          checkBullets(text, detector.analyze(text, { sensitivity, labelLang }), labelLang);
      }
    }
  });

  it('quote different words in each bullet: no two examples overlap unless the text has one sentence (issue 39)', () => {
    // Every dev text when the shared data is here (the quotes do not depend on the label language),
    // and the texts above either way. On the code before the fix (c56f4ab), 6,952 of the 18,392 dev texts
    // with two sentences or more repeated a quote: an inconclusive verdict's reason and the word-pattern
    // bullet after it, most often.
    const texts = [...TEXTS, ...(hasData() ? loadRows(splitFiles('dev')).map((row) => row.text) : [])];
    const repeats: string[] = [];
    for (const text of texts) {
      const a = detector.analyze(text, { sensitivity: 'balanced' });
      if (a.sentenceScores.length < 2) continue;
      a.bullets.forEach((b, i) => {
        const earlier = a.bullets.slice(0, i).find((q) => b.start < q.end && q.start < b.end);
        if (earlier) repeats.push(`${a.verdictKey}: ${b.id} quotes what ${earlier.id} quotes, "${b.example.slice(0, 60)}"`);
      });
    }
    expect(repeats.slice(0, 5)).toEqual([]);
  });

  it('quote a non-empty passage from any text with words', () => {
    for (const text of TEXTS) for (const b of detector.analyze(text).bullets) expect(b.example.trim().length).toBeGreaterThan(0);
  });

  it('cut an over-long example at a word boundary inside the sentence', () => {
    const text = TEXTS[TEXTS.length - 1];
    for (const b of detector.analyze(text).bullets) {
      expect(b.example.length).toBeLessThanOrEqual(MAX_EXAMPLE_CHARS);
      expect(text.slice(b.start, b.end)).toBe(b.example);
    }
  });

  it('include the learned model reading on the AI side for AI text', () => {
    const lexical = detector.analyze(AI_EN).bullets.find((b) => b.id === 'lexical_fingerprint');
    expect(lexical).toMatchObject({ leaning: 'ai' });
  });

  it('include findings that point toward a human writer for human text', () => {
    for (const [text, lang] of [
      [HUMAN_EN, 'en'],
      [HUMAN_EN_2, 'en'],
      [HUMAN_ES, 'es'],
    ] as const) {
      expect(detector.analyze(text, { labelLang: lang }).bullets.some((b) => b.leaning === 'human')).toBe(true);
    }
  });

  it('quote a sentence that shows the finding (stock phrases, personal voice)', async () => {
    const stock = EXAMPLES.stock_phrases.en.positive;
    const b = detector.analyze(stock).bullets.find((x) => x.id === 'stock_phrases');
    expect(b).toBeDefined();
    expect(b!.example).toMatch(/crucial|important to note|foster|empower|leverag/);
    // Personal voice is shown only where the model uses formal_register (switched off in en and es
    // by the model of 2026-11-26): on a copy of the model that uses it in English.
    const engine = await sharedEngine();
    const model = structuredClone(engine.model);
    model.dimensionThresholds.en.formal_register = 0.5;
    const r = engine.analyze(HUMAN_EN);
    const voice = explain(model, HUMAN_EN, r, decide(model, engine.docTypes, HUMAN_EN, r, 'conservative'), 'en').bullets.find(
      (x) => x.id === 'personal_voice',
    );
    expect(voice).toBeDefined();
    expect(voice!.example).toMatch(/\bI\b|\bI'|\bmy\b|\bMy\b/);
  });

  it('show no human-side signal whose dimension the model does not use for the language (issue 32)', async () => {
    const engine = await sharedEngine();
    for (const text of [HUMAN_EN, HUMAN_EN_2, HUMAN_ES]) {
      const a = detector.analyze(text);
      const unused = new Set(a.dimensions.filter((d) => !d.enabled).map((d) => d.id));
      for (const bullet of a.bullets) {
        const dimension = HUMAN_SIGNAL_DIMENSION[bullet.id];
        if (dimension) expect([bullet.id, unused.has(dimension)]).toEqual([bullet.id, false]);
      }
    }
    // The signal itself is there (the text has a personal voice): only its bullet is left out.
    const r = engine.analyze(HUMAN_EN);
    expect(humanFindings(r, HUMAN_EN, Number.NaN).map((f) => f.id)).toContain('personal_voice');
    expect(detector.analyze(HUMAN_EN).dimensions.find((d) => d.id === 'formal_register')?.enabled).toBe(false);
    expect(detector.analyze(HUMAN_EN).bullets.map((b) => b.id)).not.toContain('personal_voice');
  });

  // BUG (reported to the lead): a detected dimension's finding gets strength
  // min(3, 0.5 + |value - threshold| / (|threshold| + 1e-3)); obfuscation has no trained threshold
  // (dimensionThresholds.*.obfuscation is absent), so its strength is NaN, the sort comparator
  // returns NaN for it and, when more than 6 findings compete, the obfuscation bullet is cut while
  // the dimension is reported as detected. Give rule-based dimensions a finite (high) strength.
  it('mention hidden characters whenever the obfuscation dimension is detected', () => {
    const para = `Moreover, the city has grown quickly, and it is important to note that this growth plays a crucial role in the region. Furthermore, the city has built comprehensive schools and robust hospitals that foster innovation and enhance wellbeing for various communities.`;
    const clean = `## Overview\n\n${para}\n\n${para.replace('Moreover', 'Additionally')}\n\n${para.replace('Moreover', 'Consequently')}\n\n- **Point**: the city has grown.\n- **Point**: the city has built.\n- **Point**: the city has changed.`;
    const text = clean.replace(/\b(\p{L}{2})(\p{L}{2,})/gu, '$1\u200B$2');
    const a = detector.analyze(text);
    expect(a.dimensions.find((d) => d.id === 'obfuscation')?.detected).toBe(true);
    expect(idsOf(a)).toContain('obfuscation');
  });

  // BUG (reported to the lead): passage() in src/detector/explain/bullets.ts cuts a sentence longer than 200
  // code units at the last space, or at exactly start + 200 when there is none (CJK, emoji runs),
  // which can split a surrogate pair: the example then ends with a lone high surrogate. Step back
  // one unit when text.charCodeAt(end - 1) is a high surrogate (annotations' shorten() already does).
  it('never cut an example inside a surrogate pair', () => {
    const lone = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
    for (const text of [`x${'𠀀'.repeat(150)}。`, `x${'😀'.repeat(120)} and then some words to end it.`]) {
      for (const b of detector.analyze(text).bullets) expect(lone.test(b.example)).toBe(false);
    }
  });

  // BUG (reported to the lead): a dimension can be detected on the document while none of its
  // sentences may trigger (sentences under MIN_TRIGGER_WORDS = 5 words are skipped), so the bullet
  // says "Phrases that AI models overuse appear in 0 sentences." and quotes the first sentence,
  // which has none. The count should include short sentences, or the bullet should be dropped.
  it('never claim a finding in 0 sentences: a count is the sentences highlighted with the dimension (issue 20)', () => {
    // Long enough (MIN_STYLE_WORDS) for style dimensions to judge; the stock phrases sit in two short sentences,
    // too short to highlight: the bullet is dropped rather than claim sentences the answer does not show.
    const text = `${HUMAN_EN}\n\n${HUMAN_EN_2} Delve deeper. Foster growth.`;
    const a = detector.analyze(text, { sensitivity: 'aggressive' });
    const highlighted = a.textAnnotations.filter((x) => x.dims.some((d) => d.id === 'stock_phrases')).length;
    const b = a.bullets.find((x) => x.id === 'stock_phrases');
    if (highlighted === 0) expect(b).toBeUndefined();
    else expect(b?.text).toContain(` ${highlighted} `);
    const stock = EXAMPLES.stock_phrases.en.positive;
    const s = detector.analyze(stock, { sensitivity: 'aggressive' });
    const bullet = s.bullets.find((x) => x.id === 'stock_phrases');
    expect(bullet?.text).toContain(`${s.textAnnotations.filter((x) => x.dims.some((d) => d.id === 'stock_phrases')).length} sentence`);
  });
});
