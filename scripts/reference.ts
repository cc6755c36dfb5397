/**
 * bun run reference: build model/reference.bin, the reference human writers shipped with the model
 * (src/detector/decide/reference.ts; issue 43 item 1). Per population (one source family of the
 * shared data in one language, scripts/lib/populations.ts), a seeded sample of whole human texts of
 * the DEV split, scored by the shipped detector (detector.profileSample: logit, probability, words,
 * document type, mixed modes and the evidence an adaptation reads); the file keeps that, never a text.
 *
 * Why the dev split: the lexical model is trained on the train split only (scripts/lib/pipeline.ts
 * `lexicalTrainable` = `trainable` = `row.split === 'train'`, and train.ts fits `trainSparse` on those
 * docs), so no dev text's n-grams set a weight. The dev split is not unseen by everything, though:
 * train.ts calibrates the probability cells on dev scores (`devScores` beside the held-out ones), fits
 * the sentence calibration and the mixed-authorship decoder on dev rows (`devRows`); the document-type
 * classifier and dimension thresholds are fitted on the train split only. So the reference texts'
 * logits are the model's scores of texts it never learned from, on a calibration they helped to set.
 *
 * Deterministic: sorted files, one seed (settings.ts SEED), the committed model: the same data and
 * model give the same bytes (test/engine/reference.test.ts rebuilds it and compares).
 * Options: --out FILE (default model/reference.bin), --commercial (leave out the sources whose licence
 * forbids commercial use, data.ts NON_COMMERCIAL_SOURCES; the default follows how the committed model
 * was trained, model.json `trainedWith.commercialOnly`).
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { countWords, type ModelLang, SENSITIVITIES } from '../src/contract';
import { createDetector, MIN_PROFILE_WORDS } from '../src/detector';
import { ruleTexts } from '../src/detector/decide/profile';
import { encodeReference, type ReferenceText } from '../src/detector/decide/reference';
import { flags } from '../src/detector/decide/threshold-rule';
import { shuffled } from '../src/detector/learn/stats';
import { MODEL } from '../src/detector/score/load';
import { modelVersion } from '../src/model-version';
import { dataDir, familyOf, hasData, loadRows, type Row, splitFiles } from './lib/data';
import { NOT_A_POPULATION, populationId } from './lib/populations';
import { buildReferenceSet, REFERENCE_CAP, type ReferenceRecord } from './lib/reference-set';
import { SEED } from './lib/settings';

const { values: opt } = parseArgs({
  options: {
    out: { type: 'string', default: join(import.meta.dir, '..', 'model', 'reference.bin') },
    commercial: { type: 'boolean', default: false },
  },
});

if (!hasData()) {
  console.error(`reference: no shared data at ${dataDir()} (set DATA_DIR)`);
  process.exit(2);
}
const t0 = performance.now();
const commercialOnly = opt.commercial || MODEL.trainedWith?.commercialOnly === true;

// Whole human rows (no `mix` rows: those are partly machine-written) long enough to be scored.
const byPopulation = new Map<string, Row[]>();
for (const row of loadRows(splitFiles('dev', { commercialOnly }))) {
  const family = familyOf(row);
  if (row.label !== 'human' || row.mix || NOT_A_POPULATION.has(family) || countWords(row.text) < MIN_PROFILE_WORDS) continue;
  const id = populationId(row.lang, family);
  const rows = byPopulation.get(id) ?? [];
  rows.push(row);
  byPopulation.set(id, rows);
}

const detector = await createDetector();
const records: ReferenceRecord[] = [];
let otherLanguage = 0;
for (const id of [...byPopulation.keys()].sort()) {
  let kept = 0;
  // A seeded order of the population's rows, scored until REFERENCE_CAP are kept.
  for (const row of shuffled(byPopulation.get(id)!, SEED)) {
    if (kept === REFERENCE_CAP) break;
    const sample = detector.profileSample(row.text);
    // A text the detector reads as the other language would sit in the wrong language's population.
    if (!sample || sample.lang !== row.lang) {
      otherLanguage += sample ? 1 : 0;
      continue;
    }
    records.push({ ...sample, family: familyOf(row) });
    kept++;
  }
}

const set = buildReferenceSet(records, { modelVersion: modelVersion(), commercialOnly });
const bytes = encodeReference(set);
writeFileSync(opt.out!, bytes);
const seconds = ((performance.now() - t0) / 1000).toFixed(1);

/** Percent of `texts` the model alone flags at each mode (its global bars, as a detection without a profile decides). */
function modelAloneFlags(texts: ReferenceText[], lang: ModelLang): string {
  const outside = { coverage: { docTypes: [], words: { min: 0, max: null } } };
  return SENSITIVITIES.map((mode) => {
    const bar = detector.facts.globalLogitAt!(lang, mode);
    const n = ruleTexts(texts, lang, mode, detector.facts, outside).filter((t) => flags(t, bar)).length;
    return ((100 * n) / texts.length).toFixed(1);
  }).join(' / ');
}

console.log('population | texts | median words | model alone flags (cons / bal / aggr %) | label');
for (const [lang, l] of Object.entries(set.languages) as [ModelLang, NonNullable<(typeof set.languages)['en']>][]) {
  l.populations.forEach((p, i) => {
    const texts = l.texts.filter((t) => t.population === i);
    const words = texts.map((t) => t.words).sort((a, b) => a - b);
    console.log(`${p.id} | ${texts.length} | ${words[words.length >> 1]} | ${modelAloneFlags(texts, lang)} | ${p.label}`);
  });
  console.log(
    `${lang}: ${l.texts.length} texts in ${l.populations.length} populations, model alone flags ${modelAloneFlags(l.texts, lang)}`,
  );
}
console.log(
  `\nwrote ${opt.out} (${(bytes.length / 1e6).toFixed(2)} MB, model ${set.modelVersion}${commercialOnly ? ', commercial sources only' : ''}) in ${seconds} s; ${otherLanguage} texts read as the other language left out`,
);
