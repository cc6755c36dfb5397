/** Picks the label language from `?lang=` or the Accept-Language header (RFC 9110 §12.5.4). */
import { DEFAULT_LABEL_LANG, LABEL_LANGS, type LabelLang } from '../contract';

/** Languages the catalogues cover (src/contract: one catalogue per label language). */
export const SUPPORTED_LANGS: readonly LabelLang[] = LABEL_LANGS;
/** Used when nothing the caller asks for is supported. */
export const DEFAULT_LANG: LabelLang = DEFAULT_LABEL_LANG;

/** Maps a language tag ("es", "es-ES", "es-419", "EN_us") to a supported language, or null. */
export function matchLang(tag: string | null | undefined): LabelLang | null {
  if (!tag) return null;
  const primary = tag.trim().toLowerCase().split(/[-_]/)[0];
  return (SUPPORTED_LANGS as readonly string[]).includes(primary) ? (primary as LabelLang) : null;
}

/** Best supported language in an Accept-Language value, honouring q-values; null if none. */
export function parseAcceptLanguage(header: string | null | undefined): LabelLang | null {
  if (!header) return null;
  let best: LabelLang | null = null;
  let bestQ = 0;
  for (const part of header.split(',')) {
    const [range, ...params] = part.split(';');
    let q = 1;
    for (const param of params) {
      const [name, value] = param.split('=');
      if (name?.trim().toLowerCase() === 'q') {
        const parsed = Number(value?.trim());
        q = Number.isFinite(parsed) ? Math.min(Math.max(parsed, 0), 1) : 0;
      }
    }
    // q=0 means "not acceptable"; the first range wins ties, as listed order expresses preference.
    const lang = range?.trim() === '*' ? DEFAULT_LANG : matchLang(range);
    if (lang && q > bestQ) {
      best = lang;
      bestQ = q;
    }
  }
  return best;
}

/** The label language for a request: `?lang=` wins, then Accept-Language, then English. */
export function negotiateLang(queryLang: string | null | undefined, acceptLanguage: string | null | undefined): LabelLang {
  return matchLang(queryLang) ?? parseAcceptLanguage(acceptLanguage) ?? DEFAULT_LANG;
}
