/**
 * Charges held while their results are delivered (issues 29 and 33): a customer pays for each
 * result it receives, through kill -9, stalls, restarts, hang-ups and retries with the same
 * Idempotency-Key and body.
 *
 * A batch (or a single text) is charged up front, as before, so a key can never overspend, but the
 * charge is recorded under a hold in the same transaction (store ChargeLedger), taken by this
 * attempt (a random token) with a lease. Each result is counted on the hold BEFORE it is handed to
 * the client, in one statement that checks the attempt still holds an unexpired lease: a process
 * that stalled past its lease (a GC or VM pause, swap, SIGSTOP) finds its hold swept or taken over
 * and delivers nothing more (issue 33: it went on delivering free results). When the attempt ends
 * (complete, hang-up, SIGTERM, time budget) the words charged and not delivered go back in one
 * transaction with the hold's settlement. A live process renews its leases every third of the
 * lease; once a lease is over by the store's clock (never an instance's), any process gives the
 * undelivered words back. A keyed request's hold has the idempotency record's id and its body
 * check, and is kept while undelivered results remain: a retry with the same body is charged only
 * the words the hold has not paid yet; another body gets 422 idempotency_key_reused, whether or
 * not the idempotency record is still there (issue 33: it was credited with the first body's pay).
 * A count whose reply misses the store's deadline is judged by reading the hold back (a swept hold
 * stays readable for SWEPT_KEEP_MS, so a process that stalled learns what it had counted); if the
 * count lands after its result was withheld, its words go back (issue 40). A write that must happen
 * only while the charge is held (a calibration profile) goes behind the attempt's `fence`.
 */
import { ApiError } from '../../http/errors';
import { keepTrying } from '../../store/retry';
import type { ApiKey, ChargeLedger, DeliverResult, GiveBack, Hold, HoldFence, QuotaStore } from '../../store/types';
import { oweRefund } from './owed';
import { REFUND_RETRY_WINDOW_MS, type RefundReport } from './refund';
import { chargeWords, getQuotaState, periodOf, type ChargeResult, type QuotaState } from './service';

/** Lease of an open hold (HOLD_LEASE_MS): past it without renewal, its attempt delivers no more and the undelivered words go back. */
export const HOLD_LEASE_MS = 30_000;
/** How often a process renews its holds' leases and settles the abandoned holds of others, at most (a third of the lease if shorter). */
export const RENEW_EVERY_MS = 10_000;
/**
 * How long a hold swept by another process (its lease over) stays readable: an attempt that stalled
 * and comes back reads there whether its last count landed before the sweep (issue 40: the hold was
 * purged at once, and a result counted and paid was answered store_unavailable). Past a stall this
 * long, a count whose reply was lost is taken as landed.
 */
export const SWEPT_KEEP_MS = 60 * 60 * 1000;

/**
 * What counting a result found: `counted` (hand it over), or why it may not be handed over:
 * `hold_expired` (this attempt's lease is over: it stalled, and the hold was given back or taken
 * over) or `store_unavailable` (the count could not be written). Either ends the attempt.
 */
export type DeliverOutcome = 'counted' | 'hold_expired' | 'store_unavailable';

/** An open hold of one attempt. */
export interface HeldCharge {
  readonly id: string;
  /** The words this attempt needs paid (what it would deliver in full). */
  readonly words: number;
  /** This attempt's fence on its hold: a store write behind it happens only while the charge is held (a profile's insert). */
  readonly fence: HoldFence;
  /**
   * Counts results before they are handed over: `delivered` words in all so far, under this
   * attempt's lease. Hand them over only when it resolves `counted`. Never rejects.
   */
  deliver(delivered: number): Promise<DeliverOutcome>;
  /** Ends the attempt: gives back what was charged and not delivered (and the call, with `calls` 1); once (a second call waits for the first). Never rejects. */
  settle(options?: { calls?: 0 | 1 }): Promise<void>;
  /**
   * Counts all `words` as delivered and ends the attempt, before its answer is handed over: a hold
   * this attempt opened is deleted with the others of this moment, in one statement (every single
   * text has a hold); one an earlier attempt paid into is settled. Never rejects.
   */
  complete(): Promise<DeliverOutcome>;
}

/** A held charge: the state after it and its hold, or the refusal (nothing charged). */
export type HeldChargeResult = { ok: true; state: QuotaState; hold: HeldCharge } | (ChargeResult & { ok: false });

/** How a hold is opened: its id, and until when a settled hold is kept for a retry (0: not kept). */
export interface HoldOptions {
  /** The idempotency record's id of a keyed request; a random id otherwise. */
  id?: string;
  /** A keyed request's body check (the idempotency record's): the hold's credit serves this body only. */
  bodyCheck?: string;
  /** Epoch ms until which a hold with undelivered results is kept for a retry (keyed requests); 0 deletes it when settled. */
  keepUntil?: number;
  signal?: AbortSignal;
  now?: number;
}

