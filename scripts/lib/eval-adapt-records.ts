/**
 * The records `eval --calibration --adapt` reads (scripts/lib/eval-adapt.ts): every held-out whole text of
 * the families with both labels, with its held-out logit, the shipped classifier's document type and the
 * evidence a detection's adaptation reads (the shipped engine's n-grams and style measures of the text).
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { evidenceOf } from '../../src/detector/decide/adaptation';
import { detectDocType } from '../../src/detector/score/doctype';
import { loadEngine } from '../../src/detector/score/load';
import { heldOutScore } from './calibrate';
import { hasData, dataDir } from './data';
import type { AdaptRecord } from './eval-adapt';
import { heldOutLogits } from './loso';
import { startHeldOutHelper } from './loso-helper';
import { prepare } from './pipeline';
import { SPARSE_OPTIONS } from './settings';
import { isLightEdit } from './weights';

/** Held-out records of the families that have both labels in a language. */
export async function adaptRecords(logitsFile: string | null, log: (m: string) => void): Promise<AdaptRecord[]> {
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
  const engine = await loadEngine();
  const labels = new Map<string, Set<number>>();
  prepared.docs.forEach((d) => {
    const key = `${d.family}\t${d.lang}`;
    (labels.get(key) ?? labels.set(key, new Set()).get(key)!).add(d.y);
  });
  const out: AdaptRecord[] = [];
  prepared.docs.forEach((d, i) => {
    if (d.excerpt || isLightEdit(d) || !Number.isFinite(z[i]) || labels.get(`${d.family}\t${d.lang}`)!.size < 2) return;
    // The evidence a detection would read: the shipped engine's n-grams and style of the text as submitted.
    const r = engine.analyze(d.row.text, d.row.lang, true);
    out.push({
      ...heldOutScore(d, z[i]),
      docType: detectDocType(engine.docTypes, d.row.text, r).type,
      group: d.row.group ?? `${d.row.source}:${i}`,
      generator: d.row.model,
      evidence: evidenceOf(r)!,
    });
  });
  return out;
}
