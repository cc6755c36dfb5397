/**
 * Sentence and paragraph segmentation. Offsets are UTF-16 code units of the text as submitted, end
 * exclusive: for every sentence, text.slice(start, end) must be exactly the sentence written below.
 */
import { beforeAll, describe, expect, it, setDefaultTimeout } from 'bun:test';
import { SUITE_TIMEOUT_MS } from '../timeout';
import type { Engine } from '../../src/detector/score/engine';
import { paragraphTexts, sentenceTexts, sharedEngine } from './fixture';

setDefaultTimeout(SUITE_TIMEOUT_MS);

let engine: Engine;
beforeAll(async () => {
  engine = await sharedEngine();
});

/** Join sentences with a separator; the expected array is the input array itself. */
type Case = [name: string, sentences: string[], separator?: string];

function expectSentences(text: string, expected: string[]): void {
  expect(sentenceTexts(engine, text)).toEqual(expected);
  const r = engine.analyze(text);
  let prev = 0;
  for (const s of r.sentences) {
    expect(Number.isInteger(s.start) && Number.isInteger(s.end)).toBe(true);
    expect(s.start).toBeGreaterThanOrEqual(prev);
    expect(s.end).toBeGreaterThan(s.start);
    expect(s.end).toBeLessThanOrEqual(text.length);
    prev = s.end;
  }
}

const ENGLISH: Case[] = [
  ['plain terminals', ['The cat sat on the mat.', 'It was happy!', 'Was it?', 'Yes.']],
  ['e.g. and Dr. do not end a sentence', ['Use tools, e.g. hammers and saws.', 'Dr. Smith agreed.', 'Mrs. Jones did not.']],
  ['i.e. and etc.', ['Read it, i.e. the book.', 'Buy apples, oranges, etc.', 'Then go home.']],
  ['decimals and versions', ['Pi is 3.14 roughly.', 'Version 2.0.1 shipped.', 'Price is $4.50 today.']],
  ['URLs keep their dots', ['Visit https://example.com/a.b?x=1.', 'Then stop.']],
  ['initials and U.S.', ['He lives in the U.S. now.', 'J. K. Rowling wrote it.']],
  ['ellipses', ['Wait... what?', 'Wait… really?', 'Yes.']],
  ['closing quotes and brackets stay with their sentence', ['He said "stop."', 'A sentence (with parens.)', "'Quoted sentence.'", 'Last.']],
  ['curly quotes', ['She whispered “go home.”', 'He went.']],
];

const SPANISH: Case[] = [
  ['¿ ¡ and Sr.', ['¿Dónde está el Sr. García?', '¡No lo sé!', 'Él comió más.']],
  ['p. ej. does not end a sentence', ['Hay muchas frutas, p. ej. manzanas y peras.', 'Él comió más.']],
  ['Sra. and p. m. before a lower-case word', ['Vino la Sra. Núñez a las 5 p. m. y cenó.', 'Después se fue.']],
  ['decimal comma, Dr.', ['Es el 3,5 por ciento.', 'Llegó el Dr. Pérez.', '¿Vienes?', '¡Claro que sí!']],
  ['accents and ñ', ['Mañana el niño irá a la montaña.', 'Allí verá un águila.', 'Después volverá.']],
];

const EMOJI: Case[] = [
  ['simple emoji before a period', ['I love it 😀.', 'Done.']],
  ['ZWJ family sequence', ['My family 👨‍👩‍👧‍👦 came too!', 'Done.']],
  ['skin tones', ['Wave 👋🏽 hello.', 'Bye.']],
  ['ZWJ with skin tone at sentence start', ['Hi 👋🏽 there.', '👩🏽‍💻 codes daily.', 'I ❤️ it!', '🇪🇸 rocks.']],
  ['emoji run at the start', ['😀😀 Emoji first.', 'Then text.']],
];

