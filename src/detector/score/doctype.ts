/**
 * Document type: a measured classifier over a small fixed set. A softmax regression (trained by
 * `bun run train` on the data's `domain` labels, mapped to these types in scripts/lib/doctype-map.ts)
 * reads the text's words and a few layout and register tokens; when it is not confident it answers
 * `other`. Two layout rules (bullet lists, letter greetings and sign-offs) come first. Genre, not
 * authorship: it explains context and never changes the score.
 */
import type { ParagraphRecord, StyleFeatures } from './style';
import type { TextLang } from '../../contract';

export const DOC_TYPES = [
  'essay',
  'academic',
  'news',
  'story',
  'email',
  'review',
  'social_post',
  'qa_answer',
  'technical',
  'reference',
  'list_notes',
  'other',
] as const;
export type DocType = (typeof DOC_TYPES)[number];

/** Only the first words are read: the genre shows early, and the cost stays flat for long texts. */
export const DOCTYPE_MAX_WORDS = 1000;
/** Texts with fewer words than this get `other`: too little to tell a genre. */
const DOCTYPE_MIN_WORDS = 8;
/** Layout rule: at least this many list items, making up this share of the paragraphs, is a list. */
const LIST_MIN_ITEMS = 4;
const LIST_MIN_SHARE = 0.6;
/** The layout scan reads at most this many characters from each end of the text (the genre shows at the start). */
const SCAN_CHARS = 600;
const LETTER =
  /^\s*(dear|hi|hello|estimad[oa]s?|querid[oa]s?|hola)\b[^\n]{0,40}[,:]|\n\s*(best regards|kind regards|sincerely|yours (truly|sincerely)|atentamente|saludos cordiales|un (cordial )?saludo)\b/i;

/** The trained softmax table: one int8 weight per (type, feature bucket), and a bias per type. */
export interface DocTypeModel {
  types: DocType[];
  bits: number;
  /** weight = code * scale. */
  scale: number;
  bias: number[];
  /** Below this softmax probability of the best type, the answer is `other`. */
  minConfidence: number;
  /** Weights bucket-major: table[bucket * types + type] (a bucket's weights share a cache line). */
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
export interface DocTypeInput {
  /** Hashes of the first DOCTYPE_MAX_WORDS words (lower-cased). */
  words: Uint32Array;
  style: StyleFeatures;
  paragraphs: ParagraphRecord[];
  markdown: { headings: number; listItems: number; bold: number };
  language: TextLang;
}

/** 32-bit finaliser (murmur3): spreads word hashes over the buckets. */
function mix(h: number): number {
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 0;
}

/** FNV-1a, 32 bits: the hash of a word or layout token (also seeds the training excerpts). */
export function tokenHash(s: string): number {
  let h = 2166136261;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 16777619);
  return h >>> 0;
}

/** Index of the first edge that `v` is below (the bucket of a measure). */
function bucketOf(v: number, edges: readonly number[]): number {
  for (let i = 0; i < edges.length; i++) if (v < edges[i]) return i;
  return edges.length;
}

/** Facts of the text's opening and end that one pass over its characters collects. */
interface Scan {
  quotes: number;
  exclamations: number;
  dialogue: boolean;
  url: boolean;
  tag: boolean;
  emoji: boolean;
  citation: boolean;
  headline: boolean;
  opensWithQuestion: boolean;
}

const isDigit = (c: number) => c >= 48 && c <= 57;
const isSpace = (c: number) => c === 32 || c === 9 || c === 10 || c === 13;
const isWordChar = (c: number) => (c >= 48 && c <= 57) || ((c | 32) >= 97 && (c | 32) <= 122) || c === 95 || c >= 0xc0;
/** A letter that starts a sentence or a line of dialogue (Latin capitals and ¿¡ openers). */
const isUpperStart = (c: number) => (c >= 65 && c <= 90) || (c >= 0xc0 && c <= 0xde) || c === 0xbf || c === 0xa1;

/**
 * One pass over `head` (a plain loop: the regular expressions it replaced cost 67 us of the
 * 78 us a 500-word text took): quotes, exclamation marks, dialogue dashes at line starts, URLs,
 * hashtags and mentions, emoji, citations ("et al.", "(2019)", "[3]"), a headline line, a
 * question first.
 */
function scan(head: string, from: number, to: number, out: Scan): void {
  let lineStart = true;
  let firstEnd = from === 0 ? -1 : 0;
  const n = to;
  for (let i = from; i < n; i++) {
    const c = head.charCodeAt(i);
    // Letters and spaces are most of the text and decide nothing here but the line start.
    const folded = c | 32;
    if (folded >= 97 && folded <= 122) {
      lineStart = false;
      continue;
    }
    if (c === 32) continue;
    if (c === 0x22 || c === 0x201c || c === 0x201d || c === 0xab || c === 0xbb) out.quotes++;
    else if (c === 33) out.exclamations++;
    // "http://", "https://", "www." and "et al." are found at their punctuation (no second pass).
    else if (c === 58 && head.startsWith('//', i + 1) && (head.startsWith('http', i - 4) || head.startsWith('https', i - 5)))
      out.url = true;
    else if (c === 46 && i >= 3 && (head.startsWith('www', i - 3) || head.startsWith('et al', i - 5))) {
      if (head.startsWith('www', i - 3)) out.url = true;
      else out.citation = true;
    }
    if (firstEnd < 0 && (c === 46 || c === 33 || c === 63 || c === 10)) {
      firstEnd = i;
      out.opensWithQuestion = c === 63;
      out.headline = c === 10 && i >= 10 && i <= 120;
    }
    if ((c === 35 || c === 64) && (i === 0 || isSpace(head.charCodeAt(i - 1))) && i + 1 < n && isWordChar(head.charCodeAt(i + 1)))
      out.tag = true;
    else if ((c >= 0xd83c && c <= 0xd83e) || (c >= 0x2600 && c <= 0x27bf)) out.emoji = true;
    else if (c === 40 && i + 5 < n && isDigit(head.charCodeAt(i + 1)) && isDigit(head.charCodeAt(i + 4)) && head.charCodeAt(i + 5) === 41)
      out.citation = true;
    else if (c === 91 && i + 2 < n && isDigit(head.charCodeAt(i + 1)) && head.charCodeAt(i + 2) === 93) out.citation = true;
    if (lineStart && (c === 0x2014 || c === 0x2013 || c === 45)) {
      let j = i + 1;
      while (j < n && head.charCodeAt(j) === 32) j++;
      if (j < n && isUpperStart(head.charCodeAt(j))) out.dialogue = true;
    }
    if (c === 10) lineStart = true;
    else if (!isSpace(c)) lineStart = false;
  }
}

