/**
 * The storage seam: what the service needs from a database, as three async interfaces. One
 * implementation per dialect (src/store/sqlite, src/store/postgres); the rest of the code sees
 * only these types, so a third store is one more folder.
 */
import type { CalibrationProfile } from '../detector/decide/profile';

/** Status of an API key. */
export type KeyStatus = 'active' | 'revoked';

/** An API key as stored: only a SHA-256 hash and a short display prefix of the secret. */
export interface ApiKey {
  id: number;
  name: string | null;
  /** A plan id (src/plans.ts); checked when the plan is looked up. */
  plan: string;
  keyHash: string;
  prefix: string;
  status: KeyStatus;
  /** Epoch milliseconds. */
  createdAt: number;
  revokedAt: number | null;
}

/** What a new key row needs. */
export interface NewApiKey {
  name: string | null;
  plan: string;
  keyHash: string;
  prefix: string;
  createdAt: number;
}

/** Key rows: lookups for authentication and the `keys` CLI. */
export interface KeyStore {
  /** Stores a new key and returns it with its id. */
  insert(key: NewApiKey): Promise<ApiKey>;
  /** The active key with this hash, or null (unknown or revoked): the authentication lookup. */
  findActiveByHash(keyHash: string): Promise<ApiKey | null>;
  /** The key with this id (any status), or null. */
  byId(id: number): Promise<ApiKey | null>;
  /** The key with this hash (any status), or null. */
  byHash(keyHash: string): Promise<ApiKey | null>;
  /** Keys whose display prefix starts with `start`, at most `limit`. */
  byPrefixStart(start: string, limit: number): Promise<ApiKey[]>;
  /** Every key, newest first. */
  list(): Promise<ApiKey[]>;
  /** Number of keys (any status). */
  count(): Promise<number>;
  /** Marks the key revoked (idempotent: an already revoked key keeps its time); the row after, or null when there is no such key. */
  revoke(id: number, at: number): Promise<ApiKey | null>;
}

/** A key's counters: words of one month and, when asked for, lifetime calls. */
export interface UsageCounters {
  wordsUsed: number;
  /** Successful calls over the key's lifetime; 0 when not asked for (plans without a call cap). */
  calls: number;
}

/** One conditional charge, decided by the store in one statement. */
export interface ChargeRequest {
  keyId: number;
  /** UTC month, "YYYY-MM". */
  period: string;
  words: number;
  /** The plan's words per month: the month's total may never exceed it. */
  wordLimit: number;
  /** The plan's lifetime call cap, or null. */
  callLimit: number | null;
  /** When set, the words charged are also added to this hold in the same transaction (ChargeLedger). */
  hold?: HoldClaim;
}

/** Monthly word counters and lifetime calls, charged atomically. */
export interface QuotaStore {
  /** Words of `period` and (when `withCalls`) lifetime calls of a key; no writes. */
  read(keyId: number, period: string, withCalls: boolean): Promise<UsageCounters>;
  /**
   * Charges `words` and one call when the month's total stays within `wordLimit` and lifetime
   * calls are below `callLimit`: exact under any concurrency, across processes and machines.
   * Returns the counters after the charge (calls only when capped), or null when nothing was charged.
   */
  charge(request: ChargeRequest): Promise<UsageCounters | null>;
  /** Successful (charged) calls of a key in `period`: what GET /v1/usage reports; no writes. */
  periodCalls(keyId: number, period: string): Promise<number>;
  /** Gives back words (and calls) charged in `period`; never below zero. */
  refund(keyId: number, period: string, words: number, calls: 0 | 1): Promise<void>;
}

/** Who holds a charge while its results are delivered, and for how long (ChargeLedger). */
export interface HoldClaim {
  /** The idempotency record's id for a keyed request (so a retry finds it), else a random id. */
  id: string;
  /** The process delivering the results (it renews the lease of all its holds at once). */
  owner: string;
  /** The attempt delivering the results: a random token, the fence every delivery is counted under. */
  attempt: string;
  /** The lease, from the store's clock (PostgreSQL `now()`; SQLite: the one machine's clock). */
  leaseMs: number;
  /** Epoch ms until which a settled hold is kept for a retry to credit. */
  expiresAt: number;
  /** A keyed request's body check: the hold's credit serves that body only. Null without a key. */
  bodyCheck: string | null;
}

