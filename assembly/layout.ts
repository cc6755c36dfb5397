// Memory layout of the wasm core. Everything lives in linear memory at addresses decided here; no
// GC objects are ever created, so memory stays flat however many texts are analysed.

/** Per-sentence feature slots (f32), see SentenceFeature in src/engine/layout.ts. */
export const SENT_FEATURES: u32 = 20;
/** Per-document counters (u32), see DocCounter in src/engine/layout.ts. */
export const DOC_COUNTERS: u32 = 32;
/** Bytes per token record: start, end, hash, shape, info. */
const TOKEN_BYTES: u32 = 20;
/** Bytes per sentence record: start, end, token0, token1, flags, first-word hash, first-two hash, paragraph. */
const SENT_BYTES: u32 = 32;
/** Bytes per paragraph record: start, end, words, sentences. */
const PARA_BYTES: u32 = 16;

/**
 * The weight table: one companded int8 code per hashed n-gram (4 MB for 2^22), decoded through a
 * 256-entry f32 table at lutPtr. Read-only while scoring: the "seen" set below keeps the per-sentence
 * and per-document marks, so the big table's cache lines are never dirtied and a 500-word text
 * touches ~64 KB of set instead of stamping 8-byte buckets across a 32 MB table.
 */
export let weightsPtr: usize = 0;
export let weightsMask: u32 = 0;
export let lutPtr: usize = 0;
/** Entries of 4 values in the weight decoding table (one per int8 code, indexed as u8). */
export const LUT_ENTRIES: u32 = 256;
/**
 * Open-addressing set of the n-grams seen in the current document: 8-byte entries (weight index + 1,
 * 0 = empty; sentence mark). Sized per document and cleared before each one.
 */
export let seenPtr: usize = 0;
export let seenCap: u32 = 0;
export const SEEN_ENTRY_BYTES: u32 = 8;
/** Queue of one sentence's n-grams while it is scored: u32 hashes, then as many f32 weights. */
export let scratchPtr: usize = 0;
export let scratchCap: u32 = 0;
export let lexPtr: usize = 0;
export let lexMask: u32 = 0;
export let docPtr: usize = 0;

export let textPtr: usize = 0;
export let textCap: u32 = 0;
export let tokPtr: usize = 0;
export let tokCap: u32 = 0;
export let sentPtr: usize = 0;
export let sentFeatPtr: usize = 0;
export let sentCap: u32 = 0;
export let paraPtr: usize = 0;
export let paraCap: u32 = 0;
export let featPtr: usize = 0;
export let featCap: u32 = 0;
/** The prose view's pieces: [start, end) u32 pairs of text offsets, written by the host (see prose.ts). */
export let viewPtr: usize = 0;
export let viewCap: u32 = 0;

let fixedEnd: usize = 0;
/** End of the text-sized regions (reserveText); the seen set lives past it. */
let textEnd: usize = 0;

function align(p: usize): usize {
  return (p + 15) & ~(<usize>15);
}

function ensureMemory(end: usize): bool {
  const have = <usize>memory.size() << 16;
  if (end <= have) return true;
  const pages = <i32>((end - have + 0xffff) >>> 16);
  return memory.grow(pages) >= 0;
}

/** Reserve the weight table (2^weightBits int8 codes and their decoding table) and the lexicon table (2^lexBits slots). */
export function setupTables(weightBits: u32, lexBits: u32): bool {
  let p = align(__heap_base);
  weightsPtr = p;
  weightsMask = (1 << weightBits) - 1;
  p = align(p + (<usize>1 << weightBits));
  lutPtr = p;
  p = align(p + (<usize>LUT_ENTRIES << 2));
  lexPtr = p;
  lexMask = (1 << lexBits) - 1;
  p = align(p + ((<usize>1 << lexBits) << 3));
  docPtr = p;
  p = align(p + (DOC_COUNTERS << 2));
  fixedEnd = p;
  if (!ensureMemory(p)) return false;
  memory.fill(lexPtr, 0, (<usize>1 << lexBits) << 3);
  memory.fill(weightsPtr, 0, (<usize>1 << weightBits) + (<usize>LUT_ENTRIES << 2));
  return reserveText(4096);
}

/**
 * Make room, past the text regions, for a seen set of `entries` (a power of two) and a scoring
 * queue of `queue` n-grams (a u32 hash and an f32 weight each); their contents are undefined.
 */
