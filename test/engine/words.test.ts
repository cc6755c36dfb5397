/**
 * countWords: the project's one word definition (src/contract/words.ts), used for the 20-word minimum,
 * metering and the batch `words` field: a run of Unicode letters, marks or digits; ' ’ ‐ - between
 * two such characters stay inside the word; anything else separates words.
 */
import { describe, expect, it, setDefaultTimeout } from 'bun:test';
import { SUITE_TIMEOUT_MS } from '../timeout';
import { countWords } from '../../src/contract';
import { sharedDetector } from './fixture';

setDefaultTimeout(SUITE_TIMEOUT_MS);

const CASES: Array<[string, string, number]> = [
  ['empty text', '', 0],
  ['whitespace only', ' \t\r\n  ', 0],
  ['punctuation only', '!!! ... ¿? — (…)', 0],
  ['plain words', 'The cat sat on the mat.', 6],
  ['extra whitespace and line breaks', '  one\ttwo\r\nthree\n\nfour  ', 4],
  // Apostrophes
  ['contractions', "don't can't I'm we've", 4],
  ['curly apostrophes', 'don’t O’Brien’s', 2],
  ['elision', "l'homme d'abord", 2],
  ['a leading or trailing apostrophe is not part of the word', "'tis the students' books", 4],
  ['quotes around a word', '"hello" ‘world’', 2],
  // Hyphens
  ['inner hyphens', 'well-known state-of-the-art', 2],
  ['Unicode hyphen U+2010', 'well‐known', 1],
  ['a dash between spaces separates', 'yes - no – maybe — never', 4],
  ['leading and trailing hyphens', '-leading trailing-', 2],
  ['a double hyphen separates', 'a--b', 2],
  // Accents and other scripts
  ['Spanish accents and ñ', 'Niño acción pingüino él', 4],
  ['Spanish punctuation', '¿Qué tal? ¡Muy bien!', 4],
  ['decomposed accents (combining marks stay inside the word)', 'Cafe\u0301 nin\u0303o', 2],
  ['Greek and Cyrillic', 'καλημέρα κόσμε привет мир', 4],
  ['Devanagari with vowel signs', 'नमस्ते दुनिया', 2],
  ['Arabic', 'مرحبا بالعالم', 2],
  // Emoji are not words
  ['emoji', 'I love it 😀👍🏽 🇪🇸', 3],
  ['ZWJ emoji sequence', 'family 👨‍👩‍👧‍👦 time', 2],
  ['an emoji glued to a word', 'great😀job', 2],
  // CJK: a run of ideographs (no spaces) is one run of letters
  ['CJK run', '我喜欢猫', 1],
  ['CJK runs split by punctuation', '我喜欢猫。他们很可爱。', 2],
  ['Japanese kana and kanji', '今日は 晴れです', 2],
  // Numbers
  ['integers', '42 7 2024', 3],
  ['a decimal point separates (3.5 is two words)', '3.5', 2],
  ['thousands separators separate', '1,000,000', 3],
  ['digits glued to letters', 'COVID19 3rd 10am', 3],
  ['superscripts are digits', 'x² m³', 2],
  ['a hyphen between digits joins', '555-1234 2019-2020', 2],
  // Mixed
  ['email and URL parts', 'mail me@example.com or https://example.org/a-b', 9],
  ['hashtags and mentions', '#AI @bob', 2],
  ['underscores separate', 'snake_case_name', 3],
];

describe('countWords', () => {
  for (const [name, text, n] of CASES) {
    it(`counts ${name}`, () => expect(countWords(text)).toBe(n));
  }

  // BUG (reported to the lead): U+FE0F (emoji presentation selector) is a combining mark (\p{Mn}),
  // so an emoji written with it (❤️ ☺️ ✔️ ©️) is a "run of marks" and counts as a word: 'I ❤️ it'
  // counts 3. A word should need at least one letter or digit, e.g.
  // /[\p{L}\p{N}][\p{L}\p{M}\p{N}]*(?:['’‐\-][\p{L}\p{N}][\p{L}\p{M}\p{N}]*)*/gu.
  it('does not count an emoji with a variation selector as a word', () => {
    expect(countWords('I ❤️ it')).toBe(2);
    expect(countWords('done ✔️ ☺️')).toBe(1);
  });

  // Issue 23: a zero-width space between every character turned 51 charged words into 346.
  it('reads through format characters: zero-width, soft hyphen, bidi and tag characters neither make nor split a word', () => {
    expect(countWords('wo\u200Brd')).toBe(1);
    expect(countWords('hy\u00ADphen')).toBe(1);
    expect(countWords('wo\u200Crd wo\u200Drd wo\u2060rd wo\uFEFFrd \u202Eword\u202C wo\u{E0041}rd')).toBe(6);
    expect(countWords('\u200B \u00AD \u{E0020}\u{E007F} \u2066\u2069')).toBe(0);
    expect(countWords("don'\u200Bt well-\u00ADknown")).toBe(2);
    const text = 'The committee approved the new budget after a long debate about schools and roads.';
    const n = countWords(text);
    for (const mark of ['\u200B', '\u00AD', '\u200D', '\u2060', '\u{E0041}', '\u202E']) {
      expect(countWords([...text].join(mark))).toBe(n);
    }
  });

  it('is stateless across calls (global regex lastIndex is reset)', () => {
    const text = 'one two three four five';
    expect([countWords(text), countWords(text), countWords('x'), countWords(text)]).toEqual([5, 5, 1, 5]);
  });

  it('counts a long text linearly', () => {
    const text = 'word '.repeat(20_000);
    expect(countWords(text)).toBe(20_000);
  });

  it('is the definition behind the detector: Analysis.words === countWords(text)', async () => {
    const d = await sharedDetector();
    const text = "It's a well-known fact: 3.5 kids per 😀 family, ¿verdad? 我喜欢猫。 Café au lait.";
    expect(d.countWords(text)).toBe(countWords(text));
    expect(d.analyze(text).words).toBe(countWords(text));
  });
});

describe('countWords scanner', () => {
  it('counts exactly what WORD_PATTERN matches (the rule written as a regular expression)', async () => {
    const { WORD_PATTERN, withoutFormatChars } = await import('../../src/contract/words');
    const texts = [
      'I ❤️ it',
      "don't -x- a--b 'quoted' x'",
      'café naïve e\u0301t\u0301',
      '🍕🍕 abc‐def ’tis',
      '我喜欢猫。他们很可爱。',
      '𝐀𝐁𝐂 def',
      'a\u0301',
      '\u0301a',
      'x-',
      '-x',
      '1.5 2,000',
      "a'’b",
      'ab\u200Bcd',
      "a'\u200Bb \u200B\u0301a a\u200B\u0301 x-\u00AD",
      'w\u200Bo\u200Br\u200Bd \u{E0041}t\u{E0041}a\u{E0041}g',
      '\uD800 lone surrogate \uDC00',
      'Привет, мир! Γειά σου κόσμε. مرحبا بالعالم',
      'tab\tseparated\nlines\r\nand CRLF',
    ];
    for (const t of texts) expect(countWords(t)).toBe((withoutFormatChars(t).match(WORD_PATTERN) ?? []).length);
  });
});
