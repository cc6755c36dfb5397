/**
 * bun run train: train the detector on ../shared/data (every round's train split) and write model/.
 * Stages: masking vocabulary -> featurize (each text and one 20-70-word excerpt of it) ->
 * held-out lexical scores, one model per left-out source family -> the lexical model on
 * everything -> calibration per (language, length) cell on the held-out scores -> sentence
 * calibration, mixed-authorship decoder, dimension thresholds and the document-type classifier.
 * Deterministic (fixed seed, sorted inputs): the same data gives the same files, byte for byte.
 * Options: --out DIR, --dry (train and report, write nothing), --commercial (leave out the sources
 * whose licence forbids commercial use: data.ts NON_COMMERCIAL_SOURCES), --report (print the
 * held-out tables of `bun run eval --loso` for this model: the same held-out scores and rule),
 * --dump FILE (write every held-out score with its text's facts as JSON lines, for trying threshold rules).
 */
import { createHash } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { parseArgs } from 'node:util';
import { decodeWeights, encodeWeights, weightLut } from '../src/detector/score/model';
import { detectDocType, serializeDocTypeModel } from '../src/detector/score/doctype';
import { losoReport, nestedFlags } from './lib/eval-loso';
import { boundReport, checkBounds, measuredErrors } from './lib/measured-error';
import { hasData, dataDir, registerOf, UNTRAINED_FAMILIES } from './lib/data';
import { sparseLogit, trainSparse } from '../src/detector/learn/lr';
import { lexicalTrainable, prepare, trainable } from './lib/pipeline';
import { heldOutLogits } from './lib/loso';
import { startHeldOutHelper } from './lib/loso-helper';
import { calibrateCells, heldOutScore } from './lib/calibrate';
import { setTrainingWeights } from './lib/weights';
import { fitSentenceCalibration } from './lib/sentences';
import { fitDimensionThresholds } from './lib/dimension-thresholds';
import { trainDocTypeClassifier } from './lib/doctype-train';
import { fitSegmentParams } from './lib/segments-fit';
import { SEED, SPARSE_OPTIONS } from './lib/settings';

const { values: opt } = parseArgs({
  options: {
    out: { type: 'string', default: join(import.meta.dir, '..', 'model') },
    dry: { type: 'boolean', default: false },
    commercial: { type: 'boolean', default: false },
    report: { type: 'boolean', default: false },
    dump: { type: 'string' },
  },
});

if (!hasData()) {
  console.error(`train: no shared data at ${dataDir()} (set DATA_DIR)`);
  process.exit(2);
}
const t0 = performance.now();
const log = (m: string) => console.log(`[${((performance.now() - t0) / 1000).toFixed(1)}s] ${m}`);
const data = { commercialOnly: opt.commercial };
// A second thread featurizes the same data meanwhile and takes half of the held-out fits.
const helper = startHeldOutHelper(data);
const { trainFiles, rows, model, engine, docs } = await prepare(data);
log(`featurized ${docs.length} texts and excerpts of ${rows.length} rows (vocab en ${model.vocab.en.length}, es ${model.vocab.es.length})`);

const heldOut = await heldOutLogits(docs, {
  sparse: SPARSE_OPTIONS,
  helper,
  onFamily: (family, done, total) => log(`held out ${family} (${done}/${total})`),
});

const trainDocs = docs.filter(lexicalTrainable);
setTrainingWeights(trainDocs);
const lexical = trainSparse(trainDocs, SPARSE_OPTIONS);
log('lexical model trained on every training text');
model.lexicalBias = { en: lexical.bias[0], es: lexical.bias[1] };
const encoded = encodeWeights(lexical.w);
model.weightScale = encoded.scale;
// From here on the engine scores with the int8 weights it will ship with.
engine.core.setWeights(encoded.bytes, weightLut(model.weightScale));

// Calibration reads the families the model learns from; a family it never trains on (data.ts) is
// reported by `bun run eval --loso` but sets no threshold.
const heldOutScores = docs.flatMap((d, i) =>
  Number.isFinite(heldOut[i]) && !UNTRAINED_FAMILIES.has(d.family) ? [heldOutScore(d, heldOut[i])] : [],
);
// The dev split (texts and excerpts) as the shipped int8 model scores it.
const shipped = decodeWeights(encoded.bytes, model);
const devScores = docs
  .filter((d) => d.row.split === 'dev')
  .map((d) => heldOutScore(d, sparseLogit(shipped, model.lexicalBias[d.lang ? 'es' : 'en'], d.feats)));
Object.assign(model, calibrateCells(heldOutScores, devScores));
log('thresholds per language and calibration per (language, length) cell from held-out scores');

const devRows = rows.filter((r) => r.split === 'dev');
Object.assign(model, fitSentenceCalibration(engine, model, devRows));
model.dimensionThresholds = fitDimensionThresholds(docs.filter((d) => trainable(d) && !d.excerpt));
model.segments = fitSegmentParams(engine, devRows);
log('sentence calibration, dimension thresholds and the mixed-authorship decoder fitted');
const docTypes = trainDocTypeClassifier(docs.filter(trainable), SEED);
log(`document-type classifier over ${docTypes.types.join(', ')}`);

// Each held-out score flagged by thresholds its family did not set: the measured error each verdict carries, --report and --dump.
const flagged = nestedFlags(docs, heldOut, model);
// The document type the API will report for a text: the shipped classifier's answer.
const docTypeOf = (row: { text: string; lang: 'en' | 'es' }) => detectDocType(docTypes, row.text, engine.analyze(row.text, row.lang)).type;
const humanOutcomes = flagged
  .filter((s) => s.y === 0 && !s.excerpt && !UNTRAINED_FAMILIES.has(s.family))
  .map((s) => ({ family: s.family, lang: s.lang, docType: docTypeOf(s.doc!.row), words: s.words, flagged: s.flagged }));
model.heldOutErrors = measuredErrors(humanOutcomes);
log('measured error per language, document type and length');
if (opt.report) console.log(`${losoReport(flagged).markdown}\n\n${boundReport(checkBounds(humanOutcomes))}`);
if (opt.dump) {
  const lines = flagged.map(({ doc, ...s }) => {
    const row = doc!.row;
    return JSON.stringify({ ...s, docType: s.excerpt ? null : docTypeOf(row), register: registerOf(row) });
  });
  writeFileSync(opt.dump, `${lines.join('\n')}\n`);
  log(`wrote ${lines.length} held-out scores to ${opt.dump}`);
}

if (!opt.dry) {
  const bytes = encoded.bytes;
  model.weightsSha256 = createHash('sha256').update(bytes).digest('hex');
  model.trainedWith = {
    command: opt.commercial ? 'bun run train --commercial' : 'bun run train',
    seed: SEED,
    trainFiles: trainFiles.map((f) => basename(f)),
    commercialOnly: opt.commercial,
  };
  mkdirSync(opt.out!, { recursive: true });
  writeFileSync(join(opt.out!, 'weights.bin'), bytes);
  writeFileSync(join(opt.out!, 'model.json'), `${JSON.stringify(model, null, 1)}\n`);
  writeFileSync(join(opt.out!, 'doctype.bin'), serializeDocTypeModel(docTypes));
  log(`wrote ${opt.out}/model.json, weights.bin (${(bytes.length / 1e6).toFixed(1)} MB) and doctype.bin`);
}
