/**
 * Document type: a small fixed set. A naive Bayes model over the text's words (trained by
 * `bun run train` on the data's `domain` field, model/doctype.bin) picks among the types the data
 * covers; two layout rules (bullet lists, letter greetings/sign-offs) come first. Genre, not
 * authorship: it explains context and never changes the score.
 */
import type { EngineResult } from '../engine/engine';

export const DOC_TYPES = [
  'essay', 'academic', 'news', 'story', 'email', 'review', 'social_post', 'qa_answer', 'technical',
  'reference', 'list_notes', 'other',
] as const;
export type DocType = (typeof DOC_TYPES)[number];

/** A quantised naive Bayes table: log P(word bucket | type) as bytes, one row of 2^bits per type. */
export interface DocTypeModel {
  types: DocType[];
  bits: number;
  /** logP = min + q * step. */
  min: number;
  step: number;
  table: Uint8Array;
  /** Scratch: the last call that counted each bucket (see nextStamp). */
  seen?: Uint32Array;
  stamp?: number;
}

function nextStamp(m: DocTypeModel): number {
  if (!m.seen || m.stamp === 0xffffffff) {
    m.seen = new Uint32Array(1 << m.bits);
    m.stamp = 0;
  }
  m.stamp = (m.stamp ?? 0) + 1;
  return m.stamp;
}

/** Only the first words are read: the genre shows early, and the cost stays flat for long texts. */
export const DOCTYPE_MAX_WORDS = 1000;
/** Texts shorter than this get no type. */
const MIN_WORDS = 8;
const LETTER = /^\s*(dear|hi|hello|estimad[oa]s?|querid[oa]s?|hola)\b[^\n]{0,40}[,:]|\n\s*(best regards|kind regards|sincerely|yours (truly|sincerely)|atentamente|saludos cordiales|un (cordial )?saludo)\b/i;

/** Decide the document type of a text. */
export function detectDocType(text: string, r: EngineResult, words: Uint32Array, model: DocTypeModel): DocType {
  if (r.style.words < MIN_WORDS) return 'other';
  const lines = Math.max(1, r.paragraphs.length);
  if (r.markdown.listItems >= 4 && r.markdown.listItems / lines >= 0.6) return 'list_notes';
  if (LETTER.test(text.length > 4000 ? text.slice(0, 2000) + text.slice(-2000) : text)) return 'email';
  const size = 1 << model.bits;
  const mask = size - 1;
  const scores = new Float64Array(model.types.length);
  const n = Math.min(words.length, DOCTYPE_MAX_WORDS);
  // Each bucket counts once per text: a stamp per bucket instead of a Set (no allocation per call).
  const stamp = nextStamp(model);
  for (let i = 0; i < n; i++) {
    const b = words[i] & mask;
    if (model.seen![b] === stamp) continue;
    model.seen![b] = stamp;
    for (let c = 0; c < model.types.length; c++) scores[c] += model.table[c * size + b];
  }
  let best = 0;
  for (let c = 1; c < scores.length; c++) if (scores[c] > scores[best]) best = c;
  return model.types[best];
}

/** Read model/doctype.bin: a JSON header line, then the table bytes. */
export function parseDocTypeModel(bytes: Uint8Array): DocTypeModel {
  const nl = bytes.indexOf(10);
  const head = JSON.parse(new TextDecoder().decode(bytes.subarray(0, nl))) as Omit<DocTypeModel, 'table'>;
  const table = bytes.slice(nl + 1);
  if (table.length !== head.types.length << head.bits) throw new Error('doctype.bin: table size does not match its header');
  return { ...head, table };
}

/** Write a doc-type model in the format parseDocTypeModel reads. */
export function serializeDocTypeModel(m: DocTypeModel): Uint8Array {
  const head = new TextEncoder().encode(JSON.stringify({ types: m.types, bits: m.bits, min: m.min, step: m.step }) + '\n');
  const out = new Uint8Array(head.length + m.table.length);
  out.set(head);
  out.set(m.table, head.length);
  return out;
}
