/**
 * Idempotent retries (issue 22): the same Idempotency-Key from the same API key with the same body
 * within 24 hours gets the first answer again, charged once; another body is refused
 * (`idempotency_key_reused`). Concurrent duplicates wait for the first (polling the store, so it
 * works across instances sharing PostgreSQL) or, past `waitMs`, get 409
 * `idempotency_request_in_progress`. Only successful answers are kept (as Stripe does): a request
 * that failed (400, 429, 503, ...) is released, so its retry runs again. What is kept is sealed
 * (./crypto.ts). Follows the IETF draft "The Idempotency-Key HTTP Header Field".
 */
import { ApiError } from '../../http/errors';
import type { IdempotencyRecord, IdempotencyStore } from '../../store/types';
import { recordId, recordKeys, seal, unseal, type RecordKeys } from './crypto';

/** The request header. */
export const IDEMPOTENCY_KEY_HEADER = 'Idempotency-Key';
/** Set to `true` on an answer replayed from the store. */
export const REPLAYED_HEADER = 'Idempotent-Replayed';
/** How long an answer is kept and replayed: 24 hours after the first request. */
export const IDEMPOTENCY_TTL_MS = 24 * 60 * 60 * 1000;
/** Keys a client may send: 1-255 visible ASCII characters (a UUID v4 is what the draft suggests). */
export const IDEMPOTENCY_KEY_PATTERN = /^[\x21-\x7e]{1,255}$/;
/** Default longest wait of a duplicate for the first request's answer before 409. */
export const DEFAULT_IDEMPOTENCY_WAIT_MS = 10_000;
/** Pause between two looks at a pending record: a single detection takes ~5-50 ms. */
const POLL_MS = 20;
/** Expired rows are deleted at most this often per process (and are ignored as soon as they expire). */
const PURGE_EVERY_MS = 60_000;
/** Headers of the first answer that a replay repeats. */
const KEPT_HEADERS = ['content-type', 'content-language', 'x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset'];

/** The Idempotency-Key of a request, null when absent; 400 invalid_idempotency_key when malformed. */
export function idempotencyKeyOf(headers: Headers): string | null {
  const value = headers.get(IDEMPOTENCY_KEY_HEADER);
  if (value === null) return null;
  if (!IDEMPOTENCY_KEY_PATTERN.test(value)) throw new ApiError('invalid_idempotency_key');
  return value;
}

/** One idempotent request: who sends it, its key, and its body's fingerprint. */
export interface IdempotentCall {
  /** The API key's secret as presented (never stored): the HMAC and HKDF key material. */
  secret: string;
  keyId: number;
  idempotencyKey: string;
  fingerprint: Uint8Array;
  /** How long the first request may hold the record before it counts as abandoned (its process died). */
  leaseMs: number;
  /** For a streamed answer: true when the whole stream was delivered (else nothing is kept). */
  isComplete?: (body: string) => boolean;
}

/** The record a request runs under: its id and its body's check (what a hold's credit is bound to). */
export interface RecordRef {
  id: string;
  bodyCheck: string;
}

/** How a request was answered. */
export interface IdempotentAnswer {
  response: Response;
  /** True when the answer came from the store (nothing was run or charged). */
  replayed: boolean;
}

/** What is sealed: the first answer's status, kept headers and body. */
interface StoredAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** Options of createIdempotency. */
export interface IdempotencyOptions {
  store: IdempotencyStore;
  /** Longest wait of a duplicate for a running first request. */
  waitMs?: number;
  /** Background failures (a record that could not be kept or released): metadata only. */
  onEvent?: (event: string, fields: Record<string, string | number>) => void;
  now?: () => number;
  /**
   * Answers kept per API key (IDEMPOTENCY_MAX_PER_KEY; 0: no bound): past it, each newly kept
   * answer evicts the key's oldest, whose retry then runs (and is charged) again (issue 33).
   */
  maxPerKey?: number;
}

/** Idempotent execution over a store; one per app. */
export interface Idempotency {
  /**
   * Runs `execute` once per (key, Idempotency-Key, body), or replays its kept answer. `execute` is
   * given the record's id and body check, which the charge's hold shares (quota/holds.ts).
   */
  run(call: IdempotentCall, execute: (record: RecordRef) => Promise<Response>): Promise<IdempotentAnswer>;
  /** True when an answer is kept for this key's Idempotency-Key (a replay costs nothing; read before the body). */
  answered(secret: string, idempotencyKey: string): Promise<boolean>;
}

function keptHeaders(headers: Headers): Record<string, string> {
  const kept: Record<string, string> = {};
  for (const name of KEPT_HEADERS) {
    const value = headers.get(name);
    if (value !== null) kept[name] = value;
  }
  return kept;
}

