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
import { MODEL_LANGS, type ModelLang, SENSITIVITIES } from '../../contract';
import { DOC_TYPES } from '../score/doctype';
import { ADAPTATION_STYLE, type AdaptationEvidence } from './adaptation';
import { ByteReader, ByteWriter } from './reference-bytes';
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

/**
 * The file: MAGIC, the header's length (u32 LE), the header (JSON: format, modelVersion, the tables the
 * body indexes into, per language its populations and counts), then per language (header order) per
 * text: population (varint), docType (u8, into the header's docTypes), words (varint), mixed (u8, one
 * bit per header mode), logit, probability and the style measures (float64 LE, NaN for a measure a
 * text has none of, never an infinity: the exact numbers profileSample gave, so a guard or a fit reads
 * a reference text as it would have read it live; they are ~200 bytes of a text's ~2 KB, the n-grams
 * are the rest), then the n-gram indexes ascending (./reference-bytes.ts ByteWriter.ascending: their
 * count, then Rice codes of the first and of each gap from the previous).
 */
const MAGIC = [0x41, 0x44, 0x52, 0x46]; // "ADRF"

/** The header: what the body's indexes mean, so a file never depends on the order of a list in the code. */
interface ReferenceHeader {
  format: number;
  modelVersion: string;
  commercialOnly?: boolean;
  docTypes: string[];
  modes: string[];
  style: string[];
  languages: { lang: ModelLang; populations: ReferencePopulation[]; texts: number; grams: number }[];
}

/** The set as bytes (model/reference.bin): deterministic, the same set gives the same bytes. Throws on a set it cannot write exactly. */
export function encodeReference(set: ReferenceSet): Uint8Array {
  const langs = MODEL_LANGS.filter((lang) => set.languages[lang]);
  const header: ReferenceHeader = {
    format: set.format,
    modelVersion: set.modelVersion,
    ...(set.commercialOnly ? { commercialOnly: true } : {}),
    docTypes: [...DOC_TYPES],
    modes: [...SENSITIVITIES],
    style: [...ADAPTATION_STYLE],
    languages: langs.map((lang) => {
      const l = set.languages[lang]!;
      const grams = l.texts.reduce((n, t) => n + t.evidence.grams.length, 0);
      return { lang, populations: l.populations.map(({ id, label }) => ({ id, label })), texts: l.texts.length, grams };
    }),
  };
  const w = new ByteWriter();
  for (const b of MAGIC) w.u8(b);
  const json = new TextEncoder().encode(JSON.stringify(header));
  w.u32(json.length);
  w.bytes(json);
  for (const lang of langs) {
    const l = set.languages[lang]!;
    for (const t of l.texts) {
      const docType = DOC_TYPES.indexOf(t.docType);
      if (t.population >= l.populations.length || docType < 0 || t.evidence.style.length !== ADAPTATION_STYLE.length) {
        throw new Error(`reference set: a ${lang} text has a population, document type or style it cannot write`);
      }
      w.varint(t.population);
      w.u8(docType);
      w.varint(t.words);
      w.u8(SENSITIVITIES.reduce((bits, mode, i) => (t.mixed?.includes(mode) ? bits | (1 << i) : bits), 0));
      w.f64(t.logit);
      w.f64(t.probability);
      // A style measure a text has none of is NaN (one paragraph has no paragraph spread): the fit leaves it out.
      for (const x of t.evidence.style) w.f64(x, true);
      w.ascending(t.evidence.grams);
    }
  }
  return w.done();
}

/** Texts decoded between two yields of decodeReferenceSteps: ~1 ms of work. */
const DECODE_STEP_TEXTS = 32;

/** Reads model/reference.bin's bytes; checks everything it reads and throws an Error on anything else (never a partial set). */
export function decodeReference(bytes: Uint8Array): ReferenceSet {
  const steps = decodeReferenceSteps(bytes);
  for (;;) {
    const step = steps.next();
    if (step.done) return step.value;
  }
}

/**
 * decodeReference in steps: yields every DECODE_STEP_TEXTS texts, so a server can decode the set
 * (~100-250 ms of CPU) between other requests; returns the set.
 */
