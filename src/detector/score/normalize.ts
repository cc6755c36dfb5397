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
  /** Combining diacritics over Latin letters that no composition absorbs (t + U+0301), when they are a disguise. */
  strayMarks: number;
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

/**
 * Combining diacritics (U+0300-036F but not the grapheme joiner U+034F, which the tokenizer reads as
 * invisible; the extended and supplement blocks; marks for symbols; half marks).
 */
const DIACRITIC_CLASS = '[\\u0300-\\u034E\\u0350-\\u036F\\u1AB0-\\u1AFF\\u1DC0-\\u1DFF\\u20D0-\\u20FF\\uFE20-\\uFE2F]';
const DIACRITICS = new RegExp(DIACRITIC_CLASS, 'gu');
const HAS_DIACRITIC = new RegExp(DIACRITIC_CLASS);
const LATIN_LETTER = /^\p{Script=Latin}$/u;
/** A Latin letter still followed by a diacritic: in NFKC text, a mark that no composition absorbed. */
export const STRAY_MARK = new RegExp(`\\p{Script=Latin}${DIACRITIC_CLASS}`, 'u');

/** End of the cluster starting at `start`: one code point plus the combining marks after it (so e + U+0301 composes to é). */
function clusterEnd(text: string, start: number): number {
  let i = start + ((text.codePointAt(start) as number) > 0xffff ? 2 : 1);
  while (i < text.length) {
    const ch = String.fromCodePoint(text.codePointAt(i) as number);
    if (!COMBINING.test(ch)) break;
    i += ch.length;
  }
  return i;
}

/**
 * NFKC-normalise `text`, keeping a map from normalised offsets to submitted offsets.
 *
 * Combining marks (issue 23): decomposed accents compose first (e + U+0301 is é, as typed), so
 * ordinary Spanish or English scores exactly as before whether it came precomposed or not. A mark
 * that no composition absorbs over a Latin letter (t + U+0301) is a disguise when such marks are
 * MIN_STRAY_MARK_SHARE of the letters or more: they are counted (`strayMarks`), and then every
 * combining mark written over a Latin letter is dropped for scoring, since an acute after every
 * letter also composes á, é, ó out of plain vowels (it moved an AI text from 98 to 43). Letters that
 * arrive precomposed are left as they are.
 */
export function normalizeText(text: string): NormalizedText {
  if (ASCII_ONLY.test(text)) return { text, map: null, compatLetters: 0, strayMarks: 0 };
  const nfkc = text.normalize('NFKC');
  // The plain class first: most non-ASCII text has no combining diacritic left after NFKC at all.
  const strayMarks = HAS_DIACRITIC.test(nfkc) && STRAY_MARK.test(nfkc) ? disguisingMarks(text) : 0;
  if (nfkc === text && strayMarks === 0) return { text, map: null, compatLetters: 0, strayMarks: 0 };
  const out: string[] = [];
  const map: number[] = [];
  let compatLetters = 0;
  let i = 0;
  while (i < text.length) {
    const start = i;
    i = clusterEnd(text, start);
    let cluster = text.slice(start, i);
    const cp0 = cluster.codePointAt(0) as number;
    if (strayMarks > 0 && i - start > 1 && LATIN_LETTER.test(String.fromCodePoint(cp0))) {
      cluster = cluster.replace(DIACRITICS, '');
    }
    const norm = cluster.normalize('NFKC');
    if (norm !== cluster && isDisguisedLetter(cp0)) compatLetters++;
    out.push(norm);
    for (let k = 0; k < norm.length; k++) map.push(start);
  }
  map.push(text.length);
  return { text: out.join(''), map: Int32Array.from(map), compatLetters, strayMarks };
}

/**
 * Stray marks are a disguise only when they are this share of the Latin letters or more. Measured:
 * notation such as x̄ in statistics answers is 0.2-0.6% (4 of the 48,979 training texts, whose
 * normalised form must not change: the model was trained on it); an acute after every letter is
 * ~50%, after one letter in every word ~15%.
 */
export const MIN_STRAY_MARK_SHARE = 0.02;
const LATIN_LETTERS = /\p{Script=Latin}/gu;

/** The stray marks of `text` when they are a disguise (MIN_STRAY_MARK_SHARE), else 0. */
function disguisingMarks(text: string): number {
  const stray = countStrayMarks(text);
  if (stray === 0) return 0;
  let letters = 0;
  LATIN_LETTERS.lastIndex = 0;
  while (LATIN_LETTERS.exec(text) !== null) letters++;
  return stray >= letters * MIN_STRAY_MARK_SHARE ? stray : 0;
}

/** Diacritics over Latin letters that remain after NFKC composition, cluster by cluster. */
function countStrayMarks(text: string): number {
  let n = 0;
  let i = 0;
  while (i < text.length) {
    const start = i;
    i = clusterEnd(text, start);
    if (i - start < 2 || !LATIN_LETTER.test(String.fromCodePoint(text.codePointAt(start) as number))) continue;
    const left = text.slice(start, i).normalize('NFKC').match(DIACRITICS);
    if (left) n += left.length;
  }
  return n;
}

/** Map a half-open span of the normalised text back to the submitted text. */
export function mapSpan(map: Int32Array | null, start: number, end: number): [number, number] {
  if (!map) return [start, end];
  return [map[start], map[end]];
}
