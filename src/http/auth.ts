/** API-key authentication: derives `key` into Elysia's context for the protected routes (before any body is read). */
import { Elysia } from 'elysia';
import type { ApiKey } from '../store/types';
import { ApiError } from './errors';
import { matchesRoute, routePath } from './routes';

/** Header carrying the key (matched case-insensitively, as all HTTP field names). */
export const API_KEY_HEADER = 'X-API-Key';

/** `Authorization: Bearer <token>` (RFC 6750 §2.1; the scheme is case-insensitive, RFC 9110 §11.1). */
const BEARER = /^Bearer\s+(\S+)\s*$/i;

/**
 * The secret a request presents: `X-API-Key`, or else `Authorization: Bearer ak_...` (what many
 * HTTP clients send for an API key). null when neither is there. X-API-Key wins when both are sent.
 */
export function presentedSecret(headers: Headers): string | null {
  const apiKey = headers.get(API_KEY_HEADER);
  if (apiKey !== null && apiKey.trim() !== '') return apiKey;
  const authorization = headers.get('authorization');
  if (authorization === null) return apiKey;
  // Another scheme (Basic, ...) is not a key of ours: an unknown key, not a missing one.
  return BEARER.exec(authorization)?.[1] ?? authorization;
}

/**
 * `Scheme credentials` (RFC 9110 §11.4): the scheme is a token. Quoted back in the message only
 * when it is one, and at most 32 characters long, so the answer never echoes arbitrary bytes.
 */
const SCHEME_AND_CREDENTIALS = /^([!#$%&'*+.^_`|~0-9A-Za-z-]{1,32})\s+\S/;

/**
 * The scheme of an `Authorization: <Scheme> <credentials>` header that is not Bearer (`Token`,
 * `Basic`, ...), when that header is what the request presents (no X-API-Key); null otherwise. A
 * bare value without a scheme is still looked up as a key, as before.
 */
export function unsupportedScheme(headers: Headers): string | null {
  const apiKey = headers.get(API_KEY_HEADER);
  if (apiKey !== null && apiKey.trim() !== '') return null;
  const scheme = SCHEME_AND_CREDENTIALS.exec(headers.get('authorization')?.trim() ?? '')?.[1];
  return scheme === undefined || scheme.toLowerCase() === 'bearer' ? null : scheme;
}

/** Looks a secret up: the active key, or null (unknown, malformed or revoked). */
export type FindKey = (secret: string) => Promise<ApiKey | null>;

/** Options of the auth plugin: how keys are found, and which "METHOD /path" pairs need one. */
export interface AuthOptions {
  findKey: FindKey;
  protectedRoutes: readonly string[];
}

/** Realm of the WWW-Authenticate challenges. */
const REALM = 'ai-detector';

/**
 * The challenges of a 401 (RFC 9110 §11.6.1: a 401 MUST carry WWW-Authenticate). Two: `Bearer`
 * (RFC 6750 §3, with error="invalid_token" when a key was sent but is unknown or revoked), and
 * `ApiKey` with a `header` parameter naming X-API-Key, so a client learns both ways to send its key.
 */
export function authChallenge(code: 'missing_api_key' | 'invalid_api_key'): string {
  const bearer = code === 'invalid_api_key' ? `Bearer realm="${REALM}", error="invalid_token"` : `Bearer realm="${REALM}"`;
  return `${bearer}, ApiKey realm="${REALM}", header="${API_KEY_HEADER}"`;
}

/** A 401 with its WWW-Authenticate challenges. */
function unauthorized(code: 'missing_api_key' | 'invalid_api_key', params: Record<string, string> = {}): ApiError {
  return new ApiError(code, params, { 'www-authenticate': authChallenge(code) });
}

/**
 * The key for a secret, or an ApiError (missing_api_key / invalid_api_key). `scheme`: the request
 * sent its key under an Authorization scheme we do not take (unsupportedScheme): invalid_api_key,
 * whose message names the scheme and the two ways that work, without looking anything up.
 */
export async function authenticate(findKey: FindKey, secret: string | null, scheme: string | null = null): Promise<ApiKey> {
  if (scheme !== null) throw unauthorized('invalid_api_key', { variant: 'scheme', scheme });
  if (secret === null || secret.trim() === '') throw unauthorized('missing_api_key');
  const key = await findKey(secret.trim());
  if (!key) throw unauthorized('invalid_api_key');
  return key;
}

/** The authenticated key of a protected route's context (a 401 if the route was not protected). */
export function requireKey(key: ApiKey | null | undefined): ApiKey {
  if (!key) throw unauthorized('missing_api_key');
  return key;
}

/**
 * Elysia plugin: derives `key` (null outside the protected routes). Derive runs after parsing, so
 * protected routes declare `parse: 'none'` and read their body themselves: a bad key is still
 * answered 401 before a byte of the body is read.
 */
export function authPlugin({ findKey, protectedRoutes }: AuthOptions) {
  const guarded = new Set(protectedRoutes.filter((route) => !route.includes('/:')));
  // Routes with a parameter (`GET /v1/calibrations/:id`) are matched by segment.
  const patterns = protectedRoutes.filter((route) => route.includes('/:')).map((route) => route.split(' ') as [string, string]);
  const isGuarded = (method: string, path: string) =>
    guarded.has(`${method} ${path}`) || patterns.some(([m, pattern]) => m === method && matchesRoute(pattern, path));
  return new Elysia({ name: 'auth' }).derive({ as: 'global' }, async function checkApiKey({ request, path }) {
    // The router serves `/api/detect/` as `/api/detect`: the key check must see the same route.
    if (!isGuarded(request.method, routePath(path))) return { key: null as ApiKey | null };
    const { headers } = request;
    return { key: (await authenticate(findKey, presentedSecret(headers), unsupportedScheme(headers))) as ApiKey | null };
  });
}
