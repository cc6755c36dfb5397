// Hashing shared by words, phrases and n-grams. The host never re-implements these: it asks the
// wasm core to hash vocabulary and lexicon phrases, so training and scoring cannot drift apart.

/** FNV-1a offset basis: the hash of the empty word. */
export const FNV_BASIS: u32 = 2166136261;

/** One FNV-1a step over a code point. */
@inline export function fnvStep(h: u32, c: u32): u32 {
  return (h ^ c) * 16777619;
}

/** Murmur3's finaliser: spreads the bits of a 32-bit value. */
@inline export function mix32(x: u32): u32 {
  x ^= x >>> 16;
  x *= 0x85ebca6b;
  x ^= x >>> 13;
  x *= 0xc2b2ae35;
  x ^= x >>> 16;
  return x;
}

/** Order-dependent combination of two hashes (phrases and n-grams). */
@inline export function combine(a: u32, b: u32): u32 {
  return mix32(a * 0x9e3779b1 + b + 0x7f4a7c15);
}
