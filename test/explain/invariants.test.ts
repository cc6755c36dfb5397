/**
 * Explanations a person can trust (issues 12 and 20): invariants checked on every dev text, in every
 * mode and both label languages (they skip without ../shared/data), plus the README example. A
 * violation is reported with the text's source and row so it can be looked up. Issue 20 adds the
 * rules that make an answer agree with itself: a bullet named after a dimension only when it is
 * detected, a bullet's count equal to the sentences highlighted with its dimension, an example that
 * shows what its bullet claims, one segment scored as the document, no strong AI passage under a
 * human-side verdict, and dimensions that cannot fire for the language marked `enabled: false`.
 */
import { beforeAll, describe, expect, it, setDefaultTimeout } from 'bun:test';
import { SUITE_TIMEOUT_MS } from '../timeout';
import type { Engine, EngineResult } from '../../src/detector/score/engine';
import { SF } from '../../src/detector/score/layout';
import { SENSITIVITIES, type LabelLang, type Sensitivity } from '../../src/contract';
import { STRONG_PASSAGE_SCORE, STRONG_PASSAGE_WORDS } from '../../src/detector/decide';
import { cellOf } from '../../src/detector/decide/verdict';
import { detectorFor, type DetectorPipeline, makeProfile } from '../../src/detector';
import type { Explanation } from '../../src/detector/explain';
import { DIMENSIONS, MIN_STYLE_WORDS } from '../../src/detector/explain/dimensions';
import { CONTRACTIONS, PERSONAL } from '../../src/detector/score/lexicons';
import { modelLang } from '../../src/contract';
import { dataDir, hasData, loadRows, splitFiles, type Row } from '../../scripts/lib/data';
import { buildMixes, continuationMixes } from '../../scripts/lib/mixes';
import { sharedEngine } from '../engine/fixture';
import { AI_EN, AI_ES, HUMAN_EN, HUMAN_EN_2, HUMAN_ES } from '../engine/texts';
import { EXAMPLES } from './examples';
import type { CalibrationProfile } from '../../src/detector/decide/profile';
import { buildProfile } from '../../src/detector/learn/profile';
import { decisionReading } from '../../src/detector/decide/adaptation';
import { aiNotes, humanNotes } from '../../scripts/lib/calibration-texts';
import { DOC_TYPES } from '../../src/detector/score/doctype';

setDefaultTimeout(SUITE_TIMEOUT_MS);

const DATA = hasData();
if (!DATA) console.warn(`invariants: no shared data at ${dataDir()}; the dev-split invariants are skipped (set DATA_DIR).`);

const LANGS: LabelLang[] = ['en', 'es'];
const META = { name: 'test', modelVersion: 'v-test', createdAt: '2026-11-28T00:00:00.000Z' };
const AI_SIDE = new Set(['ai', 'likely_ai', 'mixed']);
const HUMAN_SIDE = new Set(['human', 'likely_human']);
/** A singular count with a plural noun, in either language. */
const BAD_PLURAL = /(?<!\d)1 (sentences|words|frases|palabras)\b/;

/** The first bullets that say why a verdict is inconclusive. */
const NO_VERDICT_REASONS = new Set(['short_text', 'language_limit', 'uncertain_score', 'ai_passage', 'obfuscation']);
/** The dev mixes checked: a fixed seed, so a failure names the same mix on every run. */
const MIX_SEED = 39;
const MIXES_PER_LANG = 300;
/** How far (points, exclusive) a passage's word-weighted mean sentence score may be from its score: rounding. */
const SENTENCE_MEAN_TOLERANCE = 1;

