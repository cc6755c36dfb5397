/**
 * The records `eval --calibration --adapt` reads (scripts/lib/eval-adapt.ts): every held-out whole text of
 * the families with both labels, with its held-out logit, the shipped classifier's document type and the
 * evidence a detection's adaptation reads (the shipped engine's n-grams and style measures of the text).
 * `eval --calibration --adapt --shift` (scripts/lib/eval-shift.ts) reads the same records of every family
 * (human-only ones too), and rescores texts it transforms with their family's held-out model.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { evidenceOf } from '../../src/detector/decide/adaptation';
import { detectDocType } from '../../src/detector/score/doctype';
import { textForm } from '../../src/detector/score/form';
import type { Engine } from '../../src/detector/score/engine';
import { loadEngine } from '../../src/detector/score/load';
import { heldOutScore } from './calibrate';
import { hasData, dataDir } from './data';
import type { AdaptRecord } from './eval-adapt';
import type { Doc } from './featurize';
import { heldOutLogits } from './loso';
import { startHeldOutHelper } from './loso-helper';
import { type Prepared, prepare } from './pipeline';
import { SPARSE_OPTIONS } from './settings';
import { isLightEdit } from './weights';

/** The featurized data, each document's held-out logit, and the shipped engine. */
export interface HeldOutData {
  prepared: Prepared;
  z: Float64Array;
  engine: Engine;
}

/** Featurizes the data and computes (or reads from `logitsFile`) every document's held-out logit. */
export async function heldOutData(logitsFile: string | null, log: (m: string) => void): Promise<HeldOutData> {
  if (!hasData()) {
    console.error(`eval --calibration --adapt: no shared data at ${dataDir()} (set DATA_DIR)`);
    process.exit(2);
  }
  const cached = logitsFile !== null && existsSync(logitsFile);
  const helper = cached ? undefined : startHeldOutHelper({});
  const prepared = await prepare();
  log(`featurized ${prepared.docs.length} texts and excerpts`);
  let z: Float64Array;
  if (cached) {
    z = new Float64Array(new Uint8Array(readFileSync(logitsFile)).buffer);
    if (z.length !== prepared.docs.length)
      throw new Error(`${logitsFile} holds ${z.length} logits for ${prepared.docs.length} texts: delete it`);
  } else {
    z = await heldOutLogits(prepared.docs, { sparse: SPARSE_OPTIONS, helper, onFamily: (f, d, t) => log(`held out ${f} (${d}/${t})`) });
    if (logitsFile !== null) writeFileSync(logitsFile, new Uint8Array(z.buffer));
  }
  return { prepared, z, engine: await loadEngine() };
}

/** One document's record: its held-out score, the shipped classifier's type and the evidence a detection would read of the text as submitted. */
export function recordOf(engine: Engine, d: Doc, z: number, i: number): AdaptRecord {
  const r = engine.analyze(d.row.text, d.row.lang, true);
  return {
    ...heldOutScore(d, z),
    docType: detectDocType(engine.docTypes, d.row.text, r).type,
    group: d.row.group ?? `${d.row.source}:${i}`,
    generator: d.row.model,
    evidence: evidenceOf(r)!,
    form: textForm(d.row.text),
  };
}

/** Held-out whole texts (no excerpt, no light edit) that `keep` takes; by default those of the families with both labels in a language. */
export function recordsOf(data: HeldOutData, keep?: (d: Doc) => boolean): AdaptRecord[] {
  const { prepared, z, engine } = data;
  const labels = new Map<string, Set<number>>();
  prepared.docs.forEach((d) => {
    const key = `${d.family}\t${d.lang}`;
    (labels.get(key) ?? labels.set(key, new Set()).get(key)!).add(d.y);
  });
  const take = keep ?? ((d: Doc) => labels.get(`${d.family}\t${d.lang}`)!.size === 2);
  const out: AdaptRecord[] = [];
  prepared.docs.forEach((d, i) => {
    if (d.excerpt || isLightEdit(d) || !Number.isFinite(z[i]) || !take(d)) return;
    out.push(recordOf(engine, d, z[i], i));
  });
  return out;
}

/** Held-out records of the families that have both labels in a language. */
export async function adaptRecords(logitsFile: string | null, log: (m: string) => void): Promise<AdaptRecord[]> {
  return recordsOf(await heldOutData(logitsFile, log));
}
