/**
 * Explanations of a score (src/detector/score) and its decision (src/detector/decide): dimensions,
 * sentence annotations, segments and bullets, in the caller's label language. They read the verdict,
 * the mixed passage and the document type from the decision and never decide again. Pure: no wasm, no I/O. The rules that make
 * them trustworthy (test/explain/invariants.test.ts checks them on every dev text): no highlight
 * cites a dimension that was not detected; an AI-side verdict highlights at least one sentence and
 * its first bullet leans AI; a human-side verdict highlights nothing; a bullet's count is the number of
 * sentences highlighted with its dimension, and its example one of those sentences; a dimension's bullet
 * never leans human, and in a mixed text the fingerprint's speaks of the AI passage (its score, a sentence of it).
 */
import {
  aiSharePercent,
  isAiVerdict,
  isHumanVerdict,
  type LabelLang,
  modelLang,
  roundShare,
  type TextLang,
  type VerdictKey,
} from '../../contract';
import { formatCount, formatShare, t } from '../../i18n';
import type { Decision } from '../decide';
import { decisionReading } from '../decide/adaptation';
import { EVEN_ODDS } from '../decide/verdict';
import type { EngineResult, ScoredSentence } from '../score/engine';
import type { ModelFile } from '../score/model';
import type { Analysis, DimensionRef, DimensionResult, MeasuredErrorView, TextAnnotation } from '../types';
import type { MeasuredError } from '../decide/measured-error';
import type { Segment } from '../score/segments';
import { buildAnnotations } from './annotations';
import { leaningOf, renderBullets, strongestWith } from './bullets';
import { dimensionFindings } from './dimension-findings';
import { MIN_STYLE_WORDS } from './dimensions';
import { finding, HUMAN_SIGNAL_DIMENSION, humanFindings, strongest, type Finding } from './findings';
import { otherWritersSentence } from './other-writers';

export { DIMENSIONS, TOTAL_DIMENSIONS } from './dimensions';
export { DOC_TYPES } from '../score/doctype';

/** The part of an Analysis the explanations produce. */
export type Explanation = Pick<
  Analysis,
  | 'verdictKey'
  | 'verdict'
  | 'ai'
  | 'docType'
  | 'docTypeLabel'
  | 'totalDimensions'
  | 'activeDimensions'
  | 'dimensions'
  | 'textAnnotations'
  | 'bullets'
  | 'segments'
  | 'aiShare'
  | 'measuredError'
  | 'calibration'
>;

/** Explain a scored text and its decision, with labels in `lang`: never deciding again. */
export function explain(model: ModelFile, text: string, scored: EngineResult, decision: Decision, lang: LabelLang): Explanation {
  // The score the verdict was decided on: a profile's adapted reading when it adapted (decide/adaptation.ts).
  const r = decisionReading(scored, decision);
  const { mode, verdictKey } = decision;
  const ml = modelLang(r.language);
  const passage = decision.mixedPassage;
  const dims = dimensionFindings(model, text, r, decision, lang);
  const annotations = isHumanVerdict(verdictKey)
    ? []
    : buildAnnotations(
        text,
        r.sentences,
        dims.triggered,
        mode,
        isAiVerdict(verdictKey) ? fallbackHighlight(r, dims.inAiPassage, dims.fingerprint) : null,
        dims.inAiPassage,
      );
  const unused = new Set(dims.dimensions.filter((d) => !d.enabled).map((d) => d.id));
  const findings: Finding[] = [
    ...dims.findings.flatMap((f) => countAnnotated(f, annotations)),
    // A human-side signal whose dimension the model does not use for this language is not used either.
    ...humanFindings(r, text, model.dimensionThresholds[ml].low_burstiness ?? NaN).filter((f) => !unused.has(HUMAN_SIGNAL_DIMENSION[f.id])),
  ];
  const fingerprintDetected = dims.dimensions.some((d) => d.id === 'lexical_fingerprint' && d.detected);
  const lexical = passage && fingerprintDetected ? passageFinding(r, passage) : lexicalFinding(r, fingerprintDetected);
  findings.push(lexical);
  const words = r.style.words;
  const lead = leadFinding(verdictKey, findings, lexical, passage ? { share: r.aiShare, start: passage.start, end: passage.end } : null, {
    percent: Math.round(r.probability * 100),
    words,
    short: decision.short,
    shortBy: decision.shortBy,
    language: t(lang, `languages.${r.language}`),
    obfuscated: decision.obfuscated,
    strongAiPassage: r.probability < EVEN_ODDS ? decision.strongAiPassage : null,
    sentences: r.sentences,
  });
  // Padding for a short text says what its length costs (no style measures), never that it is too short to call: the verdict may be called.
  const filler =
    words < MIN_STYLE_WORDS
      ? finding('short_style', 'neutral', { words }, 0, r.sentences, r.sentences[0] ?? null)
      : finding('no_style_signals', 'neutral', {}, 0, r.sentences, r.sentences[0] ?? null);
  const enabled = dims.dimensions.filter((d) => d.enabled);
  return {
    verdictKey,
    verdict: t(lang, `verdicts.${verdictKey}`),
    ai: isAiVerdict(verdictKey),
    docType: decision.docType,
    docTypeLabel: t(lang, `docTypes.${decision.docType}`),
    totalDimensions: enabled.length,
    activeDimensions: enabled.filter((d) => d.detected).length,
    dimensions: dims.dimensions,
    textAnnotations: annotations,
    bullets: renderBullets(text, lead, findings, filler, lang),
    segments: r.segments.map(({ start, end, label, score }) => ({ start, end, label, score })),
    aiShare: roundShare(r.aiShare),
    measuredError: measuredErrorView(decision.measuredError, r.language, lang),
    calibration: calibrationView(decision, r, lang),
  };
}

