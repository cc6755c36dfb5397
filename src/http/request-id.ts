/**
 * X-Request-Id on every answer, errors included: a client's own id is echoed when it is safe to
 * log and to send back (`[A-Za-z0-9._-]{1,128}`), anything else is replaced by a fresh UUID; the
 * id is written in the request's log line (observe.ts), so support can find a customer's request.
 */
import { Elysia } from 'elysia';

/** The header, as sent and answered. */
export const REQUEST_ID_HEADER = 'X-Request-Id';

/** An incoming id is kept when it matches this: no spaces, quotes or control characters reach the logs. */
export const REQUEST_ID_PATTERN = /^[A-Za-z0-9._-]{1,128}$/;

// Keyed by the Request object: the id is known from onRequest on, before any plugin derives context
// (a 404 never reaches derive), and goes away with the request.
const ids = new WeakMap<Request, string>();

/** The id a request is answered with: its own valid X-Request-Id, or a fresh UUID. */
export function chooseRequestId(incoming: string | null): string {
  return incoming !== null && REQUEST_ID_PATTERN.test(incoming) ? incoming : crypto.randomUUID();
}

/** The id assigned to `request` (assigned now if the plugin has not seen it: requests built in tests). */
export function requestIdOf(request: Request): string {
  let id = ids.get(request);
  if (id === undefined) {
    id = chooseRequestId(request.headers.get(REQUEST_ID_HEADER));
    ids.set(request, id);
  }
  return id;
}

/** Elysia plugin: assigns the id first thing and puts it on the answer (Elysia merges `set.headers` into every response). */
export function requestIdPlugin() {
  return new Elysia({ name: 'request-id' }).onRequest(function assignRequestId({ request, set }) {
    set.headers['x-request-id'] = requestIdOf(request);
  });
}
