/** Per-request facts decided in onRequest (language, key, start time), keyed by the Request object. */
import type { ApiKeyRow } from '../db/schema';
import type { LabelLang } from '../engine/types';
import { negotiateLang } from '../i18n';

/** What the lifecycle hooks learn about a request before its handler runs. */
export interface RequestContext {
  lang: LabelLang;
  /** The authenticated key, when the route needs one and it was valid. */
  key: ApiKeyRow | null;
  /** performance.now() at arrival. */
  startedAt: number;
  /** Pathname without the query string. */
  path: string;
  /** Words counted so far (for logs and usage events of failed requests). */
  words: number;
}

const contexts = new WeakMap<Request, RequestContext>();

/** Pathname of a request URL without building a URL object. */
export function pathnameOf(url: string): string {
  const start = url.indexOf('/', url.indexOf('//') + 2);
  if (start === -1) return '/';
  const end = url.search(/[?#]/);
  return end === -1 || end < start ? url.slice(start) : url.slice(start, end);
}

function queryLang(url: string): string | null {
  const q = url.indexOf('?');
  if (q === -1 || !url.includes('lang=', q)) return null;
  return new URLSearchParams(url.slice(q + 1)).get('lang');
}

/** Creates (once) and returns the context of a request. */
export function contextOf(request: Request): RequestContext {
  let ctx = contexts.get(request);
  if (!ctx) {
    ctx = {
      lang: negotiateLang(queryLang(request.url), request.headers.get('accept-language')),
      key: null,
      startedAt: performance.now(),
      path: pathnameOf(request.url),
      words: 0,
    };
    contexts.set(request, ctx);
  }
  return ctx;
}
