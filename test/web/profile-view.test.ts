/**
 * The words a profile card uses for what adapting did and for the API's warnings (issues 38 and 39
 * item 3), for every reason the API gives, in English and Spanish: each names its numbers, and none
 * leaves a placeholder unfilled. (The browser test shows them on the page for the reasons a real
 * server gives from the page: adapted, too few AI examples, a mode without a bar.)
 */
import { describe, expect, it, setDefaultTimeout } from 'bun:test';
import type { NOT_ADAPTED_REASONS } from '../../src/detector/decide/adaptation.ts';
import type { PublicLanguage, PublicWarning } from '../../src/web/calibration.ts';
import { adaptationText, warningText } from '../../src/web/profile-view.ts';
import type { UiLang } from '../../src/web/strings.ts';
import { SUITE_TIMEOUT_MS } from '../timeout';

setDefaultTimeout(SUITE_TIMEOUT_MS);

const LANGS: UiLang[] = ['en', 'es'];
type Reason = (typeof NOT_ADAPTED_REASONS)[number];
const none = (reason: Reason, aiTexts: number): Pick<PublicLanguage, 'adaptation' | 'notAdapted'> => ({
  adaptation: null,
  notAdapted: { reason, aiTexts, minAiTexts: 50, auroc: null },
});
const warning = (reason: Exclude<Reason, 'no_ai_texts'>, aiTexts: number): PublicWarning => ({
  code: 'not_adapted',
  language: 'en',
  reason,
  aiTexts,
  needed: 50,
});

describe('a profile card’s words for adapting', () => {
  it('says what an adapted language catches of the examples at balanced, beside the model alone', () => {
    const mode = { thresholdLogit: 0.5, flagged: 1, texts: 150, rate: 0.006667, upperBound: 0.031, thresholdScore: 62 };
    const modes = {
      conservative: { ...mode, caught: 70, catchRate: 0.875, modelCaught: 9, modelCatchRate: 0.1125 },
      balanced: { ...mode, caught: 80, catchRate: 1, modelCaught: 26, modelCatchRate: 0.325 },
      aggressive: { ...mode, caught: 80, catchRate: 1, modelCaught: 47, modelCatchRate: 0.5875 },
    };
    const language = {
      // (`as never`: the schema's Static type of `docTypes`, a t.Record keyed by a UnionEnum, is `never`.)
      adaptation: { aiTexts: 80, docTypes: { review: 80 } as never, auroc: { adapted: 1, model: 0.8 }, features: 2000, modes },
      notAdapted: null,
    };
    expect(adaptationText(language, undefined, 'en')).toEqual({
      state: 'adapted',
      text: 'Adapted. On your 80 AI examples, this profile catches 100% at balanced; the model alone 32.5% (cross-validated: each example scored by a fit that never saw it).',
    });
    expect(adaptationText(language, undefined, 'es').text).toStartWith(
      // Intl writes a no-break space before the Spanish percent sign.
      'Adaptado. De sus 80 ejemplos de IA, este perfil detecta el 100\u00a0% en modo equilibrado; el modelo solo, el 32,5\u00a0%',
    );
  });

  it('says why a language was not adapted, for every reason, with the API’s warning as the one source', () => {
    const en: Record<Exclude<Reason, 'no_ai_texts'>, string> = {
      too_few_ai_texts: 'Not adapted: too few AI examples (30 of the 50 needed). This language is calibration only.',
      not_separable:
        'Not adapted: your 60 AI examples cannot be told from your human texts, so what the profile learned from them is not applied. This language is calibration only.',
      no_gain:
        'Not adapted: adapting caught no more of your 60 AI examples than the model alone, so it is not applied. This language is calibration only.',
      examples_look_human:
        'Not adapted: what sets your 60 AI examples apart from your human texts is also written by other human writers, so once the thresholds protect them nothing is gained. This language is calibration only: check that the examples are AI text.',
    };
    for (const [reason, text] of Object.entries(en) as [Exclude<Reason, 'no_ai_texts'>, string][]) {
      const n = reason === 'too_few_ai_texts' ? 30 : 60;
      expect(adaptationText(none(reason, n), warning(reason, n), 'en')).toEqual({ state: 'not-adapted', text });
      // Without the warning (a profile stored before warnings), the same words from `notAdapted`.
      expect(adaptationText(none(reason, n), undefined, 'en')).toEqual({ state: 'not-adapted', text });
      for (const lang of LANGS) {
        const said = warningText(warning(reason, n), lang);
        expect(said).toContain(String(n));
        expect(said).not.toMatch(/[{}]/);
      }
    }
    expect(warningText(warning('too_few_ai_texts', 30), 'es')).toBe(
      'No adaptado: pocos ejemplos de IA (30 de los 50 necesarios). Este idioma es solo de calibración.',
    );
    // No AI examples given: calibration-only was asked for, so it is said, not warned about.
    expect(adaptationText(none('no_ai_texts', 0), undefined, 'en')).toEqual({
      state: 'calibration-only',
      text: 'Calibration only: no AI examples of this language were given.',
    });
  });

  it('says which mode has no bar of its own, with the texts it has and needs', () => {
    const w: PublicWarning = { code: 'mode_not_covered', language: 'en', mode: 'conservative', texts: 75, needed: 99 };
    expect(warningText(w, 'en')).toBe(
      'Conservative has no bar of its own: 75 texts, 99 needed. Detections at this sensitivity use the default threshold.',
    );
    expect(warningText(w, 'es')).toBe(
      'El modo Conservador no tiene umbral propio: 75 textos, hacen falta 99. Las detecciones con esta sensibilidad usan el umbral por defecto.',
    );
  });
});
