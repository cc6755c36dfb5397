/** Message catalogues and lookup: `t(lang, 'errors.quota_exceeded', { words: 10 })`. */
import type { LabelLang } from '../contract';
import { en, type Catalogue } from './en';
import { es } from './es';

export { DEFAULT_LANG, matchLang, negotiateLang, parseAcceptLanguage, SUPPORTED_LANGS } from './negotiate';
export type { Catalogue } from './en';

const CATALOGUES: Readonly<Record<LabelLang, Catalogue>> = { en, es };

/** The whole catalogue for a language. */
export function messages(lang: LabelLang): Catalogue {
  return Object.hasOwn(CATALOGUES, lang) ? CATALOGUES[lang] : en;
}

type Params = Record<string, string | number>;

function lookup(catalogue: unknown, path: string): string | undefined {
  let node: unknown = catalogue;
  for (const segment of path.split('.')) {
    if (node === null || typeof node !== 'object' || !Object.hasOwn(node, segment)) return undefined;
    node = (node as Record<string, unknown>)[segment];
  }
  return typeof node === 'string' ? node : undefined;
}

/** Resolved templates per language: catalogues are frozen data, and labels are looked up on every detection. */
const templates: Record<LabelLang, Map<string, string>> = { en: new Map(), es: new Map() };

function template(lang: LabelLang, path: string): string {
  const cache = Object.hasOwn(templates, lang) ? templates[lang] : templates.en;
  let found = cache.get(path);
  if (found === undefined) {
    found = lookup(messages(lang), path) ?? lookup(en, path) ?? path;
    cache.set(path, found);
  }
  return found;
}

/**
 * An error's `language` param is a language code ("en"); its message names the language in words
 * ("English", "inglés"), as a person reads it (issue 39: the playground said `language "en"`).
 */
function withLanguageName(lang: LabelLang, params: Params): Params {
  const code = params.language;
  return typeof code === 'string' && Object.hasOwn(en.languages, code) ? { ...params, language: t(lang, `languages.${code}`) } : params;
}

/** The error code whose message depends on `params.kind`. */
const EXTRACT_LIMIT = 'extract_limit';

/**
 * An error code's localized message. extract_limit has one message per limit: the one named by
 * `params.kind` (see extractLimits in the catalogues), so the message quotes the limit that was hit.
 * Another code may say more about one case with `params.variant`: `errorVariants.<code>_<variant>`
 * (the code, which clients branch on, stays the same).
 */
export function errorMessage(lang: LabelLang, code: string, rawParams: Params = {}): string {
  const params = withLanguageName(lang, rawParams);
  const kind = params.kind;
  if (code === EXTRACT_LIMIT && typeof kind === 'string' && Object.hasOwn(en.extractLimits, kind)) {
    return t(lang, `extractLimits.${kind}`, params);
  }
  const variant = typeof params.variant === 'string' ? `${code}_${params.variant}` : null;
  if (variant !== null && Object.hasOwn(en.errorVariants, variant)) return t(lang, `errorVariants.${variant}`, params);
  return t(lang, `errors.${code}`, params);
}

/** Plural rules per label language (Intl.PluralRules: "1 sentence", "2 sentences"; "1 frase", "2 frases"). */
const pluralRules: Record<LabelLang, Intl.PluralRules> = { en: new Intl.PluralRules('en'), es: new Intl.PluralRules('es') };

/**
 * Numbers and shares as the label language writes them ("1,980" / "1980", "0.6%" / "0,6 %"), with the
 * same fallback to English as the labels. Built once: an Intl.NumberFormat costs ~20 us to construct,
 * which every detection would pay for its measured-error sentence.
 */
const numberFormats: Record<LabelLang, { count: Intl.NumberFormat; share: Intl.NumberFormat }> = {
  en: { count: new Intl.NumberFormat('en'), share: new Intl.NumberFormat('en', { style: 'percent', maximumFractionDigits: 1 }) },
  es: { count: new Intl.NumberFormat('es'), share: new Intl.NumberFormat('es', { style: 'percent', maximumFractionDigits: 1 }) },
};
const formatsOf = (lang: LabelLang) => (Object.hasOwn(numberFormats, lang) ? numberFormats[lang] : numberFormats.en);

/** A count in the label language. */
export function formatCount(lang: LabelLang, n: number): string {
  return formatsOf(lang).count.format(n);
}

/** A share (0 to 1) as a percentage with at most one decimal, in the label language. */
export function formatShare(lang: LabelLang, share: number): string {
  return formatsOf(lang).share.format(share);
}

/** `{name, plural, one {…} other {…}}` (ICU's plural syntax, without nesting; `#` is the number). */
const PLURAL = /\{(\w+), plural,((?:\s*(?:zero|one|two|few|many|other) \{[^{}]*\})+)\s*\}/g;
const BRANCH = /(zero|one|two|few|many|other) \{([^{}]*)\}/g;

function plural(lang: LabelLang, text: string, params: Params): string {
  return text.replace(PLURAL, (whole, name: string, branches: string) => {
    const n = Number(params[name]);
    if (!Number.isFinite(n)) return whole;
    const category = (Object.hasOwn(pluralRules, lang) ? pluralRules[lang] : pluralRules.en).select(n);
    const forms = new Map([...branches.matchAll(BRANCH)].map((m) => [m[1], m[2]] as const));
    return (forms.get(category) ?? forms.get('other') ?? whole).replace(/#/g, String(n));
  });
}

/**
 * Localized string at a dotted path with `{name}` placeholders and `{name, plural, one {…} other {…}}`
 * forms filled; falls back to English, then to the path.
 */
export function t(lang: LabelLang, path: string, params: Params = {}): string {
  const text = template(lang, path);
  if (!text.includes('{')) return text;
  const chosen = text.includes(', plural,') ? plural(lang, text, params) : text;
  return chosen.replace(/\{(\w+)\}/g, (whole, name: string) => (name in params ? String(params[name]) : whole));
}
