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

/** Its name in Elysia's `set.headers`, where the plugin keeps the id of a request it has seen. */
const ANSWER_HEADER_KEY = 'x-request-id';

// Only for requests the plugin has not seen (built by a test, observed outside the app): assigned
// on first ask and kept, so every later ask gets the same id.
const unseen = new WeakMap<Request, string>();

/** The id a request is answered with: its own valid X-Request-Id, or a fresh UUID. */
export function chooseRequestId(incoming: string | null): string {
  return incoming !== null && REQUEST_ID_PATTERN.test(incoming) ? incoming : crypto.randomUUID();
}

/**
 * The id assigned to `request`: the one the plugin put in its context's `set.headers` (pass them
 * as `answerHeaders`), or, for a request the plugin has not seen, one assigned now.
 */
export function requestIdOf(request: Request, answerHeaders?: Record<string, unknown>): string {
  const assigned = answerHeaders?.[ANSWER_HEADER_KEY];
  if (typeof assigned === 'string') return assigned;
  let id = unseen.get(request);
  if (id === undefined) {
    id = chooseRequestId(request.headers.get(REQUEST_ID_HEADER));
    unseen.set(request, id);
  }
  return id;
}

/**
 * Elysia plugin: assigns the id first thing, in `set.headers`, which Elysia merges into every
 * response (errors and 404s included) and which every later hook of the request can read. Kept
 * there only: a WeakMap keyed by the Request as well cost ~3 µs of CPU per request (~9% of a bare
 * request's JavaScript in a CPU profile; docs/performance.md), for no gain.
 */
export function requestIdPlugin() {
  return new Elysia({ name: 'request-id' }).onRequest(function assignRequestId({ request, set }) {
    set.headers[ANSWER_HEADER_KEY] = chooseRequestId(request.headers.get(REQUEST_ID_HEADER));
  });
}
