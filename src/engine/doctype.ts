/**
 * Document type: a measured classifier over a small fixed set. A softmax regression (trained by
 * `bun run train` on the data's `domain` labels, mapped to these types in scripts/lib/doctype-map.ts)
 * reads the text's words and a few layout and register tokens; when it is not confident it answers
 * `other`. Two layout rules (bullet lists, letter greetings and sign-offs) come first. Genre, not
 * authorship: it explains context and never changes the score.
 */
import type { EngineResult } from './engine';

export const DOC_TYPES = [
  'essay', 'academic', 'news', 'story', 'email', 'review', 'social_post', 'qa_answer', 'technical',
  'reference', 'list_notes', 'other',
] as const;
export type DocType = (typeof DOC_TYPES)[number];

/** Only the first words are read: the genre shows early, and the cost stays flat for long texts. */
export const DOCTYPE_MAX_WORDS = 1000;
/** Texts with fewer words than this get `other`: too little to tell a genre. */
const MIN_WORDS = 8;
/** Layout rule: at least this many list items, making up this share of the paragraphs, is a list. */
const LIST_MIN_ITEMS = 4;
const LIST_MIN_SHARE = 0.6;
/** Regular-expression checks read at most this many characters from each end of the text. */
const SCAN_CHARS = 2000;
const LETTER = /^\s*(dear|hi|hello|estimad[oa]s?|querid[oa]s?|hola)\b[^\n]{0,40}[,:]|\n\s*(best regards|kind regards|sincerely|yours (truly|sincerely)|atentamente|saludos cordiales|un (cordial )?saludo)\b/i;

/** The trained softmax table: one int8 weight per (type, feature bucket), and a bias per type. */
export interface DocTypeModel {
  types: DocType[];
  bits: number;
  /** weight = code * scale. */
  scale: number;
  bias: number[];
  /** Below this softmax probability of the best type, the answer is `other`. */
  minConfidence: number;
  table: Int8Array;
  /** Scratch: the stamp of the last call that counted each bucket (no allocation per call). */
  seen?: Uint32Array;
  stamp?: number;
}

/** A document type and how sure the classifier is (softmax probability of the chosen type; 1 for rules). */
export interface DocTypeResult {
  type: DocType;
  confidence: number;
}

/** What the classifier reads from an analysis. */
export type DocTypeInput = Pick<EngineResult, 'words' | 'style' | 'paragraphs' | 'markdown' | 'language'>;

/** 32-bit finaliser (murmur3): spreads word hashes over the buckets. */
function mix(h: number): number {
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 0;
}

function tokenHash(s: string): number {
  let h = 2166136261;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 16777619);
  return h >>> 0;
}

const SECOND_PERSON = /\b(you|your|yours|yourself|tú|tu|tus|usted|ustedes|vosotros|os|te|ti)\b/giu;
const THIRD_PERSON = /\b(he|she|him|her|his|hers|they|them|their|él|ella|ellos|ellas|les|sus|su)\b/giu;
function rate(text: string, re: RegExp): number {
  const words = text.split(/\s+/).length;
  return ((text.match(re) ?? []).length * 100) / Math.max(1, words);
}

/** Index of the first edge that `v` is below (the bucket of a measure). */
function bucketOf(v: number, edges: readonly number[]): number {
  for (let i = 0; i < edges.length; i++) if (v < edges[i]) return i;
  return edges.length;
}

/**
 * Layout and register tokens: language-independent cues that carry a genre across sources (a
 * forum answer and a product review differ in length, person and punctuation more than in topic).
 * Edges are round values around the medians of the training texts.
 */
