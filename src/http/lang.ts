/** The label language of a request, negotiated once and put into Elysia's context (`lang`), with Content-Language and Vary. */
import { Elysia } from 'elysia';
import type { LabelLang } from '../contract';
import { negotiateLang } from '../i18n';
import { addVary } from './vary';

function queryLang(url: string): string | null {
  const q = url.indexOf('?');
  if (q === -1 || !url.includes('lang=', q)) return null;
  return new URLSearchParams(url.slice(q + 1)).get('lang');
}

/** The language for a request: `?lang=`, then Accept-Language, then English. */
export function requestLang(request: Request): LabelLang {
  return negotiateLang(queryLang(request.url), request.headers.get('accept-language'));
}

/** Elysia plugin: derives `lang` (a batch's form field may change it later) and `startedAt` for every request. */
export function langPlugin() {
  return new Elysia({ name: 'lang' }).derive({ as: 'global' }, function negotiate({ request, set }) {
    const lang = requestLang(request);
    set.headers['content-language'] = lang;
    set.headers.vary = addVary(set.headers.vary, 'Accept-Language');
    return {
      lang,
      /** performance.now() when the request's hooks began (its duration in logs and usage events). */
      startedAt: performance.now(),
      /** Words counted so far: logged and recorded for requests that fail after counting. */
      words: 0,
    };
  });
}