/** The profile's use as the answer carries it: with the one line that says why an adapted score and the model's passages differ. */
function calibrationView(decision: Decision, r: EngineResult, lang: LabelLang): Decision['calibration'] {
  const c = decision.calibration;
  if (c?.passages !== 'model') return c;
  const note = t(lang, 'calibrationNotes.model_passages', { score: c.adaptedScore ?? 0, percent: aiSharePercent(r.aiShare) });
  return { ...c, note };
}

/** The measured error as the answer carries it, with its sentence ("... at most X%", with n) in the label language. */
export function measuredErrorView(m: MeasuredError, textLang: TextLang, lang: LabelLang): MeasuredErrorView {
  const measured = Number.isFinite(m.rate) && m.texts > 0;
  const base = { humanTexts: m.texts, source: m.source, docType: m.docType, words: m.words };
  if (!measured) return { humanFlaggedRate: null, upperBound: null, ...base, text: t(lang, 'measuredError.unmeasured') };
  const upperBound = Number.isFinite(m.upperBound) ? m.upperBound : 1;
  const params = { rate: formatShare(lang, m.rate), texts: formatCount(lang, m.texts), bound: formatShare(lang, upperBound) };
  if (m.source === 'calibration') {
    const own = t(lang, 'measuredError.calibration', params);
    if (!m.otherWriters) return { humanFlaggedRate: m.rate, upperBound, ...base, text: own };
    // For whom the bound holds (texts like the profile's), then what the bar does to other writers (issue 43 item 5).
    const text = `${own} ${otherWritersSentence(m.otherWriters, lang)}`;
    return { humanFlaggedRate: m.rate, upperBound, ...base, otherWriters: m.otherWriters, text };
  }
  const kind = [
    m.docType ? t(lang, `docTypes.${m.docType}`) : null,
    m.words
      ? m.words.max === null
        ? t(lang, 'measuredError.wordsFrom', { min: m.words.min })
        : t(lang, 'measuredError.words', { min: m.words.min, max: m.words.max })
      : null,
    t(lang, `languages.${textLang}`),
  ].filter(Boolean);
  return { humanFlaggedRate: m.rate, upperBound, ...base, text: t(lang, 'measuredError.rate', { ...params, kind: kind.join(', ') }) };
}

/**
 * Count what is annotated: a finding that counts sentences (its `count` param) counts, and cites,
 * the sentences highlighted with its dimension in this answer; with none highlighted it is not shown.
 */
function countAnnotated(f: Finding, annotations: readonly TextAnnotation[]): Finding[] {
  if (f.params.count === undefined) return [f];
  const starts = new Set(annotations.filter((a) => a.dims.some((d) => d.id === f.id)).map((a) => a.start));
  const sentences = f.sentences.filter((s) => starts.has(s.start));
  if (!sentences.length) return [];
  const cite = strongest(sentences, f.rank ?? ((s) => s.words));
  return [{ ...f, params: { ...f.params, count: sentences.length }, sentences, cite: cite && { start: cite.start, end: cite.end } }];
}