/** Scan the first and the last SCAN_CHARS characters of a text (all of a shorter one), in place: no copy. */
function scanText(text: string): { facts: Scan; scanned: number } {
  const facts: Scan = {
    quotes: 0,
    exclamations: 0,
    dialogue: false,
    url: false,
    tag: false,
    emoji: false,
    citation: false,
    headline: false,
    opensWithQuestion: false,
  };
  const long = text.length > 2 * SCAN_CHARS;
  scan(text, 0, long ? SCAN_CHARS : text.length, facts);
  if (long) scan(text, text.length - SCAN_CHARS, text.length, facts);
  return { facts, scanned: long ? 2 * SCAN_CHARS : text.length };
}

/** Kinds of layout token; a token is (kind, bucket). */
const LAYOUT_KINDS = [
  'len',
  'para',
  'sentlen',
  'personal',
  'questions',
  'numbers',
  'markdown',
  'commas',
  'proper',
  'contractions',
  'informal',
  'dashes',
  'semicolons',
  'allcaps',
  'wordlen',
  'transitions',
  'quotes',
  'exclaim',
  'dialogue',
  'url',
  'tag',
  'emoji',
  'citation',
  'headline',
  'opensWithQuestion',
  'lang',
] as const;
const KIND_HASH = LAYOUT_KINDS.map(tokenHash);
const LANG_BUCKET = { en: 0, es: 1, other: 2 } as const;
/** Bucket edges of the measured kinds, in LAYOUT_KINDS order: round values around the training texts' medians. */
const EDGES: readonly (readonly number[])[] = [
  [30, 60, 120, 250, 500],
  [2, 3, 5, 9],
  [8, 12, 18, 25, 35],
  [0.5, 2, 5],
  [0.5, 2, 5],
  [0.5, 2, 5],
  [1, 3],
  [0.5, 1, 2, 3],
  [1, 3, 6, 10],
  [0.3, 1.5, 4],
  [0.3, 1],
  [0.2, 1],
  [0.2, 1, 3],
  [0.5, 2],
  [4, 4.5, 5, 5.5, 6],
  [0.5, 1.5, 3],
  [0.5, 2, 5],
  [0.3, 1.5],
];

/**
 * Layout and register tokens as (kind index, bucket): language-independent cues that carry a genre
 * across sources (a forum answer and a product review differ in length, person and punctuation
 * more than in topic). No allocation per token: this runs on every detection.
 */
export function visitLayout(text: string, r: DocTypeInput, visit: (kind: number, bucket: number) => void): void {
  const s = r.style;
  const { facts: f, scanned } = scanText(text);
  // Quotes and exclamation marks per 100 words of what was scanned (about 6 characters a word).
  const per100 = (n: number) => (n * 600) / Math.max(1, scanned);
  const measured = [
    s.words,
    r.paragraphs.length,
    s.meanSentenceWords,
    s.personalRate,
    s.questionExclaimRate,
    s.numberRate,
    r.markdown.listItems + r.markdown.headings,
    s.commasPerSentence,
    s.properRate,
    s.contractionRate,
    s.informalRate,
    s.dashRate,
    s.semicolonColonRate,
    s.allCapsRate,
    s.meanWordLength,
    s.transitionRate,
    per100(f.quotes),
    per100(f.exclamations),
  ];
  for (let k = 0; k < measured.length; k++) visit(k, bucketOf(measured[k], EDGES[k]));
  const flags = [f.dialogue, f.url, f.tag, f.emoji, f.citation, f.headline, f.opensWithQuestion];
  for (let k = 0; k < flags.length; k++) visit(measured.length + k, flags[k] ? 1 : 0);
  visit(LAYOUT_KINDS.length - 1, LANG_BUCKET[r.language]);
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
  visitLayout(text, r, (kind, bucket) => {
    const h = mix(KIND_HASH[kind] + Math.imul(bucket, 0x9e3779b1));
    for (let k = 0; k < LAYOUT_REPEAT; k++) visit(mix(h + k) & mask);
  });
}

/** Which rule decides the type before the classifier, if any. */
export function ruleDocType(text: string, r: DocTypeInput): DocType | null {
  if (r.style.words < DOCTYPE_MIN_WORDS) return 'other';
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
  const types = model.types.length;
  const z = new Float64Array(types);
  const table = model.table;
  for (let i = 0; i < buckets.length; i++) {
    const row = buckets[i] * types;
    for (let c = 0; c < types; c++) z[c] += table[row + c];
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
  const header = new TextEncoder().encode(`${JSON.stringify(head)}\n`);
  const out = new Uint8Array(header.length + m.table.length);
  out.set(header);
  out.set(new Uint8Array(m.table.buffer, m.table.byteOffset, m.table.length), header.length);
  return out;
}