describe('sentence offsets', () => {
  for (const [group, cases] of [
    ['English', ENGLISH],
    ['Spanish', SPANISH],
    ['emoji', EMOJI],
  ] as const) {
    describe(group, () => {
      for (const [name, sentences, sep = ' '] of cases) {
        it(`splits ${name}`, () => expectSentences(sentences.join(sep), sentences));
      }
    });
  }

  describe('CJK', () => {
    it('splits on 。 without a following space', () => {
      expectSentences('我喜欢猫。他们很可爱。你呢？', ['我喜欢猫。', '他们很可爱。', '你呢？']);
    });

    it('splits Japanese on 。', () => {
      expectSentences('今日は晴れです。明日は雨です。', ['今日は晴れです。', '明日は雨です。']);
    });

    // BUG (reported to the lead): NFKC (src/detector/score/normalize.ts) turns the fullwidth ！ and ？ into
    // ASCII ! and ?, and the tokenizer's "CJK stops end a sentence without a space" rule
    // (assembly/tokenize.ts, FW_EXCL/FW_QMARK) only sees the ASCII marks, so "雨！本当？" stays one
    // sentence. 。 works because NFKC leaves it alone.
    it('splits on fullwidth ！ and ？ without a following space', () => {
      expectSentences('明日は雨！本当？はい。', ['明日は雨！', '本当？', 'はい。']);
    });

    it('mixes CJK and Latin sentences', () => {
      expectSentences('This is English. 这是中文。And back.', ['This is English.', '这是中文。', 'And back.']);
    });
  });

  describe('CRLF', () => {
    it('ends sentences at CRLF line breaks and keeps offsets in the submitted text', () => {
      expectSentences('First line here.\r\nSecond sentence here.\r\n\r\nNew paragraph now.', [
        'First line here.',
        'Second sentence here.',
        'New paragraph now.',
      ]);
    });

    it('keeps a hard-wrapped sentence (CRLF before a lower-case word) together', () => {
      expectSentences('This is a\r\nwrapped line that goes on. Next one.', ['This is a\r\nwrapped line that goes on.', 'Next one.']);
    });

    it('treats a lone CR and a lone LF alike', () => {
      expectSentences('One here.\rTwo here.\nThree here.', ['One here.', 'Two here.', 'Three here.']);
    });
  });

  describe('zero-width and invisible characters', () => {
    it('keeps words with zero-width characters inside one sentence', () => {
      expectSentences('The wo\u200Brd is hid\u200Cden. Another sen\u200Dtence.', [
        'The wo\u200Brd is hid\u200Cden.',
        'Another sen\u200Dtence.',
      ]);
    });

    it('handles soft hyphens and word joiners', () => {
      expectSentences('Soft hy\u00ADphen here. And \u2060word\u2060 joiner. Ok then.', [
        'Soft hy\u00ADphen here.',
        'And \u2060word\u2060 joiner.',
        'Ok then.',
      ]);
    });

    it('splits across a zero-width space after the period', () => {
      const text = 'Hello.\u200B World here. End. \u200BNext one.';
      expect(sentenceTexts(engine, text)).toEqual(['Hello.', 'World here.', 'End.', 'Next one.']);
    });

    it('skips a leading byte-order mark', () => {
      const text = '\uFEFFHello there. Bye now.';
      const r = engine.analyze(text);
      expect(r.sentences[0].start).toBe(1);
      expect(sentenceTexts(engine, text)).toEqual(['Hello there.', 'Bye now.']);
    });
  });

  describe('NFKC normalisation maps offsets back to the submitted text', () => {
    it('combining accents (one code unit more in the submitted text)', () => {
      expectSentences('Cafe\u0301 is nice. Nin\u0303o y niño.', ['Cafe\u0301 is nice.', 'Nin\u0303o y niño.']);
    });

    it('fullwidth letters', () => {
      expectSentences('Ｔｈｅ ｃａｔ ｓａｔ． Ｉｔ ｗａｓ ｆｉｎｅ．', ['Ｔｈｅ ｃａｔ ｓａｔ．', 'Ｉｔ ｗａｓ ｆｉｎｅ．']);
    });

    it('ligatures and fractions that expand', () => {
      expectSentences('The ﬁnal ﬁx works. Wait… really? Yes ½ done.', ['The ﬁnal ﬁx works.', 'Wait… really?', 'Yes ½ done.']);
    });

    it('mathematical alphanumerics (surrogate pairs that shrink)', () => {
      expectSentences('𝐓𝐡𝐞 𝐞𝐧𝐝. Plain text.', ['𝐓𝐡𝐞 𝐞𝐧𝐝.', 'Plain text.']);
    });
  });

  it('returns no sentence for empty or blank text', () => {
    expect(engine.analyze('').sentences).toEqual([]);
    expect(engine.analyze('  \r\n\t \n').sentences).toEqual([]);
  });

  it('never emits a sentence that starts or ends with whitespace', () => {
    const text = '  Leading spaces.   Trailing spaces.  \n\n  Indented paragraph here.  \r\n';
    expect(sentenceTexts(engine, text)).toEqual(['Leading spaces.', 'Trailing spaces.', 'Indented paragraph here.']);
  });
});

