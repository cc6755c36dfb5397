/**
 * Charges held while their results are delivered (issue 29): a customer pays at most once for each
 * result it receives, through kill -9, restarts, hang-ups and retries with the same Idempotency-Key.
 *
 * A batch (or a keyed single text) is charged up front, as before, so a key can never overspend,
 * but the charge is recorded under a hold in the same transaction (store ChargeLedger). Each result
 * handed to the client is counted on the hold; when the attempt ends (complete, hang-up, SIGTERM,
 * time budget) the words charged and not delivered go back in one transaction with the hold's
 * settlement. A process that dies leaves its holds open: it renews their lease every
 * RENEW_EVERY_MS while alive, so once HOLD_LEASE_MS passes without renewal any process (at start,
 * and every RENEW_EVERY_MS) gives the undelivered words back. A keyed request's hold has the
 * idempotency record's id and is kept while undelivered results remain: its retry is charged only
 * the words the hold has not paid yet (a retry after a crash reuses the whole charge).
 */
import { keepTrying } from '../../store/retry';
import type { ApiKey, ChargeLedger, QuotaStore } from '../../store/types';
import { oweRefund } from './owed';
import { REFUND_RETRY_WINDOW_MS, type RefundReport } from './refund';
import { chargeWords, getQuotaState, periodOf, type ChargeResult, type QuotaState } from './service';

/** Lease of an open hold: past it without renewal, its process counts as dead and the undelivered words go back. */
export const HOLD_LEASE_MS = 30_000;
/** How often a process renews its holds' leases and settles the abandoned holds of others. */
export const RENEW_EVERY_MS = 10_000;

/** An open hold of one attempt. */
export interface HeldCharge {
  readonly id: string;
  /** The words this attempt needs paid (what it would deliver in full). */
  readonly words: number;
  /** Counts the results handed to the client so far: `delivered` words in all; resolves once written (or failed: never rejects). */
  deliver(delivered: number): Promise<void>;
  /** Ends the attempt: gives back what was charged and not delivered (and the call, with `calls` 1). Never rejects. */
  settle(options?: { calls?: 0 | 1 }): Promise<void>;
  /**
   * Ends an attempt that delivered all its `words`: nothing to give back. A hold this attempt opened
   * is deleted with the others of this moment, in one statement (every single text has a hold);
   * one an earlier attempt paid into is settled.
   */
  complete(): void;
}

/** A held charge: the state after it and its hold, or the refusal (nothing charged). */
export type HeldChargeResult = { ok: true; state: QuotaState; hold: HeldCharge } | (ChargeResult & { ok: false });

/** How a hold is opened: its id, and until when a settled hold is kept for a retry (0: not kept). */
export interface HoldOptions {
  /** The idempotency record's id of a keyed request; a random id otherwise. */
  id?: string;
  /** Epoch ms until which a hold with undelivered results is kept for a retry (keyed requests); 0 deletes it when settled. */
  keepUntil?: number;
  signal?: AbortSignal;
  now?: number;
}

/** The holds of one process. */
export interface Holds {
  /** This process, as the owner of its holds. */
  readonly owner: string;
  /** Charges `words` under a hold, crediting what the hold already paid; or the refusal. */
  charge(key: ApiKey, words: number, options?: HoldOptions): Promise<HeldChargeResult>;
  /** Resolves once the settlements begun so far have been written (or have failed once): before the store closes. */
  settled(): Promise<void>;
  /** One pass of the background work: renew this process's leases, settle abandoned holds, delete expired ones. */
  tend(now?: number): Promise<void>;
  /** Stops the background work. */
  stop(): void;
}

/** Options of createHolds. */
export interface HoldsOptions {
  quota: QuotaStore;
  ledger: ChargeLedger;
  /** A settlement that could not be written at once, and what became of it (metadata only). */
  onEvent: RefundReport;
  /** Runs `tend` every RENEW_EVERY_MS (default true; tests turn it off). */
  background?: boolean;
  /** The lease of a hold (HOLD_LEASE_MS by default); renewed every third of it. */
  leaseMs?: number;
  /** This process's clock (Date.now, plus CLOCK_OFFSET_MS in fault tests). */
  clock?: () => number;
}

