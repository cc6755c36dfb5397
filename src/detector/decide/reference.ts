/**
 * Reference human writers (issue 43 item 1): per language, the evidence an adaptation reads (n-gram
 * indexes, style measures, the model's logit, document type, words) of a few thousand human texts of
 * many populations of the training data (learners, students, news, reviews, stories, academic, Q&A,
 * social posts), never a text. Shipped beside the model (model/reference.bin, built by
 * `bun run reference`), versioned with it: a reference built for another model version is stale and
 * is not used. Two uses, both pure:
 * - the fit of a profile's adaptation reads them as extra human negatives (learn/adaptation.ts), so it
 *   learns what separates AI text from human writing in general, emphasised toward the site;
 * - the guard (./guard.ts) raises a profile's bar at each mode until no reference population of the
 *   covered document types and lengths is flagged more than the model alone flags it plus a margin.
 *
 * THE SEAM (agreed before the work of issue 43 was split; change it only in one commit that updates
 * every caller):
 * - `ReferenceSet` is the one in-memory format; `encodeReference` / `decodeReference` are the one file
 *   format (model/reference.bin); `decodeReference` checks what it reads (throws on anything else).
 * - A population is one source family of the data (scripts/lib/data.ts familyOf) in one language: its
 *   `id` is stable (`<lang>:<family>`), its `label` is what a person reads ("second-language learner
 *   essays"); the eval holds populations out by id.
 * - Profiles are made with `ModelFacts.reference` (the detector's facts carry the loaded one; the eval its
 *   own, without the families it measures); absent or null: no guard, no reference negatives.
 */
import type { ModelLang } from '../../contract';
import type { AdaptationEvidence } from './adaptation';
import type { ProfileSample } from './threshold-rule';

/** The format a reference file is written in; a reader refuses any other. */
export const REFERENCE_FORMAT = 1;

/** One population of reference writers. */
export interface ReferencePopulation {
  /** `<lang>:<family>`, stable across builds. */
  id: string;
  /** What a person reads ("second-language learner essays", "news articles"), in English. */
  label: string;
}

/** One reference text: its scores and kind as a profile keeps them, the population, and the evidence an adaptation reads. */
export interface ReferenceText extends ProfileSample {
  /** Index into the language's `populations`. */
  population: number;
  evidence: AdaptationEvidence;
}

/** The reference writers of one language. */
export interface ReferenceLanguage {
  populations: ReferencePopulation[];
  texts: ReferenceText[];
}

/** The reference set shipped with a model. */
export interface ReferenceSet {
  format: number;
  /** The model that scored the texts (src/model-version.ts); under another model the set is stale and unused. */
  modelVersion: string;
  /** Built from the sources whose licence allows commercial use only (as `bun run train --commercial`); absent: from every source. */
  commercialOnly?: boolean;
  languages: Partial<Record<ModelLang, ReferenceLanguage>>;
}

/** The set less the populations whose ids are in `ids` (the eval holds out the families it measures). */
export function withoutPopulations(set: ReferenceSet, ids: ReadonlySet<string>): ReferenceSet {
  const languages: ReferenceSet['languages'] = {};
  for (const [lang, l] of Object.entries(set.languages) as [ModelLang, ReferenceLanguage][]) {
    const keep = l.populations.map((p) => !ids.has(p.id));
    const index = new Map<number, number>();
    const populations = l.populations.filter((_, i) => {
      if (keep[i]) index.set(i, index.size);
      return keep[i];
    });
    const texts = l.texts.filter((t) => keep[t.population]).map((t) => ({ ...t, population: index.get(t.population)! }));
    languages[lang] = { populations, texts };
  }
  return { ...set, languages };
}
