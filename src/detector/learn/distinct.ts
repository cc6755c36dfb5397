/**
 * What counts as one text of a profile (issue 40 item 7, issue 44 items 1 and 2): one news text sent
 * 1,000 times is one piece of evidence, not 1,000, and so is a text sent again with a word dropped,
 * re-spaced, a counter appended ("(Copy 12.)") or its signature changed. Two texts are the same text
 * when they are equal after normalisation (Unicode NFKC, whitespace runs collapsed, trimmed: a SHA-256
 * digest), or near-duplicates: the estimated Jaccard similarity of their sets of word shingles
 * (SHINGLE_WORDS words in a row, lower-cased, punctuation and spacing ignored) is NEAR_JACCARD or more.
 *
 * The estimate is a bottom-k MinHash sketch (the SKETCH smallest distinct 32-bit shingle hashes of a
 * text: exact for a text of SKETCH shingles or fewer); candidates are found through an index of the
 * kept texts' sketch values (each posting list capped at POSTING_CAP, MAX_CANDIDATES compared), so a
 * text costs O(words log words) to sketch and O(INDEXED * POSTING_CAP + MAX_CANDIDATES * SKETCH) to compare, whatever the set:
 * 5,000 texts of 512 Ki characters are bounded. Deterministic (fixed hashes, no randomness); the
 * digests and sketches are held in memory for the one request or command, never stored (a sketch of
 * 256 hashes of word triples identifies a text as a digest does: it must not outlive the request).
 */
import { createHash } from 'node:crypto';

/** Words per shingle: a word dropped changes 3 shingles of a text, not the whole text. */
export const SHINGLE_WORDS = 3;
/** Hashes a sketch keeps: exact for a text of up to 256 shingles (~258 words); past it the estimate's standard error is at most 0.5 / sqrt(256) = 0.03. */
export const SKETCH = 256;
/** A text's smallest sketch values that go in the index: two texts at NEAR_JACCARD share some of them all but surely. */
const INDEXED = 32;
/**
 * Texts at or above this Jaccard similarity are one text. Chosen on the dev human texts of
 * ../shared/data (docs/calibration.md, "Near-duplicates": `bun scripts/near-dups.ts`): at 0.85, 93 of
 * 4,756 are merged with an earlier text of their source, all near-copies (84 cuts of one article in
 * fastdetectgpt, 7 articles given twice in bbc_news, 2 EU regulations re-issued with another date);
 * none of the reviews, essays, posts, fiction or form-like notes that differ in a name and a place
 * (0.82-0.83: scripts/lib/calibration-texts.ts). A word dropped per copy is caught from ~64 words
 * (4 copies each missing a different word: J = (n - 8) / (n + 2)), a counter appended from 20, any
 * re-spacing always; lower, 0.6-0.8 merged different EU regulations sharing their closing formula.
 */
export const NEAR_JACCARD = 0.85;
/** Kept texts listed under one sketch value: a shingle every text shares (a form's boilerplate) cannot make a text cost the whole set. */
const POSTING_CAP = 64;
/** Kept texts a new one is compared with (those sharing the most sketch values first). */
const MAX_CANDIDATES = 32;

/** The digest of a text already NFKC-normalised: whitespace runs collapsed, trimmed. */
function digest(normalized: string): string {
  return createHash('sha256').update(normalized.replace(/\s+/gu, ' ').trim()).digest('base64');
}

/** The digest two texts share when they are the same after normalisation. */
export function textKey(text: string): string {
  return digest(text.normalize('NFKC'));
}

/** MurmurHash3's finaliser: spreads a combined hash over the 32 bits. */
function mix(h: number): number {
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 0;
}

const LETTER_OR_DIGIT = /[\p{L}\p{N}]/u;
const FNV_OFFSET = 0x811c9dc5;
const FNV_PRIME = 0x01000193;

/**
 * The FNV-1a hashes (32 bits) of a text's lower-cased words: runs of letters and digits. One pass over
 * the characters, ASCII without a regex or a copy (a 512 Ki-character text: ~10 ms).
 */
function wordHashes(text: string): number[] {
  const words: number[] = [];
  let h = 0;
  let open = false;
  for (let i = 0; i < text.length; i++) {
    let c = text.charCodeAt(i);
    let word: boolean;
    let lower = '';
    if (c < 128) {
      if (c >= 65 && c <= 90) c += 32;
      word = (c >= 97 && c <= 122) || (c >= 48 && c <= 57);
    } else {
      const point = String.fromCodePoint(text.codePointAt(i)!);
      if (point.length === 2) i++;
      word = LETTER_OR_DIGIT.test(point);
      lower = point.toLowerCase();
    }
    if (!word) {
      if (open) words.push(h >>> 0);
      open = false;
      continue;
    }
    if (!open) {
      h = FNV_OFFSET;
      open = true;
    }
    if (lower === '') h = Math.imul(h ^ c, FNV_PRIME);
    else for (let k = 0; k < lower.length; k++) h = Math.imul(h ^ lower.charCodeAt(k), FNV_PRIME);
  }
  if (open) words.push(h >>> 0);
  return words;
}