export function* decodeReferenceSteps(bytes: Uint8Array): Generator<void, ReferenceSet> {
  const r = new ByteReader(bytes);
  if (!MAGIC.every((b) => r.u8() === b)) throw new Error('reference file: not a reference file (bad magic)');
  const header = parseHeader(r.utf8(r.u32()));
  const languages: ReferenceSet['languages'] = {};
  for (const h of header.languages) {
    // Every text takes at least a byte and every n-gram at least a bit: counts past what is left are refused before allocating.
    if (h.grams > 8 * r.left() || h.texts > r.left()) throw new Error('reference file: truncated');
    const gramStore = new Uint32Array(h.grams);
    const styleStore = new Float64Array(h.texts * header.style.length);
    const texts: ReferenceText[] = [];
    let at = 0;
    for (let i = 0; i < h.texts; i++) {
      if (i % DECODE_STEP_TEXTS === DECODE_STEP_TEXTS - 1) yield;
      const population = r.varint();
      const docType = header.docTypes[r.u8()];
      const words = r.varint();
      const mixedBits = r.u8();
      if (population >= h.populations.length) throw new Error(`reference file: population ${population} out of range`);
      if (docType === undefined) throw new Error('reference file: document type out of range');
      if (mixedBits >= 1 << header.modes.length) throw new Error('reference file: mixed modes out of range');
      const logit = r.finite();
      const probability = r.finite();
      if (probability < 0 || probability > 1) throw new Error('reference file: probability out of range');
      const style = styleStore.subarray(i * header.style.length, (i + 1) * header.style.length);
      for (let k = 0; k < style.length; k++) style[k] = r.finite(true);
      const count = r.varint();
      if (at + count > h.grams) throw new Error('reference file: more n-grams than the header counts');
      const grams = gramStore.subarray(at, at + count);
      r.ascendingInto(grams);
      at += count;
      const mixed = header.modes.filter((_, k) => mixedBits & (1 << k)) as ReferenceText['mixed'];
      texts.push({
        logit,
        probability,
        words,
        docType: docType as ReferenceText['docType'],
        ...(mixed!.length ? { mixed } : {}),
        population,
        evidence: { grams, style },
      });
    }
    if (at !== h.grams) throw new Error('reference file: fewer n-grams than the header counts');
    languages[h.lang] = { populations: h.populations, texts };
  }
  if (r.left() !== 0) throw new Error('reference file: bytes after the last text');
  return {
    format: header.format,
    modelVersion: header.modelVersion,
    ...(header.commercialOnly ? { commercialOnly: true } : {}),
    languages,
  };
}

const isCount = (x: unknown): x is number => Number.isSafeInteger(x) && (x as number) >= 0;
const isStrings = (x: unknown): x is string[] => Array.isArray(x) && x.every((s) => typeof s === 'string');

/** The header, checked against what this code can read: the format, its tables and every language's populations. */
function parseHeader(text: string): ReferenceHeader {
  let h: ReferenceHeader;
  try {
    h = JSON.parse(text);
  } catch {
    throw new Error('reference file: unreadable header');
  }
  const bad = (what: string) => new Error(`reference file: ${what}`);
  if (typeof h !== 'object' || h === null) throw bad('unreadable header');
  if (h.format !== REFERENCE_FORMAT) throw bad(`format ${String(h.format)}, this code reads ${REFERENCE_FORMAT}`);
  if (typeof h.modelVersion !== 'string' || !h.modelVersion) throw bad('no model version');
  if (h.commercialOnly !== undefined && typeof h.commercialOnly !== 'boolean') throw bad('commercialOnly is not a boolean');
  if (!isStrings(h.docTypes) || !h.docTypes.every((d) => (DOC_TYPES as readonly string[]).includes(d))) throw bad('unknown document types');
  if (!isStrings(h.modes) || !h.modes.every((m) => (SENSITIVITIES as readonly string[]).includes(m))) throw bad('unknown modes');
  if (!isStrings(h.style) || h.style.join() !== ADAPTATION_STYLE.join()) throw bad('style measures other than this code reads');
  if (!Array.isArray(h.languages)) throw bad('no languages');
  const seen = new Set<string>();
  for (const l of h.languages) {
    if (!(MODEL_LANGS as readonly string[]).includes(l?.lang) || seen.has(l.lang)) throw bad('unknown or repeated language');
    seen.add(l.lang);
    if (!isCount(l.texts) || !isCount(l.grams) || !Array.isArray(l.populations)) throw bad(`${l.lang}: bad counts`);
    const ids = new Set<string>();
    for (const p of l.populations) {
      if (typeof p?.id !== 'string' || typeof p.label !== 'string' || !p.id.startsWith(`${l.lang}:`) || ids.has(p.id)) {
        throw bad(`${l.lang}: bad population`);
      }
      ids.add(p.id);
    }
    l.populations = l.populations.map(({ id, label }) => ({ id, label }));
  }
  return h;
}
