/**
 * `bun run eval --calibration [--dump FILE] [--by family|domain]` (see scripts/lib/eval-calibration.ts): prints the
 * calibration-profile tables of docs/calibration.md. FILE is what `bun run train --dry --dump FILE`
 * wrote (every held-out score with its text's facts: one training run, ~10-40 minutes); without it,
 * the held-out scores are computed here the way `eval --loso` does (one model per left-out family).
 *
 * `bun run eval --calibration --adapt [--logits FILE]` (scripts/lib/eval-adapt.ts): site adaptation on the
 * families with both labels. It needs each text's evidence, so it featurizes the data and computes the
 * held-out logits itself (about 5 minutes on 2 cores); `--logits FILE` keeps those logits between runs
 * (written when FILE does not exist, read when it does: they depend only on the data and the settings);
 * `--no-cross` leaves out the cross-generator tables (a third of the time: for trying settings).
 *
 * `bun run eval --calibration --adapt --shift` (scripts/lib/eval-shift-main.ts): profiles scored on writers
 * outside their texts (issue 43).
 */
import { parseArgs } from 'node:util';
import { readFileSync } from 'node:fs';
import { detectDocType } from '../../src/detector/score/doctype';
import { loadEngine, MODEL } from '../../src/detector/score/load';
import { dataDir, hasData, registerOf } from './data';
import { type CalibrationRecord, calibrationReport, evaluateCalibration, SPLITS } from './eval-calibration';
import { heldOutScores } from './eval-loso';
import { startHeldOutHelper } from './loso-helper';
import { prepare } from './pipeline';

const { values: opt } = parseArgs({
  options: {
    calibration: { type: 'boolean' },
    dump: { type: 'string' },
    by: { type: 'string', default: 'family' },
    adapt: { type: 'boolean' },
    logits: { type: 'string' },
    'no-cross': { type: 'boolean' },
    shift: { type: 'boolean' },
  },
  strict: false,
});
const by = opt.by === 'domain' ? 'domain' : 'family';
const t0 = performance.now();
const log = (m: string) => console.error(`[${((performance.now() - t0) / 1000).toFixed(1)}s] ${m}`);

async function records(): Promise<CalibrationRecord[]> {
  if (typeof opt.dump === 'string') {
    return readFileSync(opt.dump, 'utf8')
      .split('\n')
      .filter((l) => l.trim() !== '')
      .map((l) => JSON.parse(l) as CalibrationRecord);
  }
  if (!hasData()) {
    console.error(`eval --calibration: no --dump FILE and no shared data at ${dataDir()} (set DATA_DIR)`);
    process.exit(2);
  }
  const helper = startHeldOutHelper({});
  const prepared = await prepare();
  log(`featurized ${prepared.docs.length} texts and excerpts`);
  const engine = await loadEngine();
  const scores = await heldOutScores(prepared, MODEL, {
    helper,
    onFamily: (family, done, total) => log(`held out ${family} (${done}/${total})`),
  });
  return scores.map(({ doc, ...s }) => ({
    ...s,
    docType: s.excerpt ? null : detectDocType(engine.docTypes, doc!.row.text, engine.analyze(doc!.row.text, doc!.row.lang)).type,
    register: registerOf(doc!.row),
    domain: doc!.row.domain,
  }));
}

if (opt.adapt && opt.shift) {
  await import('./eval-shift-main');
  process.exit(0);
}
if (opt.adapt) {
  const { adaptRecords } = await import('./eval-adapt-records');
  const { adaptReport, evaluateAdaptation, ADAPT_SPLITS } = await import('./eval-adapt');
  const recs = await adaptRecords(typeof opt.logits === 'string' ? opt.logits : null, log);
  log(`${recs.length} held-out whole texts with their evidence`);
  console.log(
    adaptReport(
      evaluateAdaptation(recs, MODEL, ADAPT_SPLITS, (f) => log(`evaluated ${f}`), !opt['no-cross']),
      ADAPT_SPLITS,
    ),
  );
  log('done');
  process.exit(0);
}

const all = await records();
log(`${all.length} held-out scores`);
console.log(calibrationReport(evaluateCalibration(all, MODEL, SPLITS, by), SPLITS, by));