export function reserveScoring(entries: u32, queue: u32): bool {
  if (entries <= seenCap && queue <= scratchCap) return true;
  const seenBytes = <usize>max(entries, seenCap) * SEEN_ENTRY_BYTES;
  const scratchEntries = max(queue, scratchCap);
  const end = textEnd + seenBytes + (<usize>scratchEntries << 3);
  if (!ensureMemory(end)) return false;
  seenPtr = textEnd;
  seenCap = max(entries, seenCap);
  scratchPtr = textEnd + seenBytes;
  scratchCap = scratchEntries;
  return true;
}

/** Make room for a text of `cap` UTF-16 code units (grows memory only when cap is larger). */
export function reserveText(cap: u32): bool {
  if (cap <= textCap) return true;
  const tCap = cap + 16;
  const sCap = (cap >>> 1) + 16;
  const fCap = tCap * 4 + sCap;
  let p = fixedEnd;
  const tp = p;
  p = align(p + (<usize>tCap << 1));
  const kp = p;
  p = align(p + <usize>tCap * TOKEN_BYTES);
  const sp = p;
  p = align(p + <usize>sCap * SENT_BYTES);
  const sfp = p;
  p = align(p + <usize>sCap * SENT_FEATURES * 4);
  const pp = p;
  p = align(p + <usize>sCap * PARA_BYTES);
  const fp = p;
  p = align(p + (<usize>fCap << 2));
  // A piece lies inside one non-empty line: at most one per two code units, plus one.
  const vp = p;
  p = align(p + (<usize>sCap << 3));
  if (!ensureMemory(p)) return false;
  textPtr = tp; textCap = cap;
  tokPtr = kp; tokCap = tCap;
  sentPtr = sp; sentFeatPtr = sfp; sentCap = sCap;
  paraPtr = pp; paraCap = sCap;
  featPtr = fp; featCap = fCap;
  viewPtr = vp; viewCap = sCap;
  // The text regions moved over the old seen set: reserve it again, past them, on next use.
  textEnd = p;
  seenPtr = 0; seenCap = 0;
  scratchPtr = 0; scratchCap = 0;
  return true;
}

// Token record accessors.
@inline export function tokStart(i: u32): u32 { return load<u32>(tokPtr + <usize>i * TOKEN_BYTES); }
@inline export function tokEnd(i: u32): u32 { return load<u32>(tokPtr + <usize>i * TOKEN_BYTES, 4); }
@inline export function tokHash(i: u32): u32 { return load<u32>(tokPtr + <usize>i * TOKEN_BYTES, 8); }
@inline export function tokShape(i: u32): u32 { return load<u32>(tokPtr + <usize>i * TOKEN_BYTES, 12); }
@inline export function tokInfo(i: u32): u32 { return load<u32>(tokPtr + <usize>i * TOKEN_BYTES, 16); }
@inline export function setToken(i: u32, start: u32, end: u32, hash: u32, shape: u32, info: u32): void {
  const p = tokPtr + <usize>i * TOKEN_BYTES;
  store<u32>(p, start); store<u32>(p, end, 4); store<u32>(p, hash, 8); store<u32>(p, shape, 12); store<u32>(p, info, 16);
}

// Sentence record accessors: 0 start, 4 end, 8 token0, 12 token1, 16 flags, 20 first, 24 firstTwo, 28 paragraph.
@inline export function sentField(s: u32, off: u32): u32 { return load<u32>(sentPtr + <usize>s * SENT_BYTES + off); }
@inline export function setSentField(s: u32, off: u32, v: u32): void { store<u32>(sentPtr + <usize>s * SENT_BYTES + off, v); }
@inline export function sentFeatAddr(s: u32, f: u32): usize { return sentFeatPtr + ((<usize>s * SENT_FEATURES + f) << 2); }

// Paragraph record accessors: 0 start, 4 end, 8 words, 12 sentences.
@inline export function paraField(p: u32, off: u32): u32 { return load<u32>(paraPtr + <usize>p * PARA_BYTES + off); }
@inline export function setParaField(p: u32, off: u32, v: u32): void { store<u32>(paraPtr + <usize>p * PARA_BYTES + off, v); }

// Document counters.
@inline export function docGet(k: u32): u32 { return load<u32>(docPtr + (<usize>k << 2)); }
@inline export function docSet(k: u32, v: u32): void { store<u32>(docPtr + (<usize>k << 2), v); }
@inline export function docInc(k: u32): void { const a = docPtr + (<usize>k << 2); store<u32>(a, load<u32>(a) + 1); }