/** The idempotency layer of the detect routes. */
export function createIdempotency({
  store,
  waitMs = DEFAULT_IDEMPOTENCY_WAIT_MS,
  onEvent = () => {},
  now = Date.now,
  maxPerKey = 0,
}: IdempotencyOptions): Idempotency {
  let lastPurge = 0;
  /** A catch handler that reports a background failure as `event` (the error's name only: metadata). */
  const report = (event: string) => (error: unknown) => onEvent(event, { name: (error as Error)?.name ?? 'Error' });
  const purgeNow = (at: number) => {
    if (at - lastPurge < PURGE_EVERY_MS) return;
    lastPurge = at;
    void store.purge(at).catch(report('idempotency_purge_failed'));
  };
  const release = (id: string) => store.release(id).catch(report('idempotency_release_failed'));

  /**
   * The record once this request holds it ('claimed'), or the first request's answer ('done').
   * While another request holds it, the record is read (not written) every POLL_MS: a claim is
   * tried again only when it is gone (released, expired) or its holder's lease ran out.
   */
  async function claimOrWait(call: IdempotentCall, id: string, keys: RecordKeys): Promise<'claimed' | IdempotencyRecord> {
    const claim = () => {
      const at = now();
      return store.claim({
        id,
        bodyCheck: keys.bodyCheck,
        now: at,
        lockedUntil: at + call.leaseMs,
        expiresAt: at + IDEMPOTENCY_TTL_MS,
        keyId: call.keyId,
      });
    };
    const started = now();
    let record = await claim();
    for (;;) {
      if (record === 'claimed') return record;
      if (record !== null) {
        if (record.bodyCheck !== keys.bodyCheck) throw new ApiError('idempotency_key_reused');
        if (record.state === 'done') return record;
        if (now() - started >= waitMs) throw new ApiError('idempotency_request_in_progress', {}, { 'retry-after': '1' });
      }
      await Bun.sleep(POLL_MS);
      const seen = await store.read(id, now());
      record = seen === null || (seen.state === 'pending' && seen.lockedUntil <= now()) ? await claim() : seen;
    }
  }

  /** Keeps a successful answer: buffered whole (JSON), or captured while it streams (NDJSON). */
  async function keep(call: IdempotentCall, id: string, keys: RecordKeys, response: Response): Promise<Response> {
    const headers = keptHeaders(response.headers);
    /** Seals and keeps `body`; a record that cannot be kept is released, so a retry runs again. */
    const keepBody = async (body: string) => {
      try {
        const sealed = await seal(keys, id, JSON.stringify({ status: response.status, headers, body } satisfies StoredAnswer));
        await store.complete(id, sealed);
        if (maxPerKey > 0) await store.evict(call.keyId, maxPerKey).catch(report('idempotency_evict_failed'));
      } catch (error) {
        report('idempotency_keep_failed')(error);
        await release(id);
      }
    };
    if (!call.isComplete || !response.body) {
      const body = await response.text();
      await keepBody(body);
      return new Response(body, { status: response.status, headers: response.headers });
    }
    const reader = response.body.getReader();
    const chunks: Uint8Array[] = [];
    const stream = new ReadableStream<Uint8Array>(
      {
        async pull(controller) {
          const { done, value } = await reader.read();
          if (!done) {
            chunks.push(value);
            controller.enqueue(value);
            return;
          }
          const body = Buffer.concat(chunks).toString('utf8');
          // A stream cut short (the client left, the store failed) is not an answer to replay.
          if (call.isComplete?.(body)) await keepBody(body);
          else await release(id);
          controller.close();
        },
        async cancel(reason) {
          await reader.cancel(reason).catch(() => {});
          // Gone after the whole answer was taken (every result and the end line, issue 33): a
          // completed answer to replay, not a request to run and charge again.
          const body = Buffer.concat(chunks).toString('utf8');
          if (call.isComplete?.(body)) await keepBody(body);
          else await release(id);
        },
      },
      { highWaterMark: 0 },
    );
    return new Response(stream, { status: response.status, headers: response.headers });
  }

  return {
    async answered(secret, idempotencyKey) {
      const record = await store.read(await recordId(secret, idempotencyKey), now());
      return record?.state === 'done';
    },
    async run(call, execute) {
      purgeNow(now());
      const id = await recordId(call.secret, call.idempotencyKey);
      const keys = await recordKeys(call.fingerprint, call.secret, id, call.keyId);
      const record = await claimOrWait(call, id, keys);
      if (record !== 'claimed') {
        const answer = JSON.parse(await unseal(keys, id, record.answer ?? '')) as StoredAnswer;
        const headers = { ...answer.headers, [REPLAYED_HEADER.toLowerCase()]: 'true' };
        return { response: new Response(answer.body, { status: answer.status, headers }), replayed: true };
      }
      let response: Response;
      try {
        response = await execute({ id, bodyCheck: keys.bodyCheck });
      } catch (error) {
        await release(id);
        throw error;
      }
      if (response.status !== 200) {
        await release(id);
        return { response, replayed: false };
      }
      return { response: await keep(call, id, keys, response), replayed: false };
    },
  };
}
