/**
 * Group commit for SQLite charges. Each charge is one conditional statement (quota.ts); run alone
 * it is also one WAL commit, ~15 us at best and ~35 us under load, where it was the largest SQLite
 * cost of a detection. Charges requested in the same event-loop turn (a loaded server reads many
 * requests per turn) run together in one IMMEDIATE transaction at the end of the turn: each is
 * still decided by its own conditional statement, in arrival order, under the write lock, so
 * nothing can overspend; the commit happens before any of them is analysed or answered, so
 * nothing counted is lost. Alone, a charge waits one turn (microseconds).
 *
 * When another process holds the write lock past BUSY_TIMEOUT_MS, the group (which changed
 * nothing) is retried on a timer, joined by the charges that arrive meanwhile, so one retry loop
 * serves every waiting request; a charge still waiting at its deadline fails with
 * StoreUnavailableError.
 */
import type { ChargeRequest, UsageCounters } from '../types';
import { StoreUnavailableError, unavailable } from '../errors';
import { isBusy, retryDelay } from './busy';
import type { Db } from './client';

interface PendingCharge {
  request: ChargeRequest;
  /** performance.now() past which the charge gives up. */
  deadline: number;
  resolve(result: UsageCounters | null): void;
  reject(error: unknown): void;
}

type ChargeAll = ((charges: PendingCharge[]) => Array<UsageCounters | null>) & {
  immediate(charges: PendingCharge[]): Array<UsageCounters | null>;
};

/** The charges of one connection, committed one group per event-loop turn. */
export class GroupCommit {
  private queue: PendingCharge[] = [];
  private scheduled = false;
  /** A group is waiting for another process's lock: new charges join its next attempt. */
  private retrying = false;
  /** Made once: building the transaction function costs ~2 us, a turn's hot path. */
  private readonly chargeAll: ChargeAll;

  constructor(
    db: Db,
    /** Runs one conditional charge statement (inside the group's transaction). */
    chargeOne: (request: ChargeRequest) => UsageCounters | null,
    private readonly timeoutMs: number,
  ) {
    this.chargeAll = db.$client.transaction((charges: PendingCharge[]) => charges.map((c) => chargeOne(c.request))) as ChargeAll;
  }

  /** Charges with the other charges of this turn; resolves once committed. */
  charge(request: ChargeRequest): Promise<UsageCounters | null> {
    return new Promise((resolve, reject) => {
      this.queue.push({ request, deadline: performance.now() + this.timeoutMs, resolve, reject });
      if (!this.scheduled && !this.retrying) {
        this.scheduled = true;
        setImmediate(() => this.commitQueued());
      }
    });
  }

  private commitQueued(): void {
    this.scheduled = false;
    const group = this.queue;
    this.queue = [];
    if (group.length > 0 && !this.tryCommit(group)) void this.retry(group);
  }

  /** One attempt; false when the write lock was busy (the group is unchanged and can be retried). */
  private tryCommit(group: PendingCharge[]): boolean {
    let results: Array<UsageCounters | null>;
    try {
      results = this.chargeAll.immediate(group);
    } catch (error) {
      if (isBusy(error)) return false;
      // Rolled back: none of these charges happened.
      for (const charge of group) charge.reject(unavailable(error));
      return true;
    }
    group.forEach((charge, i) => charge.resolve(results[i]));
    return true;
  }

  private async retry(first: PendingCharge[]): Promise<void> {
    this.retrying = true;
    let group = first;
    for (let attempt = 1; group.length > 0; attempt++) {
      await Bun.sleep(retryDelay(attempt));
      const now = performance.now();
      // Arrival order is kept: the waiting group first, then what came meanwhile.
      group = [...group, ...this.queue];
      this.queue = [];
      const expired = group.filter((c) => c.deadline <= now);
      for (const charge of expired) charge.reject(new StoreUnavailableError('SQLITE_BUSY'));
      group = group.filter((c) => c.deadline > now);
      if (group.length > 0 && this.tryCommit(group)) group = [];
    }
    this.retrying = false;
    if (this.queue.length > 0 && !this.scheduled) {
      this.scheduled = true;
      setImmediate(() => this.commitQueued());
    }
  }
}