/** A hold as stored: words charged under it (net of refunds) and words of the results it delivered. */
export interface Hold {
  keyId: number;
  period: string;
  charged: number;
  delivered: number;
  owner: string;
  /** The attempt holding the lease; empty once settled or swept. */
  attempt: string;
  /** Epoch ms of the store's clock. */
  leaseUntil: number;
  bodyCheck: string | null;
}

/** What counting a delivery found: counted under the lease, or the lease was over or taken (nothing counted). */
export type DeliverResult = 'counted' | 'lease_lost';

/** One attempt's fence on its hold: a write behind it happens only while `attempt` holds the lease of hold `id`. */
export interface HoldFence {
  id: string;
  attempt: string;
}

/** Words (and a call) given back to a key's month, for results a hold counted and that were never sent. */
export interface GiveBack {
  keyId: number;
  /** The month the hold charged, "YYYY-MM". */
  period: string;
  words: number;
  calls: 0 | 1;
}

/**
 * Charges tied to the results they pay for (issues 29 and 33): a charge is recorded under a hold
 * in the same transaction; each result is counted on it before it is handed over, in one statement
 * that also checks the attempt still holds an unexpired lease (the fence: a process that stalled
 * past its lease delivers nothing more); the attempt ends by giving back what was charged and not
 * delivered. A process that dies leaves its holds open: their lease runs out (judged by the store's
 * clock, never an instance's) and any process gives the undelivered words back; a retry with the
 * same Idempotency-Key and body credits the words its hold already paid.
 */
export interface ChargeLedger {
  /** The hold, or null. */
  read(id: string): Promise<Hold | null>;
  /** Makes `attempt` of `owner` the holder for `leaseMs` (a retry whose words are paid already: nothing is charged). */
  take(id: string, owner: string, attempt: string, leaseMs: number): Promise<void>;
  /**
   * Counts `words` of results delivered (the total so far) when `attempt` still holds the lease
   * and the hold paid for them, in one statement; 'lease_lost' (nothing counted) otherwise.
   * `onLate` gets what the statement did when its reply came after the store's deadline (the
   * promise had already rejected with store_unavailable).
   */
  deliver(id: string, attempt: string, words: number, onLate?: (result: DeliverResult) => void): Promise<DeliverResult>;
  /**
   * Ends `attempt` in one transaction: the words charged and not delivered (by it or an earlier
   * attempt) go back to the key's month, with one call when `calls` is 1; the hold is kept
   * (settled) when `keep`, else deleted. Returns the words given back (0 when `attempt` no longer
   * holds it: swept or taken over).
   */
  settle(id: string, attempt: string, delivered: number, options: { keep: boolean; calls: 0 | 1 }): Promise<number>;
  /**
   * Deletes the holds of these attempts, fully delivered and paid into by no earlier attempt, when
   * their lease still holds; returns the attempts whose hold it deleted (the others lost theirs).
   * Batched (one statement for many), as every single text has one. `onLate` as for deliver.
   */
  finish(attempts: readonly string[], onLate?: (finished: string[]) => void): Promise<string[]>;
  /** Extends by `leaseMs` the unexpired lease of every unsettled hold of `owner`. */
  renew(owner: string, leaseMs: number): Promise<void>;
  /**
   * Settles every hold whose lease ran out by the store's clock (its process died or stalled) and
   * keeps it readable for at least `keepMs` more (an attempt that stalled reads there what it had
   * counted before the sweep): returns the words given back.
   */
  sweep(keepMs: number): Promise<number>;
  /**
   * Gives back words counted on hold `id` for results that were never sent (a count whose reply
   * came after the deadline, the result withheld meanwhile), in one transaction: to the key's month,
   * and off the hold's charged and delivered words when it is still there. Not idempotent: one try.
   */
  giveBack(id: string, back: GiveBack): Promise<void>;
  /** Deletes settled holds kept past their expiry; returns how many. */
  purge(now: number): Promise<number>;
}

