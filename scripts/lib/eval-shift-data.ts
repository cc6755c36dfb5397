/**
 * The records `bun run eval --calibration --adapt --shift` reads (scripts/lib/eval-shift.ts): held-out whole
 * texts of every family (eval-adapt-records.ts), each with the kind of writing its row is labelled (the
 * data's document type, KIND_OF_DOMAIN for the human-only domains that name one), capped per family and
 * kind; and, for the tokenised-archive case, a family's human texts with their punctuation tokenised
 * (`he' s`, `didn' t`, `word ,`), rescored by the model that never saw the family and re-read by the engine.
 */
import { shuffled } from '../../src/detector/learn/stats';
import { readFileSync, writeFileSync } from 'node:fs';
import { evidenceOf } from '../../src/detector/decide/adaptation';
import { detectDocType } from '../../src/detector/score/doctype';
import type { Engine } from '../../src/detector/score/engine';
import { textForm } from '../../src/detector/score/form';
import { familyOf, type Row } from './data';
import { docTypeOf } from './doctype-map';
import { type HeldOutData, recordOf } from './eval-adapt-records';
import type { AdaptRecord } from './eval-adapt';
import { type Doc, featurize } from './featurize';
import { logitsOf, modelWithout } from './loso';
import { SPARSE_OPTIONS } from './settings';
import { isLightEdit } from './weights';

/** A held-out record with its population and kind of writing. */
export interface ShiftRecord extends AdaptRecord {
  /** `<lang>:<family>`: the reference set's population id (src/detector/decide/reference.ts). */
  population: string;
  /** The kind of writing its row is labelled (null: a domain that names none). */
  kind: string | null;
}

const LANGS = ['en', 'es'] as const;

/**
 * Human-only domains with no document type in doctype-map.ts (their sources mix genres under one label, or
 * the classifier has no such type) that still name the kind an operator's archive would be: Write & Improve's
 * learner texts (mostly essays, some letters and stories) and MICUSP's student papers read as essays,
 * abstracts as academic, encyclopedic articles as reference.
 */
const KIND_OF_DOMAIN: Record<string, string> = {
  learner_essay: 'essay',
  student_paper: 'essay',
  academic_abstract: 'academic',
  encyclopedic: 'reference',
};

/** The kind of writing a row is labelled. */
export const kindOf = (row: Pick<Row, 'domain' | 'variant'>): string | null => docTypeOf(row) ?? KIND_OF_DOMAIN[row.domain] ?? null;

/** Texts kept per (family, language, kind, label): enough for a profile's side and the catch, and a bound on the engine's reading time. */
export const MAX_PER_CELL = 600;
/** The cap's draw: the same texts every run. */
const CAP_SEED = 4_300;

/** A cell's members, at most MAX_PER_CELL of them (a seeded choice, in their order). */
const capped = (members: number[]): number[] =>
  members.length > MAX_PER_CELL
    ? shuffled(members, CAP_SEED)
        .slice(0, MAX_PER_CELL)
        .sort((a, b) => a - b)
    : members;

/** Records of every family: per (family, language, kind, label) at most MAX_PER_CELL whole texts (seeded). */
export function shiftRecords(data: HeldOutData): ShiftRecord[] {
  const { prepared, z, engine } = data;
  const cells = new Map<string, number[]>();
  prepared.docs.forEach((d, i) => {
    if (d.excerpt || isLightEdit(d) || !Number.isFinite(z[i])) return;
    const key = `${d.family}\t${d.lang}\t${kindOf(d.row)}\t${d.y}`;
    (cells.get(key) ?? cells.set(key, []).get(key)!).push(i);
  });
  const out: ShiftRecord[] = [];
  for (const [, members] of [...cells].sort(([a], [b]) => a.localeCompare(b))) {
    const kept = capped(members);
    for (const i of kept) out.push(withKind(recordOf(engine, prepared.docs[i], z[i], i), prepared.docs[i]));
  }
  return out;
}

/** The tokenised-archive case's family and kind (eval-shift-cases.ts reads the same). */
export const TOKENISED = { lang: 'en' as const, family: 'fastdetectgpt_gpt34', kind: 'story' };

const withKind = (r: AdaptRecord, d: Doc): ShiftRecord => ({
  ...r,
  population: `${LANGS[d.lang]}:${d.family}`,
  kind: kindOf(d.row),
});

