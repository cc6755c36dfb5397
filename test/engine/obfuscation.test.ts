/**
 * Normalisation against cheap evasion (issue #2 item 3): zero-width characters, Cyrillic/Greek
 * look-alikes and fullwidth or mathematical letters must not move the score (within 2 points of the
 * clean text), and they trigger the obfuscation dimension while the clean text does not.
 */
import { beforeAll, describe, expect, it, setDefaultTimeout } from 'bun:test';
import { SUITE_TIMEOUT_MS } from '../timeout';
import type { Detector } from '../../src/detector/types';
import type { Engine } from '../../src/detector/score/engine';
import { sharedDetector, sharedEngine } from './fixture';
import { AI_EN, AI_ES, HUMAN_EN, HUMAN_EN_2, HUMAN_ES } from './texts';

setDefaultTimeout(SUITE_TIMEOUT_MS);

let engine: Engine;
let detector: Detector;
beforeAll(async () => {
  engine = await sharedEngine();
  detector = await sharedDetector();
});

/** Largest score difference (points out of 100) between a disguised text and its clean form. */
const MAX_SCORE_DRIFT = 2;

const CYRILLIC: Record<string, string> = { a: 'а', e: 'е', o: 'о', c: 'с', p: 'р', x: 'х', y: 'у', i: 'і', s: 'ѕ' };
const cyrillic = (letters: string) => (t: string) => t.replace(new RegExp(`[${letters}]`, 'g'), (c) => CYRILLIC[c]);
/** A zero-width character after the first two letters of every word of 4+ letters. */
const inside = (mark: string) => (t: string) => t.replace(/\b(\p{L}{2})(\p{L}{2,})/gu, `$1${mark}$2`);

const DISGUISES: Record<string, (t: string) => string> = {
  'zero-width spaces inside words': inside('\u200B'),
  'zero-width joiners inside words': inside('\u200D'),
  'soft hyphens inside words': inside('\u00AD'),
  'Cyrillic о for o': cyrillic('o'),
  'Cyrillic о and а for o and a': cyrillic('oa'),
  'Greek ο for o': (t) => t.replace(/o/g, 'ο'),
  'fullwidth letters and digits': (t) => t.replace(/[A-Za-z0-9]/g, (c) => String.fromCharCode(c.charCodeAt(0) + 0xfee0)),
  'mathematical bold letters': (t) => t.replace(/[a-z]/g, (c) => String.fromCodePoint(0x1d41a + c.charCodeAt(0) - 97)),
  'Cyrillic о plus zero-width spaces': (t) => inside('\u200B')(cyrillic('o')(t)),
  // Issue 23: an acute after every letter moved AI_EN from 98 to 43 (á é ó compose, t́ h́ stay).
  'a combining acute after every letter': (t) => t.replace(/\p{L}/gu, '$&\u0301'),
  'combining marks stacked over consonants': (t) => t.replace(/[bdfhtv]/g, '$&\u0323\u0302'),
};

const TEXTS: Record<string, string> = { AI_EN, HUMAN_EN, HUMAN_EN_2, AI_ES, HUMAN_ES };

const obfuscationDetected = (text: string) => detector.analyze(text).dimensions.find((d) => d.id === 'obfuscation')?.detected;

/**
 * Issue 12: only characters changed inside words are a trick. Invisible characters between words
 * (a zero-width space pasted from the web, 11 of 300 human Wikipedia texts) are read through but
 * do not raise the obfuscation warning.
 */
const BETWEEN_WORDS: Record<string, (t: string) => string> = {
  'word joiners before words': (t) => t.replace(/ /g, ' \u2060'),
  'zero-width spaces after words': (t) => t.replace(/ /g, '\u200B '),
};

describe('invisible characters between words', () => {
  for (const [name, clean] of Object.entries(TEXTS)) {
    for (const [how, stray] of Object.entries(BETWEEN_WORDS)) {
      it(`${name} with ${how} scores like the clean text and does not trigger obfuscation`, () => {
        const text = stray(clean);
        expect(text).not.toBe(clean);
        expect(Math.abs(engine.analyze(text).score - engine.analyze(clean).score)).toBeLessThanOrEqual(MAX_SCORE_DRIFT);
        expect(engine.analyze(text).obfuscation.invisible).toBe(0);
        expect(obfuscationDetected(text)).toBe(false);
      });
    }
  }
});

describe('disguised text', () => {
  for (const [name, clean] of Object.entries(TEXTS)) {
    describe(name, () => {
      it('is clean: no obfuscation found', () => {
        const r = engine.analyze(clean);
        expect(r.obfuscation).toEqual({ invisible: 0, homoglyphs: 0, compatLetters: 0, strayMarks: 0 });
        expect(obfuscationDetected(clean)).toBe(false);
      });

      for (const [how, disguise] of Object.entries(DISGUISES)) {
        it(`with ${how} scores like the clean text and triggers obfuscation`, () => {
          const text = disguise(clean);
          expect(text).not.toBe(clean);
          const a = engine.analyze(clean);
          const b = engine.analyze(text);
          expect(b.language).toBe(a.language);
          expect(Math.abs(b.score - a.score)).toBeLessThanOrEqual(MAX_SCORE_DRIFT);
          expect(b.sentences.length).toBe(a.sentences.length);
          const found = b.obfuscation.invisible + b.obfuscation.homoglyphs + b.obfuscation.compatLetters + b.obfuscation.strayMarks;
          expect(found).toBeGreaterThan(0);
          expect(obfuscationDetected(text)).toBe(true);
        });
      }
    });
  }

  // BUG (reported to the lead): homoglyph mapping is switched on only when Latin letters outnumber
  // Cyrillic/Greek ones 3 to 1 (assembly/tokenize.ts decideHomoglyphMode). Replacing every a, e and o
  // with Cyrillic look-alikes (about 30% of English letters) turns it off: the text is read as
  // "other" language, AI_EN drops from 100 to ~41, and the obfuscation dimension stays quiet. Mapping
  // should depend on look-alike Cyrillic letters mixed into Latin words, not on the overall ratio.
  it('with Cyrillic а, е and о for a, e and o scores like the clean text and triggers obfuscation', () => {
    for (const clean of [AI_EN, AI_ES]) {
      const text = cyrillic('aeo')(clean);
      const a = engine.analyze(clean);
      const b = engine.analyze(text);
      expect(b.language).toBe(a.language);
      expect(Math.abs(b.score - a.score)).toBeLessThanOrEqual(MAX_SCORE_DRIFT);
      expect(obfuscationDetected(text)).toBe(true);
    }
  });
});

