/**
 * Languages, defined once: the languages a text is scored in (each has its own model parameters),
 * the language a text can be detected as, and the languages of labels and messages.
 */

/** Languages the model scores, each with its own lexicons and parameters (model.json keys). */
export const MODEL_LANGS = ['en', 'es'] as const;
export type ModelLang = (typeof MODEL_LANGS)[number];

/** Languages a text can be detected as, in the order of the wasm core's ids (assembly/token.ts `Doc.LANG`). */
export const TEXT_LANGS = [...MODEL_LANGS, 'other'] as const;
export type TextLang = (typeof TEXT_LANGS)[number];

/** The wasm core's id of each text language (its index in TEXT_LANGS; test/engine/layout.test.ts checks assembly/ agrees). */
export const LANG_ID = { en: 0, es: 1, other: 2 } as const satisfies Record<TextLang, number>;
/** Ask the wasm core to detect the language. */
export const LANG_DETECT = 3;

/** Model parameters a text language is scored with ('other' reads English). */
export function modelLang(lang: TextLang): ModelLang {
  return lang === 'es' ? 'es' : 'en';
}

/** Languages of labels and messages (src/i18n has one catalogue each). */
export const LABEL_LANGS = ['en', 'es'] as const;
export type LabelLang = (typeof LABEL_LANGS)[number];
/** Used when nothing the caller asks for is supported. */
export const DEFAULT_LABEL_LANG: LabelLang = 'en';
