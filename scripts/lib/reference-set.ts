/**
 * The pure step of a reference set (src/detector/decide/reference.ts): scored human texts, each with its
 * source family, in; a ReferenceSet out. `bun run reference` (scripts/reference.ts) feeds it a seeded
 * sample of the dev split scored by the shipped detector; the eval (`--shift`) feeds it held-out
 * records less the families it measures. Both get the same populations, caps and labels from here.
 */
import type { ProfileInput } from '../../src/detector';
import type { ReferenceLanguage, ReferenceSet, ReferenceText } from '../../src/detector/decide/reference';
import { REFERENCE_FORMAT } from '../../src/detector/decide/reference';
import type { ModelLang } from '../../src/contract';
import { NOT_A_POPULATION, populationId, populationLabel } from './populations';

/** One scored human text: what detector.profileSample(text) gave (with its evidence), and its source family (data.ts familyOf). */
export interface ReferenceRecord extends ProfileInput {
  family: string;
}

/**
 * Fewest usable texts a population needs to be kept: a rate over fewer says little (one text is 5
 * points), and the detector's profileSample already refuses texts under 20 words.
 */
export const REFERENCE_MIN_TEXTS = 20;

/**
 * Most texts kept per population. 150 measures a population's flagged rate to about +-3 points (95%)
 * at the 4% the guard compares at `balanced`, while the largest families (1,200 dev tweets, 600+
 * learner essays and abstracts) cannot outweigh the small ones (25-130 texts). The file's size is what
 * set it: 29 populations at 200 gave 4,292 texts and 9.3 MB with the n-grams Rice-coded (11.1 MB as
 * varints), over the ~8 MB the single binary was allowed; at 150, 3,434 texts (model/README.md,
 * "Reference writers"). Whole texts are kept: cutting long ones would move them out of their length
 * bucket, the lengths the guard must cover.
 */
export const REFERENCE_CAP = 150;

/** How a set is built besides its records. */
export interface ReferenceBuild {
  /** The version of the model that scored the records (src/model-version.ts). */
  modelVersion: string;
  /** Most texts per population (default REFERENCE_CAP); the first ones of each, in the records' order. */
  cap?: number;
  /** Fewest texts a population needs to be kept (default REFERENCE_MIN_TEXTS). */
  minTexts?: number;
  /** Only sources whose licence allows commercial use (data.ts NON_COMMERCIAL_SOURCES left out). */
  commercialOnly?: boolean;
}

/**
 * Groups records into populations (`<lang>:<family>`, sorted by id; families in NOT_A_POPULATION left
 * out), keeps the first `cap` of each in the records' order and the populations with `minTexts` or more.
 * Each text keeps its sample (logit, probability, words, docType, mixed) and its evidence, with the
 * n-gram indexes sorted ascending (they are a set: the adaptation sums one weight per index, and a
 * sorted list is what the file's delta coding stores, so a decoded set equals the built one).
 */
export function buildReferenceSet(records: Iterable<ReferenceRecord>, o: ReferenceBuild): ReferenceSet {
  const cap = o.cap ?? REFERENCE_CAP;
  const minTexts = o.minTexts ?? REFERENCE_MIN_TEXTS;
  const byPopulation = new Map<string, { lang: ModelLang; records: ReferenceRecord[] }>();
  for (const r of records) {
    if (NOT_A_POPULATION.has(r.family) || !r.evidence) continue;
    const id = populationId(r.lang, r.family);
    const group = byPopulation.get(id) ?? { lang: r.lang, records: [] };
    if (group.records.length < cap) group.records.push(r);
    byPopulation.set(id, group);
  }
  const languages: ReferenceSet['languages'] = {};
  for (const id of [...byPopulation.keys()].sort()) {
    const { lang, records: kept } = byPopulation.get(id)!;
    if (kept.length < minTexts) continue;
    const l: ReferenceLanguage = (languages[lang] ??= { populations: [], texts: [] });
    const population = l.populations.push({ id, label: populationLabel(id) }) - 1;
    for (const r of kept) l.texts.push(referenceText(r, population));
  }
  const set: ReferenceSet = { format: REFERENCE_FORMAT, modelVersion: o.modelVersion, languages };
  if (o.commercialOnly) set.commercialOnly = true;
  return set;
}

function referenceText(r: ReferenceRecord, population: number): ReferenceText {
  const evidence = r.evidence!;
  return {
    logit: r.logit,
    probability: r.probability,
    words: r.words,
    docType: r.docType,
    ...(r.mixed?.length ? { mixed: [...r.mixed] } : {}),
    population,
    evidence: { grams: Uint32Array.from(evidence.grams).sort(), style: Float64Array.from(evidence.style) },
  };
}