/** One authenticated request, as recorded: metadata only, never the submitted text. */
export interface UsageEvent {
  keyId: number;
  mode: 'single' | 'batch';
  words: number;
  score: number | null;
  status: number;
  errorCode: string | null;
  durationMs: number;
  /** Epoch milliseconds. */
  createdAt: number;
}

/** Where usage events go: queued in memory and written in batches (analytics, not billing). */
export interface UsageSink {
  /** Queues an event; never throws and never waits for the database. */
  record(event: UsageEvent): void;
  /** Writes everything queued so far (rejects when the store is unavailable; the events stay queued). */
  flush(): Promise<void>;
  /** Requests recorded for a key: its events, and those folded into usage_totals (after flushing this process's queue). */
  countForKey(keyId: number): Promise<number>;
  /**
   * The retention rule (issue 33): folds the events created before `before` (epoch ms) into
   * usage_totals (requests and words per key and month) and deletes them, in chunks; returns how
   * many. Safe to run from several processes and instances at once: each event is folded once.
   */
  compact(before: number): Promise<number>;
}

/** What a claim for an idempotency record needs (ids and checks are opaque hex: src/modules/idempotency/crypto.ts). */
export interface IdempotencyClaim {
  id: string;
  bodyCheck: string;
  /** Epoch ms now: rows expired by then, or pending rows abandoned by then with the same body check, are taken over. */
  now: number;
  /** Epoch ms until which the claimant holds the row while it runs. */
  lockedUntil: number;
  /** Epoch ms after which the row is ignored and purged. */
  expiresAt: number;
  /** The API key's id: a key keeps a bounded number of answers (IdempotencyStore.evict). */
  keyId: number;
}

/** A stored idempotency record (never readable: see the idempotency_records table). */
export interface IdempotencyRecord {
  bodyCheck: string;
  state: 'pending' | 'done';
  /** base64(IV || ciphertext) once done; null while pending. */
  answer: string | null;
  lockedUntil: number;
  expiresAt: number;
}

/** Sealed answers of Idempotency-Key requests, shared by every process and instance on the store. */
export interface IdempotencyStore {
  /**
   * Atomically creates the row as `pending` (or takes over an expired one, or a pending one past
   * `lockedUntil` with the same body check): 'claimed'. Otherwise the row as it is (another request
   * holds or has answered it), or null when it vanished meanwhile (released: claim again).
   */
  claim(claim: IdempotencyClaim): Promise<'claimed' | IdempotencyRecord | null>;
  /** The row, or null (absent or expired at `now`). */
  read(id: string, now: number): Promise<IdempotencyRecord | null>;
  /** Stores the sealed answer and marks the row done. */
  complete(id: string, answer: string): Promise<void>;
  /** Deletes a pending row whose request failed, so a retry runs again. */
  release(id: string): Promise<void>;
  /** Deletes the rows expired at `now`; returns how many. */
  purge(now: number): Promise<number>;
  /** Deletes the answered rows of API key `keyId` beyond its newest `keep` (the oldest first); returns how many. */
  evict(keyId: number, keep: number): Promise<number>;
}

/**
 * One take from a key's rate bucket (GCRA, a token bucket kept as one timestamp): `limit` events
 * per `windowMs`, of which all `limit` may come at once. `cost` events are asked for; `force`
 * records them even past the limit (events that already happened, e.g. a file that exhausted an
 * extraction budget), `cost` 0 only reads the bucket.
 */
export interface RateTake {
  keyId: number;
  /** Which bucket of the key: 'requests' (the request rate), 'extract' (the extraction throttle), ... */
  bucket: string;
  limit: number;
  windowMs: number;
  cost: number;
  force: boolean;
  /** Epoch ms. */
  now: number;
}

/** A bucket after a take: how many of the events were granted, and its theoretical arrival time (epoch ms). */
export interface RateState {
  granted: number;
  tatMs: number;
}

/** Rate buckets shared by every process and instance on the store: each take decided in one atomic statement. */
export interface RateStore {
  take(take: RateTake): Promise<RateState>;
}

