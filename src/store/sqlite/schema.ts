/** SQLite schema (drizzle/sqlite is generated from it): API keys, monthly usage counters and per-request metadata events (never text). */
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