const DIMENSION_IDS = new Set(DIMENSIONS.map((d) => d.id));
/** Dimensions decided by a rule rather than a trained threshold: they can fire in any language. */
const RULE_DIMENSIONS = new Set(DIMENSIONS.filter((d) => d.detect).map((d) => d.id));
/** First-person words and contractions of the project's own lexicons, both languages. */
const VOICE_WORDS = new Set([...PERSONAL.en, ...PERSONAL.es, ...CONTRACTIONS.en].map((w) => w.toLowerCase()));
/** Whether a passage has a first-person word or a contraction. */
const hasVoice = (s: string) =>
  (
    s
      .toLowerCase()
      .replace(/’/g, "'")
      .match(/\p{L}+(?:'\p{L}+)*/gu) ?? []
  ).some((w) => VOICE_WORDS.has(w));

/** The sentence a bullet's example starts in. */
function sentenceAt(r: EngineResult, start: number) {
  return r.sentences.find((s) => s.start <= start && start < Math.max(s.end, s.start + 1)) ?? null;
}

/** Every invariant broken by one explanation, as readable strings. */
export function violations(text: string, r: EngineResult, e: Explanation, engine: Engine, mode: Sensitivity): string[] {
  const out: string[] = [];
  const detected = new Set(e.dimensions.filter((d) => d.detected).map((d) => d.id));
  for (const a of e.textAnnotations) for (const d of a.dims) if (!detected.has(d.id)) out.push(`annotation cites undetected ${d.id}`);
  if (AI_SIDE.has(e.verdictKey)) {
    if (!e.textAnnotations.length) out.push(`${e.verdictKey} verdict without a highlighted sentence`);
    if (e.bullets[0]?.leaning !== 'ai') out.push(`${e.verdictKey} verdict whose first bullet leans ${e.bullets[0]?.leaning}`);
  }
  if (HUMAN_SIDE.has(e.verdictKey)) {
    if (e.textAnnotations.length) out.push(`${e.verdictKey} verdict with ${e.textAnnotations.length} AI highlights`);
    if (e.bullets[0]?.leaning !== 'human') out.push(`${e.verdictKey} verdict whose first bullet leans ${e.bullets[0]?.leaning}`);
  }
  if (e.verdictKey === 'inconclusive' && e.bullets[0]?.leaning !== 'neutral')
    out.push('inconclusive verdict without a neutral first bullet');
  // Issue 28: the first reason of an inconclusive verdict says why there is none; a "too short to call" note
  // (short_text, language_limit) only ever stands beside an inconclusive verdict, never beside one that was called.
  if (e.verdictKey === 'inconclusive' && !NO_VERDICT_REASONS.has(e.bullets[0]?.id ?? ''))
    out.push(`inconclusive verdict whose first bullet is ${e.bullets[0]?.id}`);
  for (const b of e.bullets) {
    if (e.verdictKey !== 'inconclusive' && (b.id === 'short_text' || b.id === 'language_limit'))
      out.push(`${b.id} note beside a ${e.verdictKey} verdict: "${b.text}"`);
  }
  if (detected.has('obfuscation')) {
    if (HUMAN_SIDE.has(e.verdictKey)) out.push(`obfuscation detected under a ${e.verdictKey} verdict`);
    if (!e.bullets.some((b) => b.id === 'obfuscation')) out.push('obfuscation detected without a bullet saying so');
  }
  const percent = Math.round(r.probability * 100);
  // Dimensions that cannot fire for the language are disabled, never detected, and not counted.
  const thresholds = engine.model.dimensionThresholds[modelLang(r.language)];
  for (const d of e.dimensions) {
    const canFire = RULE_DIMENSIONS.has(d.id) || (thresholds[d.id] ?? null) !== null;
    if (d.enabled !== canFire) out.push(`dimension ${d.id} enabled: ${d.enabled}, but its threshold is ${thresholds[d.id]}`);
    if (!d.enabled && d.detected) out.push(`disabled dimension ${d.id} detected`);
  }
  const enabled = e.dimensions.filter((d) => d.enabled).length;
  if (e.totalDimensions !== enabled) out.push(`totalDimensions ${e.totalDimensions}, but ${enabled} dimensions are enabled`);
  // One segment is the whole text: it has the document's score.
  if (e.segments.length === 1 && e.segments[0].score !== r.score)
    out.push(`single segment scored ${e.segments[0].score}, document ${r.score}`);
  // Sentence scores agree with the passages (issue 28): each passage's sentences, weighted by their
  // words, average to its score within SENTENCE_MEAN_TOLERANCE (rounding only); none without passages.
  if ((r.sentenceScores.length === 0) !== (r.segments.length === 0))
    out.push(`${r.sentenceScores.length} sentence scores beside ${r.segments.length} segments`);
  for (const seg of e.segments) {
    const inside = r.sentenceScores.filter((s) => s.start >= seg.start && s.end <= seg.end);
    const words = inside.reduce((n, s) => n + s.words, 0);
    const mean = inside.reduce((n, s) => n + Math.round(s.probability * 100) * s.words, 0) / Math.max(1, words);
    if (Math.abs(mean - seg.score) >= SENTENCE_MEAN_TOLERANCE) out.push(`sentences of a passage scored ${seg.score} average ${mean}`);
  }
  // The decision sees the segments: a long, strongly AI passage never sits under a human-side verdict.
  const strong = r.segments.find((s) => s.label === 'ai' && s.score >= STRONG_PASSAGE_SCORE && s.words >= STRONG_PASSAGE_WORDS);
  if (strong && HUMAN_SIDE.has(e.verdictKey))
    out.push(`AI passage scored ${strong.score} over ${strong.words} words under a ${e.verdictKey} verdict`);
  for (const b of e.bullets) {
    // A bullet named after a dimension appears only when that dimension is detected...
    if (DIMENSION_IDS.has(b.id) && !detected.has(b.id)) out.push(`bullet ${b.id} while the dimension is not detected`);
    // ...and a count in it is the number of sentences highlighted with that dimension in this answer.
    const claimed = DIMENSION_IDS.has(b.id) ? /(\d+) (sentences?|frases?)\b/.exec(b.text) : null;
    if (claimed) {
      const annotated = e.textAnnotations.filter((a) => a.dims.some((d) => d.id === b.id)).length;
      if (Number(claimed[1]) !== annotated) out.push(`bullet ${b.id} claims ${claimed[1]} sentences, ${annotated} are highlighted with it`);
    }
    if (b.id === 'personal_voice' && !hasVoice(b.example)) out.push(`personal voice bullet cites "${b.example}"`);
    if (text.slice(b.start, b.end) !== b.example) out.push(`bullet ${b.id}: example is not text.slice(start, end)`);
    if (BAD_PLURAL.test(b.text)) out.push(`bullet ${b.id}: "${b.text}"`);
    // A dimension's bullet says what the dimension detected: never that the text reads human (issue 39: a
    // detected fingerprint beside "The word patterns as a whole match human writing (score 10/100)" in a mixed text).
    if (DIMENSION_IDS.has(b.id) && b.leaning === 'human')
      out.push(`bullet ${b.id} of a detected dimension leans ${b.leaning}: "${b.text}"`);
    if (b.id.startsWith('lexical_')) {
      const quoted = Number(/(\d+)\/100/.exec(b.text)?.[1]);
      if (e.verdictKey === 'mixed') {
        // In a mixed text the word-pattern bullet speaks of an AI passage: that passage's score, an example inside it.
        const seg = e.segments.find((x) => x.label === 'ai' && x.start <= b.start && b.end <= x.end);
        if (!seg) out.push(`word-pattern bullet of a mixed text cites "${b.example}" outside its AI passages`);
        else if (quoted !== seg.score)
          out.push(`word-pattern bullet of a mixed text quotes ${quoted}, its AI passage is scored ${seg.score}`);
        if (b.leaning !== 'ai') out.push(`word-pattern bullet of a mixed text leans ${b.leaning}`);
      } else {
        if (quoted !== percent) out.push(`word-pattern bullet quotes ${quoted} on a text scored ${percent}`);
        if (b.leaning === 'ai' && percent < 50) out.push(`AI word-pattern bullet on a text scored ${percent}`);
        if (b.leaning === 'human' && r.probability >= 0.5) out.push(`human word-pattern bullet at p = ${r.probability}`);
      }
    }
    if (b.id === 'short_text' && r.style.words >= MIN_STYLE_WORDS && cellOf(engine.model, r.language, r.scoredWords).conclusive[mode]) {
      out.push(`length note on a ${r.style.words}-word text in a conclusive cell`);
    }
    const s = sentenceAt(r, b.start);
    const f = (k: number) => s?.f[k] ?? 0;
    if (b.id === 'stock_phrases' && f(SF.STOCK) === 0) out.push('stock phrases bullet cites a sentence without one');
    if (b.id === 'personal_voice' && f(SF.PERSONAL) + f(SF.CONTRACTION) === 0)
      out.push('personal voice bullet cites a sentence with no first person and no contraction');
    if (b.id === 'informal_register' && f(SF.INFORMAL) === 0) out.push('informal bullet cites a sentence with no informal marker');
    if (b.id === 'informal_register' && r.sentences.reduce((n, x) => n + x.f[SF.INFORMAL], 0) < 2)
      out.push('informal bullet on a single weak marker');
    if (b.id === 'concrete_details' && f(SF.NUMBERS) + f(SF.PROPER) === 0)
      out.push('concrete details bullet cites a sentence with no number or name');
    if (b.id === 'transition_overuse' && f(SF.OPENS_TRANSITION) === 0)
      out.push('transition bullet cites a sentence that does not open with one');
  }
  return out;
}

let engine: Engine;
let detector: DetectorPipeline;
let rows: Row[] = [];
/** The explanation of a scored text at a mode, through the detector's stages. */
const explainAt = (text: string, r: EngineResult, mode: Sensitivity, lang: LabelLang) =>
  detector.explain(text, r, detector.decide(text, r, mode), lang);
beforeAll(async () => {
  engine = await sharedEngine();
  detector = detectorFor(engine, { modelVersion: 'v-test' });
  if (DATA) rows = loadRows(splitFiles('dev'));
});

describe('explanation invariants', () => {
  it('hold for the README example: no human-leaning bullet on AI-style prose', () => {
    const text =
      'In today’s fast-paced world, it is important to note that technology plays a crucial role in our daily lives. Moreover, it offers numerous benefits that enhance productivity and foster innovation.';
    const r = engine.analyze(text);
    for (const mode of SENSITIVITIES) {
      for (const lang of LANGS) {
        const e = explainAt(text, r, mode, lang);
        expect(e.bullets.filter((b) => b.leaning === 'human')).toEqual([]);
        expect(violations(text, r, e, engine, mode)).toEqual([]);
      }
    }
  });

  it('hold on texts that are not in the data (hand-written, mixed, disguised), in every mode and both label languages', () => {
    // Texts written for the tests, never trained or calibrated on: the dev split is not the only check.
    const stray = (t: string) => t.replace(/([a-z])/g, '$1\u0301');
    const texts = [
      AI_EN,
      AI_ES,
      HUMAN_EN,
      HUMAN_EN_2,
      HUMAN_ES,
      `${HUMAN_EN}\n\n${AI_EN}`,
      `${AI_EN}\n\n${HUMAN_EN_2}`,
      `${HUMAN_ES}\n\n${AI_ES}`,
      stray(AI_EN),
      ...Object.values(EXAMPLES).flatMap((byLang) => Object.values(byLang).flatMap((ex) => [ex.positive, ex.negative])),
    ];
    const found: string[] = [];
    texts.forEach((text, i) => {
      const r = engine.analyze(text);
      for (const mode of SENSITIVITIES) {
        for (const lang of LANGS) {
          for (const v of violations(text, r, explainAt(text, r, mode, lang), engine, mode)) found.push(`text ${i} ${mode}/${lang}: ${v}`);
        }
      }
    });
    expect(texts.length).toBeGreaterThan(30);
    expect(found).toEqual([]);
  });

  it('hold with a calibration profile that moves the verdict either way (issue 34), on hand-written texts and dev texts', () => {
    // Profiles covering every type and length in both languages: one far more lenient than the
    // model (AI-side verdicts from even odds up), one far stricter (almost nothing called AI).
    const covering = (lo: number, hi: number): CalibrationProfile =>
      buildProfile(
        (['en', 'es'] as const).flatMap((lang) =>
          Array.from({ length: 600 }, (_, i) => ({
            lang,
            logit: lo + ((hi - lo) * i) / 599,
            probability: 0.5,
            words: [25, 60, 100, 200, 400][Math.floor(i / 12) % 5],
            docType: DOC_TYPES[i % DOC_TYPES.length],
          })),
        ),
        { name: 'test', modelVersion: 'v-test', createdAt: '2026-11-27T00:00:00.000Z' },
      );
    const profiles = [covering(-40, -20), covering(20, 40)];
    const ai = AI_EN.split(/(?<=\.) /);
    // One passage where AI sentences sit between human ones: scored between even odds and the global bars.
    const between = `${HUMAN_EN} ${HUMAN_EN_2}`
      .split(/(?<=[.!]) /)
      .flatMap((s, i) => [s, ai[i % ai.length]])
      .join(' ');
    const texts = [AI_EN, AI_ES, HUMAN_EN, HUMAN_ES, between, `${HUMAN_EN}\n\n${AI_EN}`, ...rows.slice(0, 300).map((r) => r.text)];
    const found: string[] = [];
    const verdicts = new Set<string>();
    texts.forEach((text, i) => {
      const r = engine.analyze(text);
      for (const [k, profile] of profiles.entries()) {
        for (const mode of SENSITIVITIES) {
          const decision = detector.decide(text, r, mode, { profile, modelVersion: 'v-test' });
          for (const lang of LANGS) {
            const e = detector.explain(text, r, decision, lang);
            verdicts.add(`${k}:${e.verdictKey}`);
            for (const v of violations(text, r, e, engine, mode)) found.push(`text ${i} profile ${k} ${mode}/${lang}: ${v}`);
          }
        }
      }
    });
    expect(found).toEqual([]);
    // The lenient profile calls AI-leaning texts AI below the model's own bars; the strict one calls nothing plainly AI but mixed texts.
    expect(verdicts.has('0:likely_ai')).toBe(true);
    expect(verdicts.has('1:ai') || verdicts.has('1:likely_ai')).toBe(false);
  });

  it('hold with a profile adapted to AI examples (issue 38): the explanations follow the adapted score the verdict was decided on', () => {
    // Adapted to generated diaries (made, like an operator's, from the writers' own kind of text and a model's); with the
    // shared data, a second profile adapted from dev texts of several sources. Applied to other diaries, hand-written texts and dev texts.
    const profiles: CalibrationProfile[] = [makeProfile(detector, humanNotes(150), META, aiNotes(80))];
    // Issue 45 item 2: a profile of two notes a text (80-149 words), adapted, which covers a human note followed by an AI one.
    const pairs = (xs: string[]) => xs.slice(0, xs.length >> 1).map((x, i) => `${x} ${xs[(xs.length >> 1) + i]}`);
    profiles.push(makeProfile(detector, pairs(humanNotes(300)), META, pairs(aiNotes(200))));
    expect(profiles[1].languages.en!.adaptation).not.toBeNull();
    if (DATA) {
      const en = rows.filter((r) => r.lang === 'en');
      profiles.push(
        makeProfile(
          detector,
          en
            .filter((r) => r.label === 'human')
            .slice(0, 400)
            .map((r) => r.text),
          META,
          en
            .filter((r) => r.label === 'ai')
            .slice(0, 150)
            .map((r) => r.text),
        ),
      );
    }
    expect(profiles[0].languages.en!.adaptation).not.toBeNull();
    const texts = [
      ...aiNotes(200).slice(150, 200),
      ...humanNotes(200).slice(150, 200),
      AI_EN,
      HUMAN_EN,
      HUMAN_EN_2,
      `${HUMAN_EN}\n\n${AI_EN}`,
      ...rows.slice(1000, 1300).map((r) => r.text),
      // Two AI notes the model reads as mixed (issue 45 item 2: an adapted 100 beside "mixed").
      ...pairs(aiNotes(400).slice(200)),
    ];
    const found: string[] = [];
    let adapted = 0;
    let moved = 0;
    let wholeOverPassages = 0;
    texts.forEach((text, i) => {
      const r = engine.analyze(text, undefined, true);
      for (const [k, profile] of profiles.entries()) {
        for (const mode of SENSITIVITIES) {
          const decision = detector.decide(text, r, mode, { profile, modelVersion: 'v-test' });
          const read = decisionReading(r, decision);
          if (decision.adapted) adapted++;
          if (decision.verdictKey !== detector.decide(text, r, mode).verdictKey) moved++;
          // A verdict never disagrees with the score shown beside it.
          if (decision.verdictKey === 'ai' && read.score < 90) found.push(`text ${i} profile ${k} ${mode}: ai at score ${read.score}`);
          if (decision.verdictKey === 'likely_ai' && read.score < 50)
            found.push(`text ${i} profile ${k} ${mode}: likely_ai at score ${read.score}`);
          // (A probability just under even odds rounds to a score of 50: the rule reads the probability.)
          if (HUMAN_SIDE.has(decision.verdictKey) && read.probability >= 0.5)
            found.push(`text ${i} profile ${k} ${mode}: ${decision.verdictKey} at p = ${read.probability}`);
          // Issue 45 item 2: an adapted reading that reaches its bar decides the whole text; `mixed` only below it.
          if (decision.adapted && decision.verdictKey === 'mixed' && read.probability >= decision.aiThreshold)
            found.push(`text ${i} profile ${k} ${mode}: mixed at adapted score ${read.score}, over the bar`);
          if (decision.adapted && decision.verdictKey !== 'mixed' && detector.decide(text, r, mode).mixedPassage) wholeOverPassages++;
          for (const lang of LANGS) {
            const e = detector.explain(text, r, decision, lang);
            for (const v of violations(text, read, e, engine, mode)) found.push(`text ${i} profile ${k} ${mode}/${lang}: ${v}`);
            // "The rest reads as human" only beside a mixed verdict; passages that are the model's own reading are said to be.
            if (e.bullets.some((b) => b.id === 'mixed_authorship') !== (e.verdictKey === 'mixed'))
              found.push(`text ${i} profile ${k} ${mode}/${lang}: ${e.verdictKey} verdict, mixed_authorship bullet ${!!e.bullets.length}`);
            const several = decision.adapted !== null && r.segments.length > 1;
            if (several !== (e.calibration?.passages === 'model'))
              found.push(`text ${i} profile ${k} ${mode}/${lang}: ${r.segments.length} passages, passages ${e.calibration?.passages}`);
            if (several && !e.calibration?.note?.includes(`${read.score}/100`))
              found.push(`text ${i} profile ${k} ${mode}/${lang}: note "${e.calibration?.note}" without the score ${read.score}`);
          }
        }
      }
    });
    expect(found.slice(0, 20)).toEqual([]);
    expect(adapted).toBeGreaterThan(100);
    expect(moved).toBeGreaterThan(20);
    // The rule of issue 45 item 2 was exercised: adapted answers the model alone would have called mixed.
    expect(wholeOverPassages).toBeGreaterThan(5);
  });

  it.skipIf(!DATA)(
    'hold on mixes of human and AI dev texts, whose mixed verdicts explain their AI passage (needs ../shared/data)',
    () => {
      // The mixes the decoder is measured on (scripts/lib/mixes.ts): a human opening then an AI one, or the
      // other way round, at 25/50/75% AI, in both languages, plus the data's own continuations.
      const mixes = [...buildMixes(rows, MIX_SEED, MIXES_PER_LANG), ...continuationMixes(rows)];
      const found: string[] = [];
      let mixed = 0;
      let humanLeaningWhole = 0;
      mixes.forEach((m, i) => {
        const r = engine.analyze(m.text);
        for (const mode of SENSITIVITIES) {
          for (const lang of LANGS) {
            const e = explainAt(m.text, r, mode, lang);
            if (e.verdictKey === 'mixed') {
              mixed++;
              if (r.probability < 0.5) humanLeaningWhole++;
            }
            for (const v of violations(m.text, r, e, engine, mode)) found.push(`${m.kind} mix ${i} (${m.lang}) ${mode}/${lang}: ${v}`);
          }
        }
      });
      // Enough mixed answers, some of texts whose whole reads human (the case of issue 39), to mean something.
      expect(mixed).toBeGreaterThan(300);
      expect(humanLeaningWhole).toBeGreaterThan(50);
      expect(found.slice(0, 20)).toEqual([]);
    },
    120_000,
  );

  it.skipIf(!DATA)(
    'hold on every dev text, in every mode and both label languages (needs ../shared/data)',
    () => {
      expect(rows.length).toBeGreaterThan(10_000);
      const found: string[] = [];
      let aiSide = 0;
      rows.forEach((row, i) => {
        const r = engine.analyze(row.text);
        for (const mode of SENSITIVITIES) {
          for (const lang of LANGS) {
            const e = explainAt(row.text, r, mode, lang);
            if (AI_SIDE.has(e.verdictKey)) aiSide++;
            for (const v of violations(row.text, r, e, engine, mode)) found.push(`${row.source}#${i} ${mode}/${lang}: ${v}`);
          }
        }
      });
      expect(aiSide).toBeGreaterThan(1000);
      if (found.length) {
        // How many answers break each rule (numbers and quotes folded), to see the whole picture at once.
        const kinds = new Map<string, number>();
        for (const v of found) {
          const kind = v
            .replace(/^\S+ \S+: /, '')
            .replace(/"[^"]*"/g, '"…"')
            .replace(/\d+(\.\d+)?/g, 'N');
          kinds.set(kind, (kinds.get(kind) ?? 0) + 1);
        }
        console.error([...kinds].map(([k, n]) => `${n}\t${k}`).join('\n'));
      }
      expect(found.slice(0, 20)).toEqual([]);
    },
    180_000,
  );
});
