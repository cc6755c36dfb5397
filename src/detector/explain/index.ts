/**
 * Explanations for an engine result: verdict, document type, dimensions, sentence annotations,
 * segments and bullets, in the caller's label language. Pure: no wasm, no I/O. The rules that make
 * them trustworthy (test/explain/invariants.test.ts checks them on every dev text): no highlight
 * cites a dimension that was not detected; an AI-side verdict highlights at least one sentence and
 * its first bullet leans AI; a human-side verdict highlights nothing; a bullet's count is what it
 * counted and its example one of those sentences.
 */
import type { EngineResult, ScoredSentence } from '../score/engine';
import { isAiVerdict, isHumanVerdict, type LabelLang, modelLang, type Sensitivity, type VerdictKey } from '../../contract';
import type { ModelFile } from '../score/model';
import { cellOf, decideVerdict, EVEN_ODDS } from '../decide/verdict';
import type { Analysis, DimensionRef, DimensionResult } from '../types';
import { detectDocType, type DocTypeModel } from '../score/doctype';
import { MIN_STYLE_WORDS } from './dimensions';
import { t } from '../../i18n';
import { buildAnnotations } from './annotations';
import { leaningOf, renderBullets, strongestWith } from './bullets';
import { dimensionFindings } from './dimension-findings';
import { finding, humanFindings, strongest, type Finding } from './findings';
import { mixedPassage } from '../decide/mixed';

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
>;

/** Explain an engine result for a text at a sensitivity, with labels in `lang`. */
export function explain(
  model: ModelFile,
  docTypes: DocTypeModel | null,
  text: string,
  r: EngineResult,
  mode: Sensitivity,
  lang: LabelLang,
): Explanation {
  const ml = modelLang(r.language);
  const cell = cellOf(model, r.language, r.style.words);
  const passage = mixedPassage(model, r, mode);
  let verdictKey: VerdictKey = passage ? 'mixed' : decideVerdict(model, r.probability, r.language, r.style.words, mode);
  const dims = dimensionFindings(model, text, r, mode, passage !== null, lang);
  const obfuscated = dims.dimensions.some((d) => d.id === 'obfuscation' && d.detected);
  // Changed letters mean the reading cannot be trusted to clear the text: never plainly human.
  if (obfuscated && isHumanVerdict(verdictKey)) verdictKey = 'inconclusive';

  const findings: Finding[] = [...dims.findings, ...humanFindings(r, model.dimensionThresholds[ml].low_burstiness ?? NaN)];
  const lexical = lexicalFinding(r);
  findings.push(lexical);
  const words = r.style.words;
  const lead = leadFinding(verdictKey, findings, lexical, passage ? { share: r.aiShare, start: passage.start, end: passage.end } : null, {
    percent: Math.round(r.probability * 100),
    words,
    short: !cell.conclusive[mode] && r.probability >= EVEN_ODDS,
    obfuscated,
    sentences: r.sentences,
  });
  const filler =
    words < MIN_STYLE_WORDS
      ? finding('short_text', 'neutral', { words }, 0, [], r.sentences[0] ?? null)
      : finding('no_style_signals', 'neutral', {}, 0, [], r.sentences[0] ?? null);
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
  const docType = detectDocType(docTypes, text, r).type;
  return {
    verdictKey,
    verdict: t(lang, `verdicts.${verdictKey}`),
    ai: isAiVerdict(verdictKey),
    docType,
    docTypeLabel: t(lang, `docTypes.${docType}`),
    totalDimensions: dims.dimensions.length,
    activeDimensions: dims.dimensions.filter((d) => d.detected).length,
    dimensions: dims.dimensions,
    textAnnotations: annotations,
    bullets: renderBullets(text, lead, findings, filler, lang),
    segments: r.segments.map(({ start, end, label, score }) => ({ start, end, label, score })),
    aiShare: Math.round(r.aiShare * 1000) / 1000,
  };
}

/** The learned model's overall reading, pointing either way, with its most telling sentence. */
function lexicalFinding(r: EngineResult): Finding {
  const aiSide = r.probability >= EVEN_ODDS;
  const counted = r.sentences.filter((s) => s.words >= 5);
  const pick = strongest(counted.length ? counted : r.sentences, (s) => (aiSide ? s.probability : -s.probability));
  return finding(
    'lexical_fingerprint',
    aiSide ? 'ai' : 'human',
    { percent: Math.round(r.probability * 100) },
    1 + Math.abs(r.probability - 0.5) * 2,
    pick ? [pick] : [],
    pick,
    aiSide ? 'lexical_ai' : 'lexical_human',
  );
}

/** Facts the lead bullet may quote. */
interface LeadFacts {
  percent: number;
  words: number;
  /** The cell cannot give an AI verdict at this mode although the score leans AI. */
  short: boolean;
  obfuscated: boolean;
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
    return finding('mixed_authorship', 'ai', { percent: Math.round(mixed.share * 100) }, Infinity, [], {
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
