/**
 * The words a profile card uses for the warnings of issue 43 item 4, in English and Spanish: AI examples
 * the model ranks below the human texts, AI examples that differ from the human texts mainly in a
 * surface form (each form, with what to check), and an adapted mode that falls back to calibration-only.
 * Each names its numbers and leaves no placeholder unfilled.
 */
import { describe, expect, it, setDefaultTimeout } from 'bun:test';
import { FORMS } from '../../src/detector/decide/examples.ts';
import type { PublicWarning } from '../../src/web/calibration.ts';
import { warningText } from '../../src/web/profile-view.ts';
import { SUITE_TIMEOUT_MS } from '../timeout';

setDefaultTimeout(SUITE_TIMEOUT_MS);

describe('a profile card’s words for the checks of the AI examples', () => {
  it('says the examples rank below the human texts, with their count and AUROC', () => {
    const w: PublicWarning = { code: 'examples_rank_below_human', language: 'en', auroc: 0.4213, aiTexts: 80 };
    expect(warningText(w, 'en')).toBe(
      'The model reads your 80 AI examples as more human than your human texts (AUROC 0.42): check the labels. Were human texts given as AI examples?',
    );
    expect(warningText(w, 'es')).toStartWith('El modelo lee sus 80 ejemplos de IA como más humanos que sus textos humanos (AUROC 0,42)');
  });

  it('names each form the two sides differ in, its share on each side, and what to check', () => {
    for (const form of FORMS) {
      const w: PublicWarning = {
        code: 'examples_differ_in_form',
        language: 'en',
        form,
        human: 0.02,
        ai: 0.95,
        ...(form === 'opening' ? { word: 'Certainly' } : {}),
      };
      for (const lang of ['en', 'es'] as const) {
        const text = warningText(w, lang);
        expect(text).not.toMatch(/\{\w+\}|undefined/);
        expect(text).toContain(
          lang === 'en' ? '(95% of the examples, 2% of the human texts)' : '(95\u00a0% de los ejemplos, 2\u00a0% de los textos humanos)',
        );
        if (form === 'opening') expect(text.match(/Certainly/g)).toHaveLength(2);
      }
    }
  });

  it('says which mode decides without the adaptation, with what each bar caught', () => {
    const w: PublicWarning = { code: 'mode_fell_back', language: 'en', mode: 'conservative', caught: 31, modelCaught: 40, aiTexts: 100 };
    expect(warningText(w, 'en')).toBe(
      'At Conservative, the adapted score caught fewer of your 100 AI examples (31) than the model alone with your thresholds (40): this mode decides without the adaptation.',
    );
    expect(warningText(w, 'es')).toBe(
      'En modo Conservador, la puntuación adaptada detectó menos de sus 100 ejemplos de IA (31) que el modelo solo con sus umbrales (40): este modo decide sin la adaptación.',
    );
  });
});
