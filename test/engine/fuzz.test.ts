/**
 * Offsets under random mixtures of everything that changes code-unit arithmetic: NFKC expansions
 * and contractions (ligatures, fullwidth, math letters, decomposed accents, ㍻), surrogate pairs and
 * emoji sequences, invisible characters, CRLF, CJK, markdown marks. For a fixed seed, every sentence,
 * paragraph, annotation and bullet must be a well-formed span of the submitted text.
 */
import { beforeAll, describe, expect, it, setDefaultTimeout } from 'bun:test';
import { SUITE_TIMEOUT_MS } from '../timeout';
import type { Engine } from '../../src/detector/score/engine';
import type { Detector } from '../../src/detector/types';
import { sharedDetector, sharedEngine } from './fixture';

setDefaultTimeout(SUITE_TIMEOUT_MS);

let engine: Engine;
let detector: Detector;
beforeAll(async () => {
  engine = await sharedEngine();
  detector = await sharedDetector();
});

const PIECES = [
  'word',
  'Word',
  'café',
  'cafe\u0301',
  'niño',
  'ﬁne',
  'ﬀ',
  'Ｔｅｓｔ',
  '𝐛𝐨𝐥𝐝',
  'wo\u200Brd',
  '😀',
  '👨‍👩‍👧',
  '👋🏽',
  '🇪🇸',
  '❤️',
  '我喜欢',
  '。',
  '.',
  '!',
  '?',
  '¿',
  '¡',
  ',',
  ' ',
  ' ',
  ' ',
  '\r\n',
  '\n\n',
  '\n',
  '…',
  '"',
  '“',
  '”',
  '(',
  ')',
  'e.g.',
  'Dr.',
  '3.14',
  '½',
  '№',
  'ｶﾀｶﾅ',
  '\uFEFF',
  '\u00AD',
  '- ',
  '# ',
  '**',
  'Ⅳ',
  '\t',
  'ǅ',
  'ß',
  'İ',
  '㍻',
  'The',
  'and',
  'el',
  'que',
  '\u2028',
  '\u0085',
  '\r',
  '！',
  '？',
  '\u00A0',
  '1. ',
  '> ',
  'Мир',
  'αβγ',
  'е',
  '\uD83D',
];
const TEXTS = 1500;
const MAX_PIECES = 60;
/** Plain whitespace (not the invisible format characters, which may stay glued to a word). */
const EDGE_SPACE = /^[ \t\r\n\u00a0]|[ \t\r\n\u00a0]$/;
const isLow = (c: number) => c >= 0xdc00 && c <= 0xdfff;

function randomTexts(seed: number): string[] {
  let s = seed >>> 0;
  const rnd = () => {
    s = (Math.imul(s, 1103515245) + 12345) >>> 0;
    return s / 4294967296;
  };
  const out: string[] = [];
  for (let n = 0; n < TEXTS; n++) {
    let t = '';
    const len = 1 + Math.floor(rnd() * MAX_PIECES);
    for (let i = 0; i < len; i++) t += PIECES[Math.floor(rnd() * PIECES.length)];
    out.push(t);
  }
  return out;
}

/** Problems with a span of `text` (empty when it is well-formed). */
function spanProblems(text: string, start: number, end: number, prevEnd: number): string[] {
  const p: string[] = [];
  if (!(Number.isInteger(start) && Number.isInteger(end))) p.push('non-integer offsets');
  if (!(start >= prevEnd && end > start && end <= text.length)) p.push(`out of order or bounds [${start}, ${end})`);
  if (start > 0 && isLow(text.charCodeAt(start))) p.push('starts inside a surrogate pair');
  if (end < text.length && isLow(text.charCodeAt(end))) p.push('ends inside a surrogate pair');
  if (EDGE_SPACE.test(text.slice(start, end))) p.push('starts or ends with whitespace');
  return p;
}

describe('random mixed-script texts', () => {
  it('give well-formed, ordered sentence and paragraph spans', () => {
    const failures: unknown[] = [];
    for (const text of randomTexts(12345)) {
      const r = engine.analyze(text);
      let prev = 0;
      for (const s of r.sentences) {
        const p = spanProblems(text, s.start, s.end, prev);
        if (p.length) failures.push({ text, span: text.slice(s.start, s.end), p });
        const para = r.paragraphs[s.paragraph];
        if (!para || s.start < para.start || s.end > para.end)
          failures.push({ text, span: text.slice(s.start, s.end), p: ['outside its paragraph'] });
        prev = s.end;
      }
      prev = 0;
      for (const para of r.paragraphs) {
        const p = spanProblems(text, para.start, para.end, prev);
        if (p.length) failures.push({ text, paragraph: text.slice(para.start, para.end), p });
        prev = para.end;
      }
    }
    expect(failures.slice(0, 3)).toEqual([]);
  });

  it('give annotations and bullets that slice back out of the submitted text', () => {
    const failures: unknown[] = [];
    for (const text of randomTexts(777).slice(0, 500)) {
      const a = detector.analyze(text, { sensitivity: 'aggressive' });
      for (const t of a.textAnnotations) {
        const whole = text.slice(t.start, t.end);
        if (whole.length <= 200 ? t.sentence !== whole : !whole.startsWith(t.sentence.slice(0, -1))) failures.push({ text, t });
      }
      for (const b of a.bullets) if (b.example !== text.slice(b.start, b.end)) failures.push({ text, b });
      if (a.bullets.length < 2 || a.bullets.length > 6) failures.push({ text, bullets: a.bullets.length });
    }
    expect(failures.slice(0, 3)).toEqual([]);
  });

  it('shift every span by the length of a prefix paragraph', () => {
    const prefix = '👨‍👩‍👧 Ｆｕｌｌ ﬁne cafe\u0301 𝐛𝐨𝐥𝐝 intro.\r\n\r\n';
    const failures: unknown[] = [];
    for (const text of randomTexts(99).slice(0, 500)) {
      if (!/[\p{L}\p{N}]/u.test(text)) continue;
      const plain = engine.analyze(text).sentences.map((s) => [s.start + prefix.length, s.end + prefix.length]);
      const shifted = engine
        .analyze(prefix + text)
        .sentences.slice(1)
        .map((s) => [s.start, s.end]);
      // The prefix ends a paragraph, so the text's own sentences follow unchanged.
      if (JSON.stringify(shifted) !== JSON.stringify(plain)) failures.push({ text, plain, shifted });
    }
    expect(failures.slice(0, 3)).toEqual([]);
  });
});
