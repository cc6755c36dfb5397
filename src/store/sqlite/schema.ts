/** SQLite schema (drizzle/sqlite is generated from it): API keys, monthly usage counters, per-request metadata events (never text) and sealed idempotent answers. */
import { index, integer, primaryKey, real, sqliteTable, text } from 'drizzle-orm/sqlite-core';

/** API keys: only a SHA-256 hash and a short display prefix of the secret are stored. */
export const apiKeys = sqliteTable('api_keys', {
  id: integer('id').primaryKey({ autoIncrement: true }),
  name: text('name'),
  plan: text('plan').notNull(),
  keyHash: text('key_hash').notNull().unique(),
  prefix: text('prefix').notNull(),
  status: text('status', { enum: ['active', 'revoked'] })
    .notNull()
    .default('active'),
  /** Epoch milliseconds. */
  createdAt: integer('created_at').notNull(),
  revokedAt: integer('revoked_at'),
});

/** Words and successful calls charged per key per UTC calendar month ("YYYY-MM"); lifetime calls are their sum. */
export const monthlyUsage = sqliteTable(
  'monthly_usage',
  {
    keyId: integer('key_id')
      .notNull()
      .references(() => apiKeys.id),
    period: text('period').notNull(),
    wordsUsed: integer('words_used').notNull().default(0),
    calls: integer('calls').notNull().default(0),
  },
  (table) => [primaryKey({ columns: [table.keyId, table.period] })],
);

/** One row per authenticated request: metadata only, never the submitted text. */
export const usageEvents = sqliteTable(
  'usage_events',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    keyId: integer('key_id')
      .notNull()
      .references(() => apiKeys.id),
    mode: text('mode', { enum: ['single', 'batch'] }).notNull(),
    words: integer('words').notNull().default(0),
    score: integer('score'),
    status: integer('status').notNull(),
    errorCode: text('error_code'),
    durationMs: real('duration_ms').notNull(),
    /** Epoch milliseconds. */
    createdAt: integer('created_at').notNull(),
  },
  (table) => [index('usage_events_key_created').on(table.keyId, table.createdAt)],
);

/**
 * Answers kept for Idempotency-Key retries (issue 22), for 24 hours. Nothing here is readable: the
 * row id is an HMAC of the idempotency key under the API key's secret, `body_check` proves a retry
 * sends the same body without revealing it, and `answer` is AES-256-GCM ciphertext under a key
 * derived from the request body and the secret (src/modules/idempotency/crypto.ts).
 */
export const idempotencyRecords = sqliteTable(
  'idempotency_records',
  {
    /** HMAC-SHA256(API key secret, Idempotency-Key), hex. */
    id: text('id').primaryKey(),
    /** Derived from the body and the secret: equal only for the same body. */
    bodyCheck: text('body_check').notNull(),
    /** `pending` while the first request runs, `done` once its answer is sealed here. */
    state: text('state', { enum: ['pending', 'done'] }).notNull(),
    /** base64(IV || AES-GCM ciphertext) of the answer; null while pending. */
    answer: text('answer'),
    /** Epoch ms after which a pending row counts as abandoned (its process died) and may be taken over. */
    lockedUntil: integer('locked_until').notNull(),
    /** Epoch ms after which the row is ignored and purged: 24 h after the first request. */
    expiresAt: integer('expires_at').notNull(),
  },
  (table) => [index('idempotency_records_expires').on(table.expiresAt)],
);

/**
 * Per-key rate buckets (src/modules/rate): the request rate of a plan and the extraction throttle.
 * A bucket is one timestamp, its GCRA theoretical arrival time, so one conditional upsert decides a
 * take for every process sharing the file. `granted` is what the latest take was granted (the
 * upsert's RETURNING sees only the new row).
 */
export const rateBuckets = sqliteTable(
  'rate_buckets',
  {
    keyId: integer('key_id').notNull(),
    /** Which limit of the key: 'requests', 'extract'. */
    bucket: text('bucket').notNull(),
    /** Epoch ms at which the bucket is full again (GCRA's theoretical arrival time). */
    tatMs: real('tat_ms').notNull(),
    granted: integer('granted').notNull().default(0),
  },
  (table) => [primaryKey({ columns: [table.keyId, table.bucket] })],
);

/**
 * Charges tied to the results they pay for (issue 29, ChargeLedger in src/store/types.ts): words
 * charged under a hold and words of the results delivered; a hold whose lease runs out with words
 * undelivered (its process died) gives them back. Kept until `expires_at` when its request had an
 * Idempotency-Key, so a retry credits what it paid.
 */
export const chargeHolds = sqliteTable(
  'charge_holds',
  {
    /** The idempotency record's id (HMAC, hex) for a keyed request, else a random UUID. */
    id: text('id').primaryKey(),
    keyId: integer('key_id')
      .notNull()
      .references(() => apiKeys.id),
    /** UTC month of the charge, "YYYY-MM": refunds go back to it. */
    period: text('period').notNull(),
    /** Words charged under the hold, net of what was given back. */
    charged: integer('charged').notNull(),
    /** Words of the results delivered (the largest count of any attempt). */
    delivered: integer('delivered').notNull().default(0),
    /** The process delivering the results. */
    owner: text('owner').notNull(),
    /** Epoch ms: past this with charged > delivered, the owner is presumed dead. */
    leaseUntil: integer('lease_until').notNull(),
    /** Epoch ms until which a settled hold is kept for a retry. */
    expiresAt: integer('expires_at').notNull(),
  },
  // No secondary index: the table holds only the holds in flight and the few kept for a retry, and
  // every single text writes one, so an index would cost each detection more than it saves a sweep.
);

/**
 * Calibration profiles (issue 34, src/modules/calibrations): per language, the scores the model gave
 * one population's known-human texts, the thresholds they imply and the error measured on them.
 * Never a text: `profile` holds scores, counts and thresholds only. A profile belongs to one key.
 */
export const calibrations = sqliteTable(
  'calibrations',
  {
    /** `cal_` + 22 random base62 characters: unguessable, so an id reveals nothing of other profiles. */
    id: text('id').primaryKey(),
    keyId: integer('key_id')
      .notNull()
      .references(() => apiKeys.id),
    name: text('name').notNull(),
    /** The model that scored the texts: under another model the profile is stale. */
    modelVersion: text('model_version').notNull(),
    /** Epoch milliseconds. */
    createdAt: integer('created_at').notNull(),
    /** The profile less its samples (JSON): what a list or a GET returns, read without the samples. */
    summary: text('summary').notNull(),
    /** The whole profile (JSON, samples included): what a detection uses. */
    profile: text('profile').notNull(),
  },
  (table) => [index('calibrations_key_created').on(table.keyId, table.createdAt)],
);
