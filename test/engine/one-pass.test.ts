/**
 * One pass reads the text and its prose view (issue 35, item 6): the wasm core follows the view
 * (presentation.ts's pieces) while it reads the text (assembly/prose.ts), and the document score it
 * gives is exactly what a second pass over the view's own text gives (the engine of 2026-11-26, and
 * what the model was trained on): the same score bits, n-gram count, words and emitted n-grams; and
 * every sentence's features are those of a pass over the text alone. Where
 * the core cannot read the view inside the text it says so, and the engine takes that second pass.
 * The dev-text part skips, with a message, when the shared data is absent.
 */
import { beforeAll, describe, expect, it, setDefaultTimeout } from 'bun:test';
import { SUITE_TIMEOUT_MS } from '../timeout';
import { dataDir, hasData, loadRows, splitFiles } from '../../scripts/lib/data';
import { LANG_DETECT, LANG_ID, TEXT_LANGS, type TextLang } from '../../src/contract';
import type { Engine } from '../../src/detector/score/engine';
import { Doc, SENT_FEATURES } from '../../src/detector/score/layout';
import { normalizeText } from '../../src/detector/score/normalize';
import { isWholeText, proseView, viewText } from '../../src/detector/score/presentation';
import { sharedEngine } from './fixture';
import { AI_EN, AI_ES, HUMAN_EN } from './texts';

setDefaultTimeout(SUITE_TIMEOUT_MS);

const DATA = hasData();
if (!DATA) console.warn(`test/engine/one-pass.test.ts: dev texts skipped, the shared data is absent (${dataDir()}; set DATA_DIR)`);

/** Dev texts compared per language (every n-th, spread over the split). */
const SAMPLE = 1500;

/**
 * The two-pass engine's reading: the sentences' features of a pass over the text (for its
 * language), then the document score of a pass over the view's own text.
 */
function twoPasses(engine: Engine, text: string, lang?: TextLang) {
  const norm = normalizeText(text).text;
  const pass = engine.core.analyze(norm, lang ? LANG_ID[lang] : LANG_DETECT);
  const first = pass.views;
  const sentences = [...first.sentFeatures.slice(0, pass.sentences * SENT_FEATURES)];
  const language = lang ?? TEXT_LANGS[first.doc[Doc.LANG]];
  const view = proseView(norm);
  const prose = isWholeText(norm, view) ? norm : viewText(norm, view);
  const { doc, feats } = engine.core.analyze(prose, LANG_ID[language], true).views;
  return {
    sentences,
    score: { bits: doc[Doc.SCORE_BITS], ngrams: doc[Doc.NGRAMS], words: doc[Doc.VIEW_WORDS], feats: [...feats.slice(0, doc[Doc.FEATS])] },
  };
}

/** The document score of the one pass (and whether it could read the view). */
function onePass(engine: Engine, text: string, lang?: TextLang) {
  const norm = normalizeText(text).text;
  const view = proseView(norm);
  const { doc, feats } = engine.core.analyze(norm, lang ? LANG_ID[lang] : LANG_DETECT, true, isWholeText(norm, view) ? null : view).views;
  return {
    read: doc[Doc.VIEW_UNREAD] === 0,
    score: { bits: doc[Doc.SCORE_BITS], ngrams: doc[Doc.NGRAMS], words: doc[Doc.VIEW_WORDS], feats: [...feats.slice(0, doc[Doc.FEATS])] },
  };
}

/** The engine's own answer against the two passes': every sentence's features, the document's words and emitted n-grams. */
function sameAsTwoPasses(engine: Engine, text: string, lang?: TextLang) {
  const r = engine.analyze(text, lang, true);
  const ref = twoPasses(engine, text, lang);
  const one = onePass(engine, text, lang);
  if (one.read) expect(one.score).toEqual(ref.score);
  expect(r.sentences.flatMap((s) => [...s.f])).toEqual(ref.sentences);
  expect(r.scoredWords).toBe(ref.score.words);
  expect([...r.feats!]).toEqual(ref.score.feats);
  return one.read;
}

let engine: Engine;
beforeAll(async () => {
  engine = await sharedEngine();
});

describe('one pass over the text and its prose view', () => {
  const body = `${AI_EN}\n\n${HUMAN_EN}`;
  it.each([
    ['a single paragraph', AI_EN],
    ['paragraphs', body],
    ['a Title: line', `Title: The Role of Bees\n\n${body}`],
    ['a Markdown header and list', `# Bees\n\n- ${AI_EN}\n- ${HUMAN_EN}`],
    ['a bold first line', `**The Role of Bees**\n\n${body}`],
    ['a hard wrap', AI_EN.replace(/(\S+ \S+ \S+ \S+ \S+ \S+ \S+ \S+) /g, '$1\n')],
    ['a hard wrap after a sentence end, in lower case', 'It rained all day.\nthen it stopped and we went out.'],
    ['a line break the text reads as a sentence end', 'We bought apples, pears and\nPlums from the market today'],
    ['an abbreviation at a line end', 'We met Dr.\nSmith at the station, e.g.\nnear the bridge.'],
    ['a trailing keyword list', `${AI_EN} Keywords: bees, pollination, food security`],
    ['a title run into its abstract', `Title: Bees Abstract: ${AI_EN}`],
    ['a cut-off last sentence', `${AI_EN}\n\nAnd then the`],
    ['Spanish with headings', `Introducción\n\n${AI_ES}\n\nConclusión\n\n${AI_ES}`],
    ['quotes closing on a bang across a line', '"Stop!"\nhe shouted. "Now!" She ran.'],
    ['CJK end marks', '今日は晴れです。\n明日は雨です。'],
  ])('scores %s as the two passes did', (_, text) => {
    for (const lang of [undefined, 'en', 'es', 'other'] as const) expect(sameAsTwoPasses(engine, text, lang)).toBe(true);
  });

  it.each([
    ['a line separator inside a line', `${AI_EN}\u2028${HUMAN_EN}\nAnd more text here`],
    ['a list mark the view would read at its start', `- - ${AI_EN}\n\n${HUMAN_EN}`],
    ['nothing but headings', '# Bees\n\n## Wasps and ants'],
    ['Cyrillic letters only in a heading', `Привет мир\n\n${AI_EN.replace('o', 'о')}`],
  ])('takes a second pass when it cannot read the view inside the text: %s', (_, text) => {
    expect(sameAsTwoPasses(engine, text)).toBe(false);
  });
});

describe.skipIf(!DATA)('one pass on dev texts (needs ../shared/data)', () => {
  it('gives every dev text sampled the two passes’ document score, in its language and detected', () => {
    const rows = loadRows(splitFiles('dev'));
    let viewed = 0;
    for (const lang of ['en', 'es'] as const) {
      const cell = rows.filter((r) => r.lang === lang);
      const step = Math.max(1, Math.floor(cell.length / SAMPLE));
      for (let i = 0; i < cell.length; i += step) {
        const norm = normalizeText(cell[i].text).text;
        if (!isWholeText(norm, proseView(norm))) viewed++;
        sameAsTwoPasses(engine, cell[i].text, lang);
        sameAsTwoPasses(engine, cell[i].text);
      }
    }
    expect(viewed).toBeGreaterThan(SAMPLE);
  });
});
