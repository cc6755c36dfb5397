/**
 * `bun run eval --calibration --adapt --shift [--logits FILE] [--records FILE] [--splits N] [--kinds a,b]
 * [--cap N] [--reference-weight W] [--no-reference] [--dev] [--min-texts N] [--out FILE] [--before FILE]` (scripts/lib/eval-shift.ts): profiles scored on
 * writers outside their texts. Featurizes
 * the data and computes the held-out logits as `--adapt` does (`--logits FILE` keeps them between runs),
 * reads every family's records, tokenises one story family's human texts and rescores them (`--records FILE`
 * keeps all of those between runs: the later runs skip the featurizing), builds the
 * reference set of every family's held-out human texts (scripts/lib/reference-set.ts; each run of a case
 * leaves out the families it scores and the profile's own), and prints the tables of docs/calibration.md
 * ("Writers outside your texts"). `--kinds essay,story`: only those kinds' profiles; `--cap N`: most
 * reference texts per population (REFERENCE_CAP by default; the fit's cost grows with them); `--reference-weight W`:
 * what they weigh in the fit (learn/adaptation.ts REFERENCE_WEIGHT by default). `--dev`: the dev split scored
 * by the shipped engine instead of held-out scores (eval-shift-data.ts devRecords: minutes, in-source);
 * `--min-texts N`: the fewest human texts of the kind a family needs to be scored (100 by default). `--no-reference`: profiles made without a reference set (no guard, no
 * reference negatives); `--out FILE` writes the results as JSON, `--before FILE` reads an earlier run's
 * and adds the catch each source gained or lost.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { shuffled } from '../../src/detector/learn/stats';
import { loadEngine, MODEL } from '../../src/detector/score/load';
import { loadRows, splitFiles } from './data';
import { measureEdits } from './edits';
import { heldOutData } from './eval-adapt-records';
import { inputOf } from './eval-adapt';
import { evaluateShift, SHIFT_SPLITS, type ShiftResult } from './eval-shift';
import { shiftCases, TOKENISED_FAMILY } from './eval-shift-cases';
import {
  devRecords,
  readShiftRecords,
  type ShiftRecord,
  shiftRecords,
  tokenised,
  transformedRecords,
  writeShiftRecords,
} from './eval-shift-data';
import { shiftReport } from './eval-shift-report';
import { buildReferenceSet, REFERENCE_CAP } from './reference-set';

const { values: opt } = parseArgs({
  options: {
    logits: { type: 'string' },
    splits: { type: 'string' },
    'no-reference': { type: 'boolean' },
    out: { type: 'string' },
    before: { type: 'string' },
    records: { type: 'string' },
    kinds: { type: 'string' },
    cap: { type: 'string' },
    'reference-weight': { type: 'string' },
    dev: { type: 'boolean' },
    'min-texts': { type: 'string' },
  },
  strict: false,
});
/** The seed of the order each population's reference texts are drawn in (the builder keeps the first of each). */
const REFERENCE_SEED = 4_302;
const splits = typeof opt.splits === 'string' ? Number(opt.splits) : SHIFT_SPLITS;
const t0 = performance.now();
const log = (m: string) => console.error(`[${((performance.now() - t0) / 1000).toFixed(1)}s] ${m}`);

/** The records, from `--records FILE` when it exists, else read here (and written to FILE when given). */
async function shiftData(): Promise<{ records: ShiftRecord[]; tokenisedHuman: ShiftRecord[] }> {
  const file = typeof opt.records === 'string' ? opt.records : null;
  if (file && existsSync(file)) return readShiftRecords(file);
  if (opt.dev) {
    const made = devRecords(await loadEngine(), measureEdits(loadRows(splitFiles('dev'))));
    log(`${made.records.length} dev texts scored by the shipped engine, ${made.tokenisedHuman.length} tokenised`);
    if (file) writeShiftRecords(file, made.records, made.tokenisedHuman);
    return made;
  }
  const data = await heldOutData(typeof opt.logits === 'string' ? opt.logits : null, log);
  const records = shiftRecords(data);
  log(`${records.length} held-out whole texts with their evidence`);
  const t = TOKENISED_FAMILY;
  const tokenisedHuman = transformedRecords(
    data,
    records.filter((r) => r.y === 0 && r.family === t.family && r.kind === t.kind && r.lang === (t.lang === 'en' ? 0 : 1)),
    tokenised,
  );
  log(`${tokenisedHuman.length} ${t.family} ${t.kind} human texts tokenised and rescored`);
  if (file) writeShiftRecords(file, records, tokenisedHuman);
  return { records, tokenisedHuman };
}

const { records, tokenisedHuman } = await shiftData();
const reference = opt['no-reference']
  ? null
  : buildReferenceSet(
      shuffled(
        records.filter((r) => r.y === 0),
        REFERENCE_SEED,
      ).map((r) => ({ ...inputOf(MODEL, r), family: r.family })),
      { modelVersion: 'eval', cap: typeof opt.cap === 'string' ? Number(opt.cap) : REFERENCE_CAP },
    );
if (reference)
  log(
    `reference set: ${Object.entries(reference.languages)
      .map(([l, x]) => `${l} ${x!.texts.length} texts of ${x!.populations.length} populations`)
      .join(', ')}`,
  );
const kinds = typeof opt.kinds === 'string' ? new Set(opt.kinds.split(',')) : null;
const cases = shiftCases(records, tokenisedHuman, typeof opt['min-texts'] === 'string' ? Number(opt['min-texts']) : undefined).filter(
  (c) => !kinds || kinds.has(c.kind),
);
log(`${cases.length} profiles, ${cases.reduce((n, c) => n + c.targets.length, 0)} scored populations`);
const weight = typeof opt['reference-weight'] === 'string' ? Number(opt['reference-weight']) : undefined;
const results = evaluateShift(cases, records, MODEL, reference, splits, (name) => log(`evaluated ${name}`), weight);
if (typeof opt.out === 'string') writeFileSync(opt.out, JSON.stringify(results));
const before = typeof opt.before === 'string' ? (JSON.parse(readFileSync(opt.before, 'utf8')) as ShiftResult[]) : undefined;
console.log(shiftReport(results, splits, before));
log('done');