/** The learned model's overall reading, pointing either way, with its most telling sentence. */
function lexicalFinding(r: EngineResult, fingerprintDetected: boolean): Finding {
  const aiSide = r.probability >= EVEN_ODDS;
  const counted = r.sentences.filter((s) => s.words >= 5);
  const pick = strongest(counted.length ? counted : r.sentences, (s) => (aiSide ? s.probability : -s.probability));
  // Named after the dimension only when the dimension is detected; otherwise it is the model's reading, either way.
  return finding(
    fingerprintDetected ? 'lexical_fingerprint' : 'lexical_reading',
    aiSide ? 'ai' : 'human',
    { percent: Math.round(r.probability * 100) },
    1 + Math.abs(r.probability - 0.5) * 2,
    pick ? [pick] : [],
    pick,
    aiSide ? 'lexical_ai' : 'lexical_human',
  );
}

/**
 * In a mixed text the detected fingerprint speaks of the AI passage that made the verdict (its score,
 * its most AI-like sentence), not of the whole text, whose reading may lean human (issue 39: "Detected"
 * above "The word patterns as a whole match human writing (score 10/100)"). The lead bullet already
 * quotes the passage from its start, so this one quotes another of its sentences when there is one.
 */
function passageFinding(r: EngineResult, passage: Segment): Finding {
  const inside = r.sentences.filter((s) => s.start >= passage.start && s.end <= passage.end);
  const long = inside.filter((s) => s.words >= 5);
  const pool = long.length ? long : inside;
  const beyondLead = pool.filter((s) => s.start !== passage.start);
  const pick = strongest(beyondLead.length ? beyondLead : pool, (s) => s.probability);
  return finding(
    'lexical_fingerprint',
    'ai',
    { percent: passage.score },
    1 + Math.abs(passage.score / 100 - 0.5) * 2,
    pick ? [pick] : [],
    pick ?? passage,
    'lexical_passage',
  );
}

/** Facts the lead bullet may quote. */
interface LeadFacts {
  percent: number;
  words: number;
  /** The cell cannot give an AI verdict at this mode although the score leans AI. */
  short: boolean;
  /** Why it is short: another mode could call it, or a limit of the language at this length (Decision.shortBy). */
  shortBy: Decision['shortBy'];
  /** The text's language, named in the label language. */
  language: string;
  obfuscated: boolean;
  /** A long passage read strongly as AI in a text scored human-side: why the verdict is inconclusive. */
  strongAiPassage: { start: number; end: number } | null;
  sentences: ScoredSentence[];
}

/** The finding that supports the verdict: it becomes the first bullet. */
function leadFinding(
  verdict: VerdictKey,
  findings: Finding[],
  lexical: Finding,
  mixed: { share: number; start: number; end: number } | null,
  facts: LeadFacts,
): Finding {
  const leaning = leaningOf(verdict);
  if (verdict === 'mixed' && mixed) {
    return finding('mixed_authorship', 'ai', { percent: aiSharePercent(mixed.share) }, Infinity, [], {
      start: mixed.start,
      end: mixed.end,
    });
  }
  if (leaning === 'neutral') {
    const first = facts.sentences[0] ?? null;
    if (facts.obfuscated)
      return finding(
        'obfuscation',
        'neutral',
        {},
        Infinity,
        [],
        findings.find((f) => f.id === 'obfuscation')?.cite ?? first,
        'obfuscation_unsure',
      );
    if (facts.strongAiPassage) return finding('ai_passage', 'neutral', {}, Infinity, [], facts.strongAiPassage);
    if (facts.short && facts.shortBy && !facts.shortBy.otherMode) {
      // No sensitivity calls a text of this language and length: say so, rather than blame the mode.
      const { from } = facts.shortBy;
      const params = { words: facts.words, language: facts.language, ...(from === null ? {} : { min: from }) };
      return finding('language_limit', 'neutral', params, Infinity, [], first, from === null ? 'language_unsupported' : 'language_limit');
    }
    if (facts.short) return finding('short_text', 'neutral', { words: facts.words }, Infinity, [], first);
    return finding('uncertain_score', 'neutral', { percent: facts.percent }, Infinity, [], lexical.cite);
  }
  // The lexical reading always points the verdict's way (AI verdicts need p >= 0.5, human ones p < 0.5).
  return lexical.leaning === leaning ? lexical : (strongestWith(findings, leaning) ?? lexical);
}

/** The sentence to highlight when an AI-side verdict's triggers highlighted none: the most AI-like one. */
function fallbackHighlight(r: EngineResult, inAiPassage: (s: ScoredSentence) => boolean, fingerprint: DimensionRef) {
  const candidates = r.sentences.filter((s) => inAiPassage(s));
  const long = candidates.filter((s) => s.words >= 5);
  const pick = strongest(long.length ? long : candidates, (s) => s.probability);
  return pick ? { sentence: pick, dims: [fingerprint] } : null;
}

export type { DimensionResult };
