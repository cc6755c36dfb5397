/**
 * Normalisation against cheap evasion, step 1 of 2: Unicode NFKC with an offset map back to the
 * submitted text. (Step 2, zero-width removal and homoglyph mapping, happens inside the wasm
 * tokenizer, which reads through those characters without changing offsets.)
 */

/** Text to score, plus the map from its UTF-16 offsets to the submitted text's (null = identical). */
export interface NormalizedText {
  text: string;
  map: Int32Array | null;
  /** Letters that NFKC rewrote from look-alike forms (fullwidth, math alphanumerics, ligatures). */
  compatLetters: number;
}

const ASCII_ONLY = /^[\x00-\x7f]*$/;
const COMBINING = /\p{M}/u;
const HAS_LATIN = /[A-Za-z0-9]/;
const TRADEMARK = 0x2122;
/** Code points below this rewritten by NFKC are ordinary (nbsp, ellipsis, fractions), not disguise. */
const DISGUISE_FROM = 0x1d00;

/** NFKC-normalise `text`, keeping a map from normalised offsets to submitted offsets. */
export function normalizeText(text: string): NormalizedText {
  if (ASCII_ONLY.test(text) || text.normalize('NFKC') === text) return { text, map: null, compatLetters: 0 };
  const out: string[] = [];
  const map: number[] = [];
  let compatLetters = 0;
  let i = 0;
  while (i < text.length) {
    // A cluster is one code point plus the combining marks after it (so e + U+0301 composes to é).
    const start = i;
    i += (text.codePointAt(i) as number) > 0xffff ? 2 : 1;
    while (i < text.length) {
      const cp = text.codePointAt(i) as number;
      const ch = String.fromCodePoint(cp);
      if (!COMBINING.test(ch)) break;
      i += ch.length;
    }
    const cluster = text.slice(start, i);
    const norm = cluster.normalize('NFKC');
    const cp0 = cluster.codePointAt(0) as number;
    if (norm !== cluster && cp0 >= DISGUISE_FROM && cp0 !== TRADEMARK && HAS_LATIN.test(norm)) compatLetters++;
    out.push(norm);
    for (let k = 0; k < norm.length; k++) map.push(start);
  }
  map.push(text.length);
  return { text: out.join(''), map: Int32Array.from(map), compatLetters };
}

/** Map a half-open span of the normalised text back to the submitted text. */
export function mapSpan(map: Int32Array | null, start: number, end: number): [number, number] {
  if (!map) return [start, end];
  return [map[start], map[end]];
}
