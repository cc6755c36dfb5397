/**
 * Explanations for an engine result: verdict, document type, dimensions, sentence annotations and
 * bullets, in the caller's label language. Pure: no wasm, no I/O.
 */
import type { EngineResult, ScoredSentence } from '../engine/engine';
import { modelLang } from '../engine/engine';
import type { ModelFile } from '../engine/model';
import { decideVerdict, isAiVerdict, MIXED_SHARE, HUMAN_SHARE } from '../engine/verdict';
import type { Analysis, DimensionRef, DimensionResult, LabelLang, Sensitivity } from '../engine/types';
import { t } from '../i18n';
import { DIMENSIONS, TOTAL_DIMENSIONS, beyond, documentFacts, MIN_STYLE_WORDS, MIN_TRIGGER_WORDS, type DimensionContext } from './dimensions';
import { buildAnnotations } from './annotations';
import { humanFindings, renderBullets, type Finding } from './bullets';
import { detectDocType, type DocTypeModel } from './doctype';

export { DIMENSIONS, TOTAL_DIMENSIONS } from './dimensions';
export { DOC_TYPES } from './doctype';

/** The part of an Analysis the explanations produce. */
export type Explanation = Pick<
  Analysis,
  | 'verdictKey' | 'verdict' | 'ai' | 'docType' | 'docTypeLabel' | 'totalDimensions' | 'activeDimensions'
  | 'dimensions' | 'textAnnotations' | 'bullets'
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
  const verdictKey = decideVerdict(model, r.probability, r.language, mode);
  const docThreshold = model.thresholds[ml][mode];
  const base = { result: r, text, mode, sentenceThreshold: model.sentenceThresholds[ml][mode], docThreshold, ...documentFacts(r) };
  const label = (id: string): DimensionRef => ({ id, label: t(lang, `dimensions.${id}`) });
  const dimensions: DimensionResult[] = [];
  const triggered: DimensionRef[][] = r.sentences.map(() => []);
  const findings: Finding[] = [];
  for (const d of DIMENSIONS) {
    const threshold = model.dimensionThresholds[ml][d.id] ?? NaN;
    // A trained dimension without a threshold is switched off in this language: no trigger either.
    const off = !d.detect && !Number.isFinite(threshold);
    const ctx: DimensionContext = { ...base, threshold };
    const value = d.measure(r);
    const measurable = d.detect !== undefined || r.style.words >= MIN_STYLE_WORDS;
    const detected = !off && measurable && (d.detect ? d.detect(value, ctx) : beyond(d, value, threshold));
    const ref = label(d.id);
    dimensions.push({ ...ref, detected });
    if (off) continue;
    let first: ScoredSentence | null = null;
    let firstShort: ScoredSentence | null = null;
    let count = 0;
    r.sentences.forEach((s, i) => {
      if (!d.triggers(s, ctx, detected)) return;
      count++;
      firstShort ??= s;
      // Very short sentences count as evidence but are not annotated on their own.
      if (s.words < MIN_TRIGGER_WORDS && d.id !== 'obfuscation') return;
      triggered[i].push(ref);
      first ??= s;
    });
    if (detected && d.id !== 'lexical_fingerprint') {
      findings.push({ key: d.id, params: { count }, strength: findingStrength(value, threshold), sentence: first ?? firstShort ?? r.sentences[0] ?? null });
    }
  }
  findings.push(lexicalFinding(r, docThreshold));
  findings.push(...humanFindings(r, r.style.sentenceCV, model.dimensionThresholds[ml].low_burstiness ?? NaN));
  const allowAnnotations = r.probability >= docThreshold * HUMAN_SHARE;
  const docType = docTypes ? detectDocType(text, r, r.words, docTypes) : 'other';
  return {
    verdictKey,
    verdict: t(lang, `verdicts.${verdictKey}`),
    ai: isAiVerdict(verdictKey),
    docType,
    docTypeLabel: t(lang, `docTypes.${docType}`),
    totalDimensions: TOTAL_DIMENSIONS,
    activeDimensions: dimensions.filter((d) => d.detected).length,
    dimensions,
    textAnnotations: buildAnnotations(text, r.sentences, triggered, mode, allowAnnotations),
    bullets: renderBullets(text, findings, r, lang),
  };
}

/** Rule-based dimensions (obfuscation) have no threshold: their finding ranks near the top. */
const RULE_FINDING_STRENGTH = 2.5;

/** How far a measure lies beyond its threshold, as a bullet's rank (0.5 to 3). */
function findingStrength(value: number, threshold: number): number {
  if (!Number.isFinite(threshold)) return RULE_FINDING_STRENGTH;
  return Math.min(3, 0.5 + Math.abs(value - threshold) / (Math.abs(threshold) + 1e-3));
}

/** The learned model's overall reading, pointing either way, with its most telling sentence. */
function lexicalFinding(r: EngineResult, docThreshold: number): Finding {
  const aiSide = r.probability >= docThreshold * MIXED_SHARE;
  let pick: ScoredSentence | null = null;
  for (const s of r.sentences) {
    if (s.words < MIN_TRIGGER_WORDS) continue;
    if (!pick || (aiSide ? s.probability > pick.probability : s.probability < pick.probability)) pick = s;
  }
  return {
    key: aiSide ? 'lexical_ai' : 'lexical_human',
    params: { percent: Math.round(r.probability * 100) },
    strength: 1 + Math.abs(r.probability - 0.5) * 2,
    sentence: pick ?? r.sentences[0] ?? null,
  };
}
