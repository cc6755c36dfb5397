/**
 * CORS for browser apps on other origins (CORS_ORIGINS), after the Fetch standard's CORS protocol
 * (https://fetch.spec.whatwg.org/#http-cors-protocol) and modelled on Hono's cors middleware.
 * Off (not mounted) by default: then OPTIONS answers 405 like any other unrouted method.
 */
import { Elysia } from 'elysia';
import type { CorsOrigins } from '../config';
import { API_KEY_HEADER } from './auth';
import { REQUEST_ID_HEADER, requestIdOf } from './request-id';
import { addVary } from './vary';

/** Methods a browser may use cross-origin (the API's; OPTIONS is the preflight itself). */
export const CORS_ALLOW_METHODS = ['GET', 'HEAD', 'POST', 'DELETE'] as const;
/**
 * Request headers a browser may send: the key (either header), a JSON Content-Type (not
 * CORS-safelisted, so it triggers the preflight), Accept-Language (safelisted only for some
 * values), a retry's Idempotency-Key and the client's own request id.
 */
export const CORS_ALLOW_HEADERS = [
  API_KEY_HEADER,
  'Authorization',
  'Content-Type',
  'Accept-Language',
  'Idempotency-Key',
  REQUEST_ID_HEADER,
] as const;
/** Response headers a script may read besides the CORS-safelisted ones (Content-Language is one already). */
export const CORS_EXPOSE_HEADERS = [
  'X-RateLimit-Limit',
  'X-RateLimit-Remaining',
  'X-RateLimit-Reset',
  'Retry-After',
  'RateLimit',
  'RateLimit-Policy',
  'WWW-Authenticate',
  REQUEST_ID_HEADER,
  'Idempotent-Replayed',
] as const;
/** How long a browser may reuse a preflight answer: a changed CORS_ORIGINS reaches browsers within 10 minutes. */
export const CORS_MAX_AGE_SECONDS = 600;

/** Options of the CORS plugin: the granted origins (config.corsOrigins); null mounts nothing. */
export interface CorsOptions {
  origins: CorsOrigins | null;
}

/**
 * Fetch's "CORS-preflight request": OPTIONS with an Origin and Access-Control-Request-Method
 * (https://fetch.spec.whatwg.org/#cors-preflight-request). Any other OPTIONS is routed as usual.
 */
function isPreflight(request: Request): boolean {
  return request.method === 'OPTIONS' && request.headers.has('origin') && request.headers.has('access-control-request-method');
}

/**
 * Elysia plugin: grants the configured origins exactly. A preflight is answered 204 at once
 * (before the key check: browsers never send credentials or custom headers on it); other
 * responses get Access-Control-Allow-Origin and -Expose-Headers when the Origin is granted.
 */
export function corsPlugin({ origins }: CorsOptions) {
  const plugin = new Elysia({ name: 'cors' });
  if (origins === null) return plugin;
  const any = origins === '*';
  const granted = new Set(any ? [] : origins);
  // The value of Access-Control-Allow-Origin for a request's Origin, or null for no grant. The
  // Origin is compared as sent: browsers serialize it (https://fetch.spec.whatwg.org/#origin-header).
  const allowOrigin = (origin: string | null): string | null => (any ? '*' : origin !== null && granted.has(origin) ? origin : null);
  return plugin.onRequest(function cors({ request, set }) {
    const allowed = allowOrigin(request.headers.get('origin'));
    const headers: Record<string, string> = {};
    // "CORS protocol and HTTP caches": a static `*` needs no Vary; an answer that depends on the
    // Origin says so on every response, granted or not, so a cache never serves one origin's grant to another.
    if (!any) headers.vary = addVary(set.headers.vary, 'Origin');
    if (allowed !== null) headers['access-control-allow-origin'] = allowed;
    if (isPreflight(request)) {
      // Answered before set.headers applies: the request id is added here.
      headers['x-request-id'] = requestIdOf(request, set.headers);
      if (allowed !== null) {
        headers['access-control-allow-methods'] = CORS_ALLOW_METHODS.join(', ');
        headers['access-control-allow-headers'] = CORS_ALLOW_HEADERS.join(', ');
        headers['access-control-max-age'] = String(CORS_MAX_AGE_SECONDS);
      }
      // A preflight must get an "ok status" (2xx) to pass; with no grant the browser stops there anyway.
      return new Response(null, { status: 204, headers });
    }
    if (allowed !== null) headers['access-control-expose-headers'] = CORS_EXPOSE_HEADERS.join(', ');
    Object.assign(set.headers, headers);
  });
}
