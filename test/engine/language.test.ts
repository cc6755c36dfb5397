/**
 * Language of the text (issue #2 item 2: `en`/`es`/other), detected from stop words in the wasm
 * core; it picks the scoring model and the lexicons. The caller's label language never changes it.
 */
import { beforeAll, describe, expect, it, setDefaultTimeout } from 'bun:test';
import { SUITE_TIMEOUT_MS } from '../timeout';
import type { Engine } from '../../src/detector/score/engine';
import { sharedEngine } from './fixture';
import { AI_EN, AI_ES, HUMAN_EN, HUMAN_EN_2, HUMAN_ES } from './texts';

setDefaultTimeout(SUITE_TIMEOUT_MS);

let engine: Engine;
beforeAll(async () => {
  engine = await sharedEngine();
});

const lang = (text: string) => engine.analyze(text).language;

describe('language detection', () => {
  it('detects English', () => {
    for (const text of [
      AI_EN,
      HUMAN_EN,
      HUMAN_EN_2,
      'The cat sat on the mat.',
      'THE CAT SAT ON THE MAT AND IT WAS VERY HAPPY WITH ITS LIFE IN THE HOUSE.',
    ]) {
      expect(lang(text)).toBe('en');
    }
  });

  it('detects Spanish, with or without accents', () => {
    for (const text of [
      AI_ES,
      HUMAN_ES,
      'El gato está en la casa.',
      'el gato esta en la casa y no quiere salir porque hace mucho frio afuera y esta lloviendo',
    ]) {
      expect(lang(text)).toBe('es');
    }
  });

  it('says "other" for French, German, Russian, Chinese, code and symbols', () => {
    const others = [
      "Le chat est assis sur le tapis. Il fait beau aujourd'hui et nous allons au marché avec les enfants pour acheter des fruits.",
      'Die Katze sitzt auf der Matte. Heute ist schönes Wetter und wir gehen mit den Kindern auf den Markt, um Obst zu kaufen.',
      'Кошка сидит на ковре. Сегодня хорошая погода, и мы идём на рынок с детьми, чтобы купить фрукты.',
      '今天天气很好，我们和孩子们一起去市场买水果。猫坐在垫子上。',
      'function add(a, b) { return a + b; } const x = add(1, 2); console.log(x);',
      '😀 😀 😀 !!! ???',
      '',
    ];
    for (const text of others) expect({ text: text.slice(0, 20), lang: lang(text) }).toEqual({ text: text.slice(0, 20), lang: 'other' });
  });

  it('scores "other" text with the English model parameters and can be forced to a language', () => {
    const text = 'Die Katze sitzt auf der Matte. Heute ist schönes Wetter und wir gehen auf den Markt.';
    const r = engine.analyze(text);
    expect(r.language).toBe('other');
    expect(engine.analyze(text, 'en').probability).toBe(r.probability);
    expect(engine.analyze(HUMAN_ES, 'en').language).toBe('en');
  });

  // Portuguese, Italian and Catalan share "de", "la", "que", "el" with Spanish; their own function
  // words (NEIGHBOUR_STOP in src/detector/score/lexicons.ts) keep them from being scored as Spanish.
  it('does not call Portuguese, Italian or Catalan Spanish', () => {
    const texts = [
      'O gato está sentado no tapete. Hoje está um belo dia e nós vamos ao mercado com as crianças para comprar frutas e legumes.',
      'Il gatto è seduto sul tappeto. Oggi è una bella giornata e andiamo al mercato con i bambini per comprare la frutta e la verdura.',
      'El gat està assegut a la catifa. Avui fa bon temps i anem al mercat amb els nens per comprar fruita i verdura.',
    ];
    for (const text of texts) expect(lang(text)).toBe('other');
  });
});