/** The SKETCH smallest distinct hashes of a text's word shingles, ascending (empty for a text without words). */
export function sketch(text: string): Uint32Array {
  return sketchOf(text.normalize('NFKC'));
}

function sketchOf(normalized: string): Uint32Array {
  const words = wordHashes(normalized);
  const count = Math.max(0, words.length - SHINGLE_WORDS + 1) || (words.length ? 1 : 0);
  const hashes = new Uint32Array(count);
  for (let i = 0; i < count; i++) {
    let h = 0x9747b28c;
    for (let j = i; j < Math.min(i + SHINGLE_WORDS, words.length); j++) h = mix(Math.imul(h, 31) ^ words[j]);
    hashes[i] = h;
  }
  hashes.sort();
  const out: number[] = [];
  for (let i = 0; i < hashes.length && out.length < SKETCH; i++) if (i === 0 || hashes[i] !== hashes[i - 1]) out.push(hashes[i]);
  return Uint32Array.from(out);
}

/** The estimated Jaccard similarity of two texts' shingle sets, from their sketches (exact for short texts). */
export function similarity(a: Uint32Array, b: Uint32Array): number {
  if (!a.length || !b.length) return a.length === b.length ? 1 : 0;
  // The union's smallest SKETCH values are among the two sketches: the share of them in both estimates the Jaccard.
  let i = 0;
  let j = 0;
  let union = 0;
  let both = 0;
  while (union < SKETCH && (i < a.length || j < b.length)) {
    if (j >= b.length || (i < a.length && a[i] < b[j])) i++;
    else if (i >= a.length || b[j] < a[i]) j++;
    else {
      both++;
      i++;
      j++;
    }
    union++;
  }
  return both / union;
}

/** What adding a text found: a new text (its id), or the earlier one it duplicates (its id, and the side it was given on). */
export type Added<S> = { distinct: true; id: number } | { distinct: false; near: boolean; side: S; id: number };

/**
 * The texts seen so far in one profile's set (human texts and AI examples together), with the side
 * each was given on: a text given on both sides is a labelling conflict the caller reports.
 */
export class DistinctTexts<S = string> {
  private readonly seen = new Map<string, number>();
  private readonly sketches: Uint32Array[] = [];
  private readonly sides: S[] = [];
  private readonly postings = new Map<number, number[]>();

  /** True the first time a text is seen; false for a duplicate or near-duplicate of one seen before. */
  add(text: string, side?: S): boolean {
    return this.check(text, side as S).distinct;
  }

  /** Whether `text` is new; if not, which earlier text it repeats. A new text is remembered, with an id (0, 1, 2...). */
  check(text: string, side: S): Added<S> {
    const normalized = text.normalize('NFKC');
    const key = digest(normalized);
    const exact = this.seen.get(key);
    if (exact !== undefined) return { distinct: false, near: false, side: this.sides[exact], id: exact };
    const own = sketchOf(normalized);
    const near = this.nearest(own);
    if (near >= 0) return { distinct: false, near: true, side: this.sides[near], id: near };
    const id = this.sketches.length;
    this.seen.set(key, id);
    this.sketches.push(own);
    this.sides.push(side);
    for (const h of own.subarray(0, INDEXED)) {
      const list = this.postings.get(h);
      if (!list) this.postings.set(h, [id]);
      else if (list.length < POSTING_CAP) list.push(id);
    }
    return { distinct: true, id };
  }

  /** Says the text `id` is now given on `side` (a text first given as AI, then as human, is kept as human). */
  relabel(id: number, side: S): void {
    this.sides[id] = side;
  }

  /** The kept text `own` is a near-duplicate of (the first such among the most similar candidates), or -1. */
  private nearest(own: Uint32Array): number {
    const shared = new Map<number, number>();
    for (const h of own.subarray(0, INDEXED)) for (const id of this.postings.get(h) ?? []) shared.set(id, (shared.get(id) ?? 0) + 1);
    const candidates = [...shared].sort((x, y) => y[1] - x[1] || x[0] - y[0]).slice(0, MAX_CANDIDATES);
    for (const [id] of candidates) if (similarity(own, this.sketches[id]) >= NEAR_JACCARD) return id;
    return -1;
  }
}
