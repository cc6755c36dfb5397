/** The per-key request rate as an Elysia plugin: after the key check, before any body is read. */
import { Elysia } from 'elysia';
import type { ApiKey } from '../store/types';
import { routePath } from './routes';

/** Takes one request of the key for its route (`METHOD /path`): the headers of its answer, or throws the 429 (src/modules/rate). */
export type AdmitRequest = (key: ApiKey, route: string) => Promise<Record<string, string>>;

/**
 * Elysia plugin: for a request whose key the auth plugin derived (mount it after that one), takes
 * one request from the key's rate and sets the RateLimit headers, or refuses it before its body is
 * read. `admit` null mounts a no-op (RATE_LIMITS=off).
 */
export function rateLimitPlugin({ admit }: { admit: AdmitRequest | null }) {
  const plugin = new Elysia({ name: 'rate-limit' });
  if (!admit) return plugin;
  return plugin.derive({ as: 'global' }, async function checkRequestRate(context) {
    const { key, set, request, path } = context as unknown as {
      key?: ApiKey | null;
      set: { headers: Record<string, string> };
      request: Request;
      path: string;
    };
    if (key) Object.assign(set.headers, await admit(key, `${request.method} ${routePath(path)}`));
    return {};
  });
}
