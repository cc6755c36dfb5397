// The lexicon table: open addressing from a (language-salted) word or phrase hash to category bits.
// It holds the masking vocabulary, stop words for language detection, abbreviations and the
// style lexicons (stock phrases, transitions, hedges, personal voice).
import { lexPtr, lexMask } from './layout';
import { mix32 } from './hash';

/** Category bits stored in the lexicon. Mirrored by LexBit in src/engine/layout.ts. */
export namespace Lex {
  export const STOCK: u32 = 1;
  export const TRANSITION: u32 = 2;
  export const HEDGE: u32 = 4;
  export const PERSONAL: u32 = 8;
  export const ABBREV: u32 = 16;
  export const STOP: u32 = 32;
  export const VOCAB: u32 = 64;
  export const INFORMAL: u32 = 128;
  export const TITLE: u32 = 256;
  export const FUNC: u32 = 512;
  /** The word starts a multi-word lexicon phrase: only then are longer phrases looked up. */
  export const PHRASE_START: u32 = 1024;
  /** A contraction (don't, it's, I'm): a possessive ("today's") is not one. */
  export const CONTRACTION: u32 = 2048;
}

/** Salts that keep each language's entries apart; index = language id (0 en, 1 es, 2 any). */
export function langSalt(lang: u32): u32 {
  return lang == 0 ? 0x1b873593 : lang == 1 ? 0x5bd1e995 : 0x27d4eb2f;
}

@inline function slotKey(key: u32): u32 {
  return key == 0 ? 1 : key;
}

/** OR `bits` into the entry for `key`; false when the table is full. */
export function lexAdd(key: u32, bits: u32): bool {
  const k = slotKey(key);
  let i = mix32(k) & lexMask;
  for (let n: u32 = 0; n <= lexMask; n++) {
    const p = lexPtr + (<usize>i << 3);
    const cur = load<u32>(p);
    if (cur == k) { store<u32>(p, load<u32>(p, 4) | bits, 4); return true; }
    if (cur == 0) { store<u32>(p, k); store<u32>(p, bits, 4); return true; }
    i = (i + 1) & lexMask;
  }
  return false;
}

/** Category bits for `key` (0 when absent). */
export function lexGet(key: u32): u32 {
  const k = slotKey(key);
  let i = mix32(k) & lexMask;
  while (true) {
    const p = lexPtr + (<usize>i << 3);
    const cur = load<u32>(p);
    if (cur == k) return load<u32>(p, 4);
    if (cur == 0) return 0;
    i = (i + 1) & lexMask;
  }
  return 0;
}