/** A calibration profile as listed (issue 34): its facts and its summary, never a text. */
export interface CalibrationRecord {
  /** `cal_` + 22 random base62 characters. */
  id: string;
  keyId: number;
  name: string;
  /** The model that scored its texts. */
  modelVersion: string;
  /** Epoch milliseconds. */
  createdAt: number;
  /** The profile less its samples, as JSON text (the API's view of it). */
  summary: string;
}

/** What a new profile row needs: its record and the whole profile (JSON text: scores, counts, thresholds). */
export interface NewCalibration extends CalibrationRecord {
  profile: string;
}

/** What must hold when a profile is inserted, checked in the insert's transaction. */
export interface InsertConditions {
  /** The key keeps at most this many profiles, the new one included (the API's limit; the CLI sets none). */
  limit?: number;
  /** The charge that pays for the profile: it must still be held under this fence, and is finished (deleted) with the insert. */
  hold?: HoldFence;
}

/** What an insert did: stored, or nothing because the key keeps `limit` profiles already, or the hold's lease was lost. */
export type InsertOutcome = 'stored' | 'limit_reached' | 'lease_lost';

/**
 * Calibration profiles, each owned by one key: every read names the key, so another key's id is
 * indistinguishable from an unknown one. Profiles are never changed once made (only deleted), so
 * `lookup` can keep a parsed profile and only ask whether it still exists (calibration-cache.ts).
 */
export interface CalibrationRows {
  /**
   * Stores a new profile when `conditions` hold at that instant, in one transaction (issue 40: the
   * limit was checked only when a request started, and a profile was stored after its charge had
   * been given back). Exact under concurrency, across processes and instances.
   */
  insert(calibration: NewCalibration, conditions?: InsertConditions): Promise<InsertOutcome>;
  /** The key's profiles, newest first (summaries, no samples). */
  list(keyId: number): Promise<CalibrationRecord[]>;
  /** Number of the key's profiles. */
  count(keyId: number): Promise<number>;
  /** The key's profile with this id (summary), or null (unknown, or another key's). */
  get(keyId: number, id: string): Promise<CalibrationRecord | null>;
  /** True while the key's profile with this id exists. */
  exists(keyId: number, id: string): Promise<boolean>;
  /** The whole profile as stored (JSON text, samples included), or null: what the cache parses and checks. */
  read(keyId: number, id: string): Promise<string | null>;
  /** Deletes the key's profile; false when there was none. */
  remove(keyId: number, id: string): Promise<boolean>;
}

/** The rows, and a profile for a detection: parsed, checked and cached per process (calibration-cache.ts). */
export interface CalibrationStore extends CalibrationRows {
  /**
   * The whole profile parsed and checked (parseProfile: samples included), or null (unknown, or another
   * key's); throws `calibration_invalid` (a CodedError) when the stored row is not a valid profile.
   */
  lookup(keyId: number, id: string): Promise<CalibrationProfile | null>;
}

/**
 * Whether the store answers and takes writes right now; when not, why: `writes_failing` (the
 * latest write failed: disk full, read-only, I/O error), `locked` (another process holds SQLite's
 * write lock), `unreachable` (the probe failed or timed out), with the driver's code.
 */
export type StoreHealth = { store: 'up' } | { store: 'down'; reason: 'writes_failing' | 'locked' | 'unreachable'; code: string };

/** An open store: the three interfaces plus health and shutdown. */
export interface Store {
  readonly dialect: 'sqlite' | 'postgres';
  /** Where the data lives, for logs: a file path, or the URL without its password. */
  readonly location: string;
  readonly keys: KeyStore;
  readonly quota: QuotaStore;
  readonly usage: UsageSink;
  readonly idempotency: IdempotencyStore;
  /** Per-key rate buckets (request rate, extraction throttle). */
  readonly rates: RateStore;
  readonly ledger: ChargeLedger;
  /** Calibration profiles of the keys (issue 34). */
  readonly calibrations: CalibrationStore;
  /** Probes the store within a short deadline (GET /health). */
  health(): Promise<StoreHealth>;
  /** Writes what is queued and closes the connections. */
  close(): Promise<void>;
}