/** An archive's tokenised punctuation (issue 43): a word's apostrophe split from its ending (`he' s`, `didn' t`), a space before each comma. */
export function tokenised(text: string): string {
  return text.replace(/(\p{L})['’](\p{L})/gu, "$1' $2").replace(/(\S),/g, '$1 ,');
}

/**
 * `records` with their texts transformed by `transform`, each rescored as a detection would read it: the
 * lexical logit of the model trained without its family (loso.ts), the engine's document type and evidence.
 * Every record must be of one family, whose rows are found by their group. Costs one held-out fit.
 */
export function transformedRecords(data: HeldOutData, records: readonly ShiftRecord[], transform: (text: string) => string): ShiftRecord[] {
  const { prepared, engine } = data;
  const family = records[0]?.family;
  if (!family) return [];
  const wanted = new Set(records.map((r) => `${r.group}\t${r.y}\t${r.kind}`));
  const rows = prepared.docs.flatMap((d, i) => {
    const group = d.row.group ?? `${d.row.source}:${i}`;
    if (d.excerpt || d.family !== family || !wanted.has(`${group}\t${d.y}\t${kindOf(d.row)}`)) return [];
    return [{ ...d.row, text: transform(d.row.text), group, split: 'dev' as const }];
  });
  const docs = featurize(prepared.engine, rows, 0);
  const z = logitsOf(modelWithout(prepared.docs, family, SPARSE_OPTIONS), docs);
  return docs.map((d, k) => withKind(recordOf(engine, d, z[k], k), d));
}

/** The records and the tokenised ones as JSON lines (the evidence's arrays as base64): `--records FILE` keeps them between runs. */
export function writeShiftRecords(file: string, records: readonly ShiftRecord[], tokenisedHuman: readonly ShiftRecord[]): void {
  const line = (r: ShiftRecord, tokenised: boolean) =>
    JSON.stringify({
      ...r,
      tokenised,
      evidence: {
        grams: Buffer.from(r.evidence.grams.buffer, r.evidence.grams.byteOffset, r.evidence.grams.byteLength).toString('base64'),
        style: Buffer.from(r.evidence.style.buffer, r.evidence.style.byteOffset, r.evidence.style.byteLength).toString('base64'),
      },
    });
  writeFileSync(file, [...records.map((r) => line(r, false)), ...tokenisedHuman.map((r) => line(r, true))].join('\n'));
}

/** What writeShiftRecords wrote. */
export function readShiftRecords(file: string): { records: ShiftRecord[]; tokenisedHuman: ShiftRecord[] } {
  const records: ShiftRecord[] = [];
  const tokenisedHuman: ShiftRecord[] = [];
  const array = (b64: string) => {
    const bytes = Buffer.from(b64, 'base64');
    return new Uint8Array(bytes).buffer;
  };
  for (const l of readFileSync(file, 'utf8').split('\n')) {
    if (!l) continue;
    const { tokenised, evidence, ...r } = JSON.parse(l) as ShiftRecord & { tokenised: boolean; evidence: { grams: string; style: string } };
    const record = { ...r, evidence: { grams: new Uint32Array(array(evidence.grams)), style: new Float64Array(array(evidence.style)) } };
    (tokenised ? tokenisedHuman : records).push(record);
  }
  return { records, tokenisedHuman };
}

/**
 * `--dev`: the dev split's whole texts scored by the shipped engine (the model was trained on the train
 * split only, so none of these texts was trained on, but their sources were: in-source, not held out by
 * family), capped as shiftRecords caps them; with the tokenised family's human texts tokenised and rescored.
 * Minutes instead of the held-out fits' half hour on 2 cores (more when they are shared).
 */
export function devRecords(engine: Engine, rows: readonly Row[]): { records: ShiftRecord[]; tokenisedHuman: ShiftRecord[] } {
  const score = (row: Row, text: string, i: number): ShiftRecord => {
    const r = engine.analyze(text, row.lang, true);
    const family = familyOf(row);
    return {
      lang: row.lang === 'es' ? 1 : 0,
      words: r.scoredWords,
      z: r.lexicalLogit,
      y: row.label === 'ai' ? 1 : 0,
      source: row.source,
      family,
      excerpt: false,
      docType: detectDocType(engine.docTypes, text, r).type,
      group: row.group ?? `${row.source}:${i}`,
      generator: row.model,
      evidence: evidenceOf(r)!,
      form: textForm(text),
      population: `${row.lang}:${family}`,
      kind: kindOf(row),
    };
  };
  const cells = new Map<string, number[]>();
  rows.forEach((row, i) => {
    if (isLightEdit({ row })) return;
    const key = `${familyOf(row)}\t${row.lang}\t${kindOf(row)}\t${row.label}`;
    (cells.get(key) ?? cells.set(key, []).get(key)!).push(i);
  });
  const records: ShiftRecord[] = [];
  const tokenisedHuman: ShiftRecord[] = [];
  const t = TOKENISED;
  for (const [, members] of [...cells].sort(([a], [b]) => a.localeCompare(b))) {
    const kept = capped(members);
    for (const i of kept) {
      const row = rows[i];
      const r = score(row, row.text, i);
      if (r.words === 0) continue;
      records.push(r);
      if (r.y === 0 && r.family === t.family && r.kind === t.kind && row.lang === t.lang)
        tokenisedHuman.push(score(row, tokenised(row.text), i));
    }
  }
  return { records, tokenisedHuman };
}