/** The holds of this process, with a random owner id; starts tending them in the background. */
export function createHolds({ quota, ledger, onEvent, background = true, leaseMs = HOLD_LEASE_MS, clock = Date.now }: HoldsOptions): Holds {
  const owner = crypto.randomUUID();
  const tend = async (now = clock()) => {
    await ledger.renew(owner, now + leaseMs);
    await ledger.sweep(now);
    await ledger.purge(now);
  };
  const quietly = () => void tend().catch(() => {});
  let timer: ReturnType<typeof setInterval> | undefined;
  if (background) {
    // At once: holds a dead process left (kill -9, then a restart) are settled as soon as their lease is over.
    quietly();
    timer = setInterval(quietly, Math.min(RENEW_EVERY_MS, leaseMs / 3));
    timer.unref();
  }

  /** Settlements on their way: a stopping process waits for them before it closes the store. */
  const settling = new Set<Promise<unknown>>();
  /** Holds fully delivered in this event-loop turn, deleted together at its end. */
  let forgetting: string[] = [];
  const forgetQueued = () => {
    const ids = forgetting;
    forgetting = [];
    // A hold left behind (the store failed, the process died first) is settled by its lease:
    // nothing undelivered, nothing given back but its count, which errs towards the client.
    const done = ledger.forget(owner, ids).catch(() => {});
    settling.add(done);
    void done.then(() => settling.delete(done));
  };

  function held(key: ApiKey, id: string, words: number, keepUntil: number, fresh: boolean): HeldCharge {
    let delivered = 0;
    let written: Promise<unknown> = Promise.resolve();
    const deliver = (total: number) => {
      delivered = total;
      // In order; a count that cannot be written only means more is given back after a crash.
      const write = written.then(() => ledger.deliver(id, total)).catch(() => {});
      written = write;
      return write;
    };
    const settle = async ({ calls = 0 }: { calls?: 0 | 1 } = {}) => {
      const keep = keepUntil > 0 && delivered < words;
      const fields = { keyId: key.id, words: words - delivered };
      const once = () => ledger.settle(id, owner, delivered, { keep, calls });
      const attempt = written.then(once);
      // The key's next charge waits for these words (owed.ts), as for any refund.
      oweRefund(quota, key.id, attempt);
      settling.add(attempt);
      const done = () => settling.delete(attempt);
      attempt.then(done, done);
      try {
        await attempt;
        return;
      } catch {
        onEvent('refund_failed', fields);
      }
      // Retried in the background; until it succeeds, this process keeps renewing the hold's lease.
      void keepTrying(once, { windowMs: REFUND_RETRY_WINDOW_MS }).then((outcome) =>
        onEvent(outcome.ok ? 'refund_retried' : 'refund_given_up', { ...fields, attempts: outcome.attempts + 1 }),
      );
    };
    const complete = () => {
      if (!fresh) {
        delivered = words;
        void written.then(() => settle());
        return;
      }
      if (forgetting.length === 0) setImmediate(forgetQueued);
      forgetting.push(id);
    };
    return { id, words, deliver, settle, complete };
  }

  return {
    owner,
    async charge(key, words, { id: given, keepUntil = 0, signal, now = Date.now() } = {}) {
      const period = periodOf(now);
      let id = given ?? crypto.randomUUID();
      let prior = given ? await ledger.read(id) : null;
      if (prior && prior.period !== period) {
        // A retry in the next month pays in the new month; the old hold settles by itself.
        id = `${id}:${period}`;
        prior = await ledger.read(id);
      }
      const claim = { id, owner, leaseUntil: now + leaseMs, expiresAt: keepUntil };
      const owed = Math.max(0, words - (prior?.charged ?? 0));
      if (owed === 0 && prior) {
        // Paid already by an earlier attempt under this key (it crashed or was cut short): nothing more to charge.
        await ledger.take(id, owner, claim.leaseUntil);
        return { ok: true, state: await getQuotaState(quota, key, now), hold: held(key, id, words, keepUntil, false) };
      }
      const result = await chargeWords(quota, key, owed, now, signal, claim);
      if (!result.ok) return result;
      return { ok: true, state: result.state, hold: held(key, id, words, keepUntil, prior === null) };
    },
    async settled() {
      await Promise.allSettled([...settling]);
    },
    tend,
    stop() {
      clearInterval(timer);
    },
  };
}