export function layoutTokens(text: string, r: DocTypeInput): string[] {
  const s = r.style;
  const head = text.length > 2 * SCAN_CHARS ? text.slice(0, SCAN_CHARS) + '\n' + text.slice(-SCAN_CHARS) : text;
  let quotes = 0;
  for (let i = 0; i < head.length; i++) {
    const c = head.charCodeAt(i);
    if (c === 0x22 || c === 0x201c || c === 0x201d || c === 0xab || c === 0xbb) quotes++;
  }
  return [
    `len${bucketOf(s.words, [30, 60, 120, 250, 500])}`,
    `para${bucketOf(r.paragraphs.length, [2, 3, 5, 9])}`,
    `sentlen${bucketOf(s.meanSentenceWords, [8, 12, 18, 25, 35])}`,
    `personal${bucketOf(s.personalRate, [0.5, 2, 5])}`,
    `questions${bucketOf(s.questionExclaimRate, [0.5, 2, 5])}`,
    `numbers${bucketOf(s.numberRate, [0.5, 2, 5])}`,
    `markdown${bucketOf(r.markdown.listItems + r.markdown.headings, [1, 3])}`,
    `commas${bucketOf(s.commasPerSentence, [0.5, 1, 2, 3])}`,
    `proper${bucketOf(s.properRate, [1, 3, 6, 10])}`,
    `contractions${bucketOf(s.contractionRate, [0.3, 1.5, 4])}`,
    `informal${bucketOf(s.informalRate, [0.3, 1])}`,
    `dashes${bucketOf(s.dashRate, [0.2, 1])}`,
    `semicolons${bucketOf(s.semicolonColonRate, [0.2, 1, 3])}`,
    `allcaps${bucketOf(s.allCapsRate, [0.5, 2])}`,
    `wordlen${bucketOf(s.meanWordLength, [4, 4.5, 5, 5.5, 6])}`,
    `transitions${bucketOf(s.transitionRate, [0.5, 1.5, 3])}`,
    `quotes${bucketOf((quotes * 100) / Math.max(1, s.words), [0.5, 2, 5])}`,
    `dialogue${/(^|\n)\s*[—–-]\s*\p{Lu}/u.test(head) ? 1 : 0}`,
    `url${/https?:\/\/|www\./.test(head) ? 1 : 0}`,
    `tag${/(^|\s)[#@]\w/.test(head) ? 1 : 0}`,
    `emoji${/\p{Extended_Pictographic}/u.test(head) ? 1 : 0}`,
    `citation${/\bet al\.|\(\d{4}\)|\[\d+\]/.test(head) ? 1 : 0}`,
    `headline${/^[^\n.!?]{10,120}\n/.test(head) ? 1 : 0}`,
    `opensWithQuestion${/^[^.!?\n]*\?/.test(head) ? 1 : 0}`,
    `lang_${r.language}`,
    `you${bucketOf(rate(head, SECOND_PERSON), [0.3, 1.5, 4])}`,
    `they${bucketOf(rate(head, THIRD_PERSON), [0.5, 2, 5])}`,
    `exclaim${bucketOf((head.split('!').length - 1) * 100 / Math.max(1, s.words), [0.3, 1.5])}`,
    `money${/[$€£%]/.test(head) ? 1 : 0}`,
  ];
}

/** Layout tokens weigh as much as this many word features each (they are few, and carry across sources). */
export const LAYOUT_REPEAT = 3;

/**
 * The distinct feature buckets of a text: its first DOCTYPE_MAX_WORDS words and its layout tokens.
 * Training and scoring both call this, so they cannot drift. `visit` gets each bucket once.
 */
export function forEachDocTypeFeature(text: string, r: DocTypeInput, bits: number, visit: (bucket: number) => void): void {
  const mask = (1 << bits) - 1;
  const n = Math.min(r.words.length, DOCTYPE_MAX_WORDS);
  for (let i = 0; i < n; i++) visit(mix(r.words[i]) & mask);
  for (const token of layoutTokens(text, r)) {
    const h = mix(tokenHash(token));
    for (let k = 0; k < LAYOUT_REPEAT; k++) visit(mix(h + k) & mask);
  }
}

/** Which rule decides the type before the classifier, if any. */
export function ruleDocType(text: string, r: DocTypeInput): DocType | null {
  if (r.style.words < MIN_WORDS) return 'other';
  const lines = Math.max(1, r.paragraphs.length);
  if (r.markdown.listItems >= LIST_MIN_ITEMS && r.markdown.listItems / lines >= LIST_MIN_SHARE) return 'list_notes';
  if (LETTER.test(text.length > 2 * SCAN_CHARS ? text.slice(0, SCAN_CHARS) + text.slice(-SCAN_CHARS) : text)) return 'email';
  return null;
}