describe('accents as typed', () => {
  // The model was trained on NFKC text: decomposed accents compose to the same letters, so a text
  // scores exactly the same precomposed or decomposed, and neither form is obfuscation.
  for (const [name, clean] of Object.entries(TEXTS)) {
    it(`${name} decomposed (NFD) scores exactly as composed and is not obfuscation`, () => {
      const a = engine.analyze(clean);
      const b = engine.analyze(clean.normalize('NFD'));
      expect(b.probability).toBe(a.probability);
      expect(b.sentences.map((s) => s.logit)).toEqual(a.sentences.map((s) => s.logit));
      expect(b.obfuscation.strayMarks).toBe(0);
      expect(obfuscationDetected(clean.normalize('NFD'))).toBe(false);
    });
  }

  // Once marks are read as a disguise, every mark over a Latin letter is dropped, accents typed
  // decomposed included (educacio\u0301n reads as educacion): the score may move a little more then.
  it('notation with a few combining marks (x̄, the sample mean) is not obfuscation and scores as written before', () => {
    const text = `${AI_EN} The sample mean x\u0304 and the mean y\u0304 are compared, with x\u0304 below y\u0304 in most runs.`;
    const r = engine.analyze(text);
    expect(r.obfuscation.strayMarks).toBe(0);
    expect(obfuscationDetected(text)).toBe(false);
  });

  it('an obfuscated AI text is never given a human-side verdict, decomposed accents or not', () => {
    for (const clean of [AI_EN, AI_ES, AI_ES.normalize('NFD')]) {
      const r = detector.analyze(clean.replace(/\p{L}/gu, '$&\u0301'));
      expect(r.dimensions.find((d) => d.id === 'obfuscation')?.detected).toBe(true);
      expect(r.verdictKey).not.toBe('human');
      expect(r.verdictKey).not.toBe('likely_human');
    }
  });
});

describe('genuine non-Latin text', () => {
  it('is not read as homoglyphs', () => {
    const russian = 'Мы пошли в парк. Там было очень красиво и тихо.';
    const greek = 'Η Αθήνα είναι η πρωτεύουσα της Ελλάδας. Έχει πολλά μουσεία.';
    for (const text of [russian, greek]) {
      expect(engine.analyze(text).obfuscation.homoglyphs).toBe(0);
      expect(obfuscationDetected(text)).toBe(false);
    }
  });

  // BUG (reported to the lead): normalizeText counts as a "compat letter" (disguise) every code point
  // from U+1D00 up that NFKC rewrites into something with a Latin letter or digit. That includes
  // ordinary typography: the ligatures ﬁ ﬂ ﬃ that PDF text extraction is full of, №, ℃, Ⅳ,
  // superscript ordinals (5ᵗʰ), CJK unit squares (㎏) and the fullwidth digits of Japanese and Chinese
  // text (２０２４年). Each turns the obfuscation dimension on and the bullet tells the writer they used
  // "a trick used to evade detectors". Count only fullwidth Latin letters (U+FF21-FF3A, FF41-FF5A)
  // and mathematical alphanumerics (U+1D400-1D7FF), the disguises actually used.
  it('ordinary typographic characters are not obfuscation', () => {
    const base =
      'The results were published in the journal last year and the committee reviewed every section carefully before approving the final version of the report.';
    const texts = [
      `${base.replace('final', 'ﬁnal').replace('officially', 'oﬃcially')} It reﬂects the data.`,
      `${base} See document № 5 for details.`,
      `${base} The lab was kept at 21 ℃ throughout.`,
      `${base} Chapter Ⅳ covers the method.`,
      `${base} It was the 5ᵗʰ edition.`,
      `${base} The parcel weighed 5 ㎏.`,
      '２０２４年に東京で会議が開かれました。参加者は１５０人でした。',
    ];
    for (const text of texts)
      expect({ text: text.slice(-30), obfuscation: obfuscationDetected(text) }).toEqual({ text: text.slice(-30), obfuscation: false });
  });

  // BUG (reported to the lead): in mostly-Latin text every Cyrillic/Greek word with a look-alike letter
  // counts as a homoglyph (assembly/tokenize.ts scanWord sets Info.HOMOGLYPH for any mapped letter),
  // so an English essay quoting "Фёдор Достоевский" or "λόγος" is told it hides look-alike letters.
  // Count a homoglyph only in a word that also has Latin letters (or consists only of look-alikes).
  it('a Russian name or a Greek word quoted in English prose is not obfuscation', () => {
    const texts = [
      'The novel was written by Фёдор Достоевский in 1866. It is still widely read today in many languages.',
      'The Greek word λόγος has many meanings in philosophy. Students often translate it simply as reason.',
    ];
    for (const text of texts) {
      expect(engine.analyze(text).obfuscation.homoglyphs).toBe(0);
      expect(obfuscationDetected(text)).toBe(false);
    }
  });
});
