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
/**
 * Letters NFKC rewrites that serve as disguise: fullwidth Latin letters and mathematical
 * alphanumerics (𝐀𝐁𝐂). Ligatures (ﬁ), №, ℃, Roman numerals and fullwidth digits are ordinary
 * typography and are normalised without counting.
 */
function isDisguisedLetter(cp: number): boolean {
  return (cp >= 0xff21 && cp <= 0xff3a) || (cp >= 0xff41 && cp <= 0xff5a) || (cp >= 0x1d400 && cp <= 0x1d7ff);
}

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
    if (norm !== cluster && isDisguisedLetter(cp0)) compatLetters++;
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