/** Scratch buffer of one text's distinct buckets (reused: no allocation per call). */
let scratch = new Uint32Array(2048);

/** The classifier's type and softmax probability for a text, without the rules or the `other` fallback. */
export function scoreDocType(model: DocTypeModel, text: string, r: DocTypeInput): DocTypeResult {
  if (!model.seen || model.stamp === 0xffffffff) {
    model.seen = new Uint32Array(1 << model.bits);
    model.stamp = 0;
  }
  const stamp = (model.stamp = (model.stamp ?? 0) + 1);
  const seen = model.seen;
  let count = 0;
  forEachDocTypeFeature(text, r, model.bits, (b) => {
    if (seen[b] === stamp) return;
    seen[b] = stamp;
    if (count === scratch.length) {
      const grown = new Uint32Array(count * 2);
      grown.set(scratch);
      scratch = grown;
    }
    scratch[count++] = b;
  });
  return scoreBuckets(model, scratch.subarray(0, count));
}

/** The classifier's type and softmax probability for a text's distinct feature buckets. */
export function scoreBuckets(model: DocTypeModel, buckets: ArrayLike<number>): DocTypeResult {
  const size = 1 << model.bits;
  const types = model.types.length;
  const z = new Float64Array(types);
  for (let i = 0; i < buckets.length; i++) {
    const b = buckets[i];
    for (let c = 0; c < types; c++) z[c] += model.table[c * size + b];
  }
  // Binary features, L2-normalised (as trained): a long text is not more certain just for being long.
  const norm = model.scale / Math.sqrt(Math.max(1, buckets.length));
  let best = 0;
  for (let c = 0; c < types; c++) {
    z[c] = z[c] * norm + model.bias[c];
    if (z[c] > z[best]) best = c;
  }
  let sum = 0;
  for (let c = 0; c < types; c++) sum += Math.exp(z[c] - z[best]);
  return { type: model.types[best], confidence: 1 / sum };
}

/** The classifier's answer with its confidence floor applied. */
export function withFloor(model: DocTypeModel, scored: DocTypeResult): DocTypeResult {
  return scored.confidence >= model.minConfidence ? scored : { type: 'other', confidence: scored.confidence };
}

/** Decide the document type: rules first, then the classifier, `other` below its confidence floor. */
export function detectDocType(model: DocTypeModel | null, text: string, r: DocTypeInput): DocTypeResult {
  const rule = ruleDocType(text, r);
  if (rule) return { type: rule, confidence: 1 };
  if (!model) return { type: 'other', confidence: 0 };
  return withFloor(model, scoreDocType(model, text, r));
}

/** Read model/doctype.bin: a JSON header line, then the int8 table. */
export function parseDocTypeModel(bytes: Uint8Array): DocTypeModel {
  const nl = bytes.indexOf(10);
  const head = JSON.parse(new TextDecoder().decode(bytes.subarray(0, nl))) as Omit<DocTypeModel, 'table'>;
  const raw = bytes.slice(nl + 1);
  if (raw.length !== head.types.length << head.bits) throw new Error('doctype.bin: table size does not match its header');
  return { ...head, table: new Int8Array(raw.buffer, raw.byteOffset, raw.length) };
}

/** Write a doc-type model in the format parseDocTypeModel reads. */
export function serializeDocTypeModel(m: DocTypeModel): Uint8Array {
  const head = { types: m.types, bits: m.bits, scale: m.scale, bias: m.bias, minConfidence: m.minConfidence };
  const header = new TextEncoder().encode(JSON.stringify(head) + '\n');
  const out = new Uint8Array(header.length + m.table.length);
  out.set(header);
  out.set(new Uint8Array(m.table.buffer, m.table.byteOffset, m.table.length), header.length);
  return out;
}