/** The holds of one process. */
export interface Holds {
  /** This process, as the owner of its holds. */
  readonly owner: string;
  /**
   * Charges `words` under a hold, crediting what the hold already paid; or the refusal. Throws 422
   * idempotency_key_reused when the hold was paid for another body.
   */
  charge(key: ApiKey, words: number, options?: HoldOptions): Promise<HeldChargeResult>;
  /**
   * Throws 422 idempotency_key_reused when a hold under this keyed request's id was paid for
   * another body: a batch checks it before its body is extracted (charge checks it again).
   */
  check(id: string, bodyCheck: string, now?: number): Promise<void>;
  /** Resolves once the settlements begun so far have been written (or have failed once): before the store closes. */
  settled(): Promise<void>;
  /** One pass of the background work: renew this process's leases, settle abandoned holds, delete expired ones. */
  tend(): Promise<void>;
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

/** A fresh attempt waiting for its hold to be finished: the hold, the words, what to give back if the finish lands late, and its answer. */
interface Finishing {
  id: string;
  words: number;
  unsent(): GiveBack;
  resolve(outcome: DeliverOutcome): void;
}

/** The holds of this process, with a random owner id; starts tending them in the background. */
export function createHolds({ quota, ledger, onEvent, background = true, leaseMs = HOLD_LEASE_MS, clock = Date.now }: HoldsOptions): Holds {
  const owner = crypto.randomUUID();
  // Leases are measured by the store's clock: this process's `clock` only names months and expiries.
  const tend = async () => {
    await ledger.renew(owner, leaseMs);
    await ledger.sweep(SWEPT_KEEP_MS);
    await ledger.purge(clock());
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
  const track = (work: Promise<unknown>) => {
    settling.add(work);
    const done = () => settling.delete(work);
    work.then(done, done);
  };
  /**
   * Gives back words a late write counted for results that were never sent (and the call of an
   * attempt that sent nothing). One try, never repeated: the write is not idempotent, and a failure
   * is reported for an operator (issue 40: without it, a count whose reply came after the deadline
   * was charged although its result was withheld).
   */
  const giveBack = (id: string, back: GiveBack) => {
    if (back.words <= 0 && back.calls === 0) return;
    const work = ledger.giveBack(id, back);
    oweRefund(quota, back.keyId, work);
    track(work);
    work.then(
      () => onEvent('late_count_given_back', { keyId: back.keyId, words: back.words }),
      () => onEvent('refund_failed', { keyId: back.keyId, words: back.words }),
    );
  };

  /**
   * What a write whose reply did not come in time left, read back from the hold: counted (the hold
   * counts `total`, or is gone: finished, or fully delivered and purged; a sweep keeps what it
   * settles for SWEPT_KEEP_MS), `hold_expired` (another attempt or a sweep holds it now),
   * `store_unavailable` (still this attempt's and not counted, or the hold cannot be read).
   */
  const judge = async (id: string, attempt: string, total: number): Promise<DeliverOutcome> => {
    const hold = await ledger.read(id).catch(() => undefined);
    if (hold === undefined) return 'store_unavailable';
    if (hold === null || (hold.delivered >= total && hold.charged >= total)) return 'counted';
    return hold.attempt === attempt ? 'store_unavailable' : 'hold_expired';
  };

  /** Attempts fully delivered in this event-loop turn, finished together at its end. */
  let finishing = new Map<string, Finishing>();
  const finishQueued = () => {
    const batch = finishing;
    finishing = new Map();
    /** Attempts told something other than `counted` after the finish failed, and those its late reply says it finished. */
    const decided = new Map<string, DeliverOutcome>();
    const landed = new Set<string>();
    const onLate = (finished: string[]) => {
      for (const attempt of finished) {
        landed.add(attempt);
        const entry = batch.get(attempt);
        // Finished after its attempt was told otherwise: what it charged goes back, as its settlement would have given it.
        if (entry && decided.has(attempt) && decided.get(attempt) !== 'counted') giveBack(entry.id, entry.unsent());
      }
    };
    const done = ledger.finish([...batch.keys()], onLate).then(
      (finished) => {
        const kept = new Set(finished);
        for (const [attempt, { resolve }] of batch) resolve(kept.has(attempt) ? 'counted' : 'hold_expired');
      },
      async () => {
        // Maybe written, its reply late (the process paused past the store's deadline, or the store is slow).
        for (const [attempt, { id, words, resolve }] of batch) {
          const judged = await judge(id, attempt, words);
          decided.set(attempt, landed.has(attempt) ? 'counted' : judged);
          resolve(decided.get(attempt)!);
        }
      },
    );
    track(done);
  };

  function held(
    key: ApiKey,
    id: string,
    period: string,
    attempt: string,
    words: number,
    keepUntil: number,
    prior: Hold | null,
  ): HeldCharge {
    let delivered = 0;
    /** Words an earlier attempt had counted on the hold: a late count below them counted nothing new. */
    const base = prior?.delivered ?? 0;
    const deliver = async (total: number): Promise<DeliverOutcome> => {
      const from = Math.max(delivered, base);
      let outcome: DeliverOutcome | undefined;
      let landed = false;
      // A reply that comes after the deadline says what the count did: counted after this attempt
      // was told otherwise (its result withheld), its words go back.
      const onLate = (result: DeliverResult) => {
        landed = result === 'counted';
        if (landed && outcome !== undefined && outcome !== 'counted')
          giveBack(id, { keyId: key.id, period, words: total - from, calls: 0 });
      };
      try {
        outcome = (await ledger.deliver(id, attempt, total, onLate)) === 'counted' ? 'counted' : 'hold_expired';
      } catch {
        const judged = await judge(id, attempt, total);
        // Its own reply came while the hold was read: it says what happened.
        outcome = landed ? 'counted' : judged;
      }
      if (outcome === 'counted') delivered = total;
      return outcome;
    };
    let settled: Promise<void> | undefined;
    const settleOnce = async (calls: 0 | 1) => {
      // A keyed request's hold is kept until its key expires whatever was delivered (issue 44 item 8): it
      // holds the body check, and a stream cut after its last count (every result counted, not every one
      // sent) deleted it with its record released, so another body under the key ran (200, not 422).
      const keep = keepUntil > 0;
      const fields = { keyId: key.id, words: words - delivered };
      const once = () => ledger.settle(id, attempt, delivered, { keep, calls });
      const attemptNow = once();
      // The key's next charge waits for these words (owed.ts), as for any refund.
      oweRefund(quota, key.id, attemptNow);
      track(attemptNow);
      try {
        await attemptNow;
        return;
      } catch {
        onEvent('refund_failed', fields);
      }
      // Retried in the background; until it succeeds, this process keeps renewing the hold's lease.
      void keepTrying(once, { windowMs: REFUND_RETRY_WINDOW_MS }).then((outcome) =>
        onEvent(outcome.ok ? 'refund_retried' : 'refund_given_up', { ...fields, attempts: outcome.attempts + 1 }),
      );
    };
    const settle = ({ calls = 0 }: { calls?: 0 | 1 } = {}) => {
      settled ??= settleOnce(calls);
      return settled;
    };
    const complete = async (): Promise<DeliverOutcome> => {
      if (prior) {
        const outcome = await deliver(words);
        if (outcome === 'counted') void settle();
        return outcome;
      }
      const outcome = new Promise<DeliverOutcome>((resolve) => {
        if (finishing.size === 0) setImmediate(finishQueued);
        // A finish that lands after its attempt was told it failed gives back what was not handed over: a
        // single text's words and call (its answer was an error); nothing of a batch whose results all went out.
        const unsent = (): GiveBack => ({ keyId: key.id, period, words: words - delivered, calls: delivered === 0 ? 1 : 0 });
        finishing.set(attempt, { id, words, unsent, resolve });
      });
      if ((await outcome) === 'counted') delivered = words;
      return outcome;
    };
    return { id, words, fence: { id, attempt }, deliver, settle, complete };
  }

  /**
   * The hold a keyed request under `given` credits in `period`, and the id it charges under; 422
   * idempotency_key_reused when a hold under the key was paid for another body (issue 33: the
   * first body's pay went to any body sent under the same key once its record was released).
   */
  async function priorOf(given: string, bodyCheck: string | null, period: string): Promise<{ id: string; prior: Hold | null }> {
    const first = await ledger.read(given);
    if (first && first.bodyCheck !== bodyCheck) throw new ApiError('idempotency_key_reused');
    if (!first || first.period === period) return { id: given, prior: first };
    // A retry in the next month pays in the new month; the old hold settles by itself.
    const id = `${given}:${period}`;
    const prior = await ledger.read(id);
    if (prior && prior.bodyCheck !== bodyCheck) throw new ApiError('idempotency_key_reused');
    return { id, prior };
  }

  return {
    owner,
    async check(id, bodyCheck, now = clock()) {
      await priorOf(id, bodyCheck, periodOf(now));
    },
    async charge(key, words, { id: given, bodyCheck, keepUntil = 0, signal, now = clock() } = {}) {
      const { id, prior } = given ? await priorOf(given, bodyCheck ?? null, periodOf(now)) : { id: crypto.randomUUID(), prior: null };
      const attempt = crypto.randomUUID();
      const owed = Math.max(0, words - (prior?.charged ?? 0));
      if (owed === 0 && prior) {
        // Paid already by an earlier attempt under this key (it crashed or was cut short): nothing more to charge.
        await ledger.take(id, owner, attempt, leaseMs);
        return {
          ok: true,
          state: await getQuotaState(quota, key, now),
          hold: held(key, id, periodOf(now), attempt, words, keepUntil, prior),
        };
      }
      const claim = { id, owner, attempt, leaseMs, expiresAt: keepUntil, bodyCheck: bodyCheck ?? null };
      const result = await chargeWords(quota, key, owed, now, signal, claim);
      if (!result.ok) return result;
      return { ok: true, state: result.state, hold: held(key, id, periodOf(now), attempt, words, keepUntil, prior) };
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