describe('known segmentation gaps (reported to the lead)', () => {
  // BUG: "e.g." / "i.e." are WEAK ends (assembly/tokenize.ts periodStrength: single letter glued to
  // a previous '.'), so a capitalised word after them closes the sentence: "Use cities, e.g." |
  // "Paris and Rome." They practically never end a sentence: treat them like titles (never end).
  it('does not split after e.g. or i.e. before a capitalised word', () => {
    expectSentences('Use cities, e.g. Paris and Rome. Then stop.', ['Use cities, e.g. Paris and Rome.', 'Then stop.']);
    expectSentences('Ask the author, i.e. Jane Smith. She knows.', ['Ask the author, i.e. Jane Smith.', 'She knows.']);
  });

  // BUG: the Spanish abbreviation "EE. UU." (Estados Unidos) splits into three sentences, because
  // "EE" and "UU" are two-letter words, not in ABBREVIATIONS. Doubled-initial plurals (EE. UU.,
  // FF. AA., CC. OO.) should be WEAK like single initials.
  it('keeps the Spanish abbreviation EE. UU. inside its sentence', () => {
    expectSentences('Viajó a EE. UU. el año pasado. Después volvió.', ['Viajó a EE. UU. el año pasado.', 'Después volvió.']);
  });

  // Lower priority: ? and ! are STRONG ends even before a lower-case word, so dialogue tags are cut
  // off: '"Stop!"' | 'he shouted.' A lower-case word after a closing quote usually continues it.
  it('keeps a dialogue tag with its quoted question or exclamation', () => {
    expectSentences('"Are you ok?" she asked. He nodded.', ['"Are you ok?" she asked.', 'He nodded.']);
    expectSentences('“Stop!” he shouted. They stopped.', ['“Stop!” he shouted.', 'They stopped.']);
  });
});

describe('paragraphs', () => {
  it('split on blank lines', () => {
    const text = 'Para one is here. Still para one.\n\nPara two starts. And ends.\n\n\nPara three.';
    expect(paragraphTexts(engine, text)).toEqual(['Para one is here. Still para one.', 'Para two starts. And ends.', 'Para three.']);
  });

  it('split on CRLF blank lines and whitespace-only lines', () => {
    const text = 'First para line one.\n  \nSecond para here.\r\n\t\r\nThird para.';
    expect(paragraphTexts(engine, text)).toEqual(['First para line one.', 'Second para here.', 'Third para.']);
  });

  it('keep a hard-wrapped paragraph together', () => {
    const text = 'line one goes on\nand continues here. Done.\n\nNext paragraph.';
    expect(paragraphTexts(engine, text)).toEqual(['line one goes on\nand continues here. Done.', 'Next paragraph.']);
  });

  it('records which paragraph each sentence belongs to', () => {
    const text = 'A one. A two.\n\nB one.\n\nC one. C two. C three.';
    const r = engine.analyze(text);
    expect(r.sentences.map((s) => s.paragraph)).toEqual([0, 0, 1, 2, 2, 2]);
    expect(r.paragraphs.map((p) => p.sentences)).toEqual([2, 1, 3]);
  });

  it('contain their sentences', () => {
    const text = 'Intro 😀 sentence here.\r\n\r\nSecond ¿párrafo? Sí.\n\n今日は晴れです。';
    const r = engine.analyze(text);
    for (const s of r.sentences) {
      const p = r.paragraphs[s.paragraph];
      expect(s.start).toBeGreaterThanOrEqual(p.start);
      expect(s.end).toBeLessThanOrEqual(p.end);
    }
    expect(paragraphTexts(engine, text)).toEqual(['Intro 😀 sentence here.', 'Second ¿párrafo? Sí.', '今日は晴れです。']);
  });

  it('leave markdown markers out of headings and list items', () => {
    const text = '# Heading here\n\n- item one is here\n- item two is here\n\nSome prose follows. More prose.';
    expect(sentenceTexts(engine, text)).toEqual([
      'Heading here',
      'item one is here',
      'item two is here',
      'Some prose follows.',
      'More prose.',
    ]);
  });
});
