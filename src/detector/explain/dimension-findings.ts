/**
 * The dimensions of one text: which are detected, which sentences trigger each (only detected
 * ones), and the AI-side finding of each detected dimension with its counted sentences and its
 * strongest example.
 */
import type { EngineResult, ScoredSentence } from '../score/engine';
import { type LabelLang, modelLang } from '../../contract';
import { COUNT } from '../score/counts';
import type { ModelFile } from '../score/model';
import type { DimensionRef, DimensionResult } from '../types';
import type { Decision } from '../decide';
import { t } from '../../i18n';
import { DIMENSIONS, MIN_STYLE_WORDS, MIN_TRIGGER_WORDS, beyond, documentFacts, type Dimension, type DimensionContext } from './dimensions';
import { finding, strongest, type Finding } from './findings';

/** Rule-based dimensions (obfuscation) have no threshold: their finding ranks near the top. */
const RULE_FINDING_STRENGTH = 2.5;

/** How far a measure lies beyond its threshold, as a bullet's rank (0.5 to 3). */
function findingStrength(value: number, threshold: number): number {
  if (!Number.isFinite(threshold)) return RULE_FINDING_STRENGTH;
  return Math.min(3, 0.5 + Math.abs(value - threshold) / (Math.abs(threshold) + 1e-3));
}

/** How strongly a sentence shows a dimension (its example is the strongest counted sentence). */
function sentenceRank(d: Dimension, s: ScoredSentence, ctx: DimensionContext): number {
  switch (d.id) {
    case 'lexical_fingerprint':
      return s.probability;
    case 'low_burstiness':
      return -Math.abs(s.words - ctx.medianWords);
    case 'predictable_vocabulary':
      return COUNT.commonWords(s) / Math.max(1, s.words);
    case 'stock_phrases':
      return COUNT.stockPhrases(s);
    case 'repetitive_openings':
      return ctx.openings.get(s.firstTwo) ?? 0;
    case 'hedged_framing':
      return COUNT.hedges(s);
    default:
      return s.words;
  }
}

/** The paragraph whose length is nearest the median: what "paragraphs of a similar length" points at. */
function typicalParagraph(r: EngineResult): { start: number; end: number } | null {
  const lens = r.paragraphs.map((p) => p.words).sort((a, b) => a - b);
  const median = lens[lens.length >> 1] ?? 0;
  let best: (typeof r.paragraphs)[number] | null = null;
  for (const p of r.paragraphs) if (!best || Math.abs(p.words - median) < Math.abs(best.words - median)) best = p;
  return best;
}

/** Dimensions, sentence triggers and AI-side findings of a text at a mode. */
export function dimensionFindings(model: ModelFile, text: string, r: EngineResult, decision: Decision, lang: LabelLang) {
  const ml = modelLang(r.language);
  const { mode, aiThreshold: docThreshold } = decision;
  const mixed = decision.mixedPassage !== null;
  const aiPassages = r.segments.filter((s) => s.label === 'ai');
  // In a mixed text only sentences of its AI passages are highlighted.
  const inAiPassage = (s: ScoredSentence) => !mixed || aiPassages.some((p) => s.start >= p.start && s.end <= p.end);
  const base = {
    result: r,
    text,
    mode,
    sentenceThreshold: model.sentenceThresholds[ml][mode],
    docThreshold,
    mixed,
    inAiPassage,
    ...documentFacts(r),
  };
  const label = (id: string): DimensionRef => ({ id, label: t(lang, `dimensions.${id}`) });
  const dimensions: DimensionResult[] = [];
  const triggered: DimensionRef[][] = r.sentences.map(() => []);
  const findings: Finding[] = [];
  for (const d of DIMENSIONS) {
    const threshold = model.dimensionThresholds[ml][d.id] ?? NaN;
    // A trained dimension without a threshold is switched off in this language: never detected.
    const off = !d.detect && !Number.isFinite(threshold);
    const ctx: DimensionContext = { ...base, threshold };
    const value = d.measure(r);
    const measurable = d.detect !== undefined || r.style.words >= MIN_STYLE_WORDS;
    const detected = !off && measurable && (d.detect ? d.detect(value, ctx) : beyond(d, value, threshold));
    const ref = label(d.id);
    dimensions.push({ ...ref, detected, enabled: !off });
    if (!detected) continue;
    const counted: ScoredSentence[] = [];
    r.sentences.forEach((s, i) => {
      if (!d.triggers(s, ctx, detected)) return;
      counted.push(s);
      // Very short sentences count as evidence but are not annotated on their own.
      if (s.words >= MIN_TRIGGER_WORDS || d.id === 'obfuscation') triggered[i].push(ref);
    });
    if (d.id === 'lexical_fingerprint') continue; // its bullet is the lexical reading (index.ts)
    const cite = d.id === 'uniform_paragraphs' ? typicalParagraph(r) : strongest(counted, (s) => sentenceRank(d, s, ctx));
    const f = finding(d.id, 'ai', { count: counted.length }, findingStrength(value, threshold), counted, cite ?? r.sentences[0] ?? null);
    findings.push({ ...f, rank: (s) => sentenceRank(d, s, ctx) });
  }
  const fingerprint = label('lexical_fingerprint');
  return { dimensions, triggered, findings, inAiPassage, fingerprint };
}
