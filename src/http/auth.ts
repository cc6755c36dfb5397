/** API-key authentication in onRequest, so a bad key is answered 401 before any body is read. */
import { Elysia } from 'elysia';
import type { Db } from '../db/client';
import type { ApiKeyRow } from '../db/schema';
import { findActiveKey } from '../modules/keys';
import { contextOf } from './context';
import { ApiError } from './errors';

/** Header carrying the key (matched case-insensitively, as all HTTP field names). */
export const API_KEY_HEADER = 'X-API-Key';

/** Options of the auth plugin: which "METHOD /path" pairs need a key. */
export interface AuthOptions {
  db: Db;
  protectedRoutes: readonly string[];
}

/** The key row for a secret, or an ApiError (missing_api_key / invalid_api_key). */
export function authenticate(db: Db, secret: string | null): ApiKeyRow {
  if (secret === null || secret.trim() === '') throw new ApiError('missing_api_key');
  const key = findActiveKey(db, secret.trim());
  if (!key) throw new ApiError('invalid_api_key');
  return key;
}

/** The key authenticated for this request; only valid inside protected routes. */
export function requireKey(request: Request): ApiKeyRow {
  const key = contextOf(request).key;
  if (!key) throw new ApiError('missing_api_key');
  return key;
}

/** Elysia plugin: checks X-API-Key in onRequest for the protected routes. */
export function authPlugin({ db, protectedRoutes }: AuthOptions) {
  const guarded = new Set(protectedRoutes);
  return new Elysia({ name: 'auth' }).onRequest(function checkApiKey({ request }) {
    const ctx = contextOf(request);
    if (!guarded.has(`${request.method} ${ctx.path}`)) return;
    ctx.key = authenticate(db, request.headers.get(API_KEY_HEADER));
  });
}
