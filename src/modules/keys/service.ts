/** Key administration: create, find by secret, list, resolve by id or prefix, revoke, usage. */
import { count, desc, eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { prepared } from '../../db/prepared';
import { apiKeys, usageEvents, type ApiKeyRow } from '../../db/schema';
import type { PlanId } from '../../plans';
import { flushUsage, getQuotaState, type QuotaState } from '../quota';
import { generateKey, hashKey, keyPrefix, looksLikeKey } from './secret';

/** A freshly created key: the secret is returned once and never stored. */
export interface CreatedKey {
  id: number;
  key: string;
  prefix: string;
  plan: PlanId;
  name: string | null;
}

/** One line of `keys list`: never the secret. */
export interface KeySummary {
  id: number;
  name: string | null;
  plan: string;
  prefix: string;
  status: 'active' | 'revoked';
  wordsUsedThisMonth: number;
  createdAt: number;
}

/** Usage report of one key. */
export interface KeyUsage {
  key: KeySummary;
  quota: QuotaState;
  /** Requests recorded in usage_events (all statuses). */
  requests: number;
}

/** Raised by resolveKey when a prefix matches several keys. */
export class AmbiguousKeyError extends Error {
  override name = 'AmbiguousKeyError';
}

/** Creates a key on a plan and returns its secret (shown once). */
export function createKey(db: Db, options: { plan: PlanId; name?: string | null }, now: number = Date.now()): CreatedKey {
  const key = generateKey();
  const row = db
    .insert(apiKeys)
    .values({ name: options.name ?? null, plan: options.plan, keyHash: hashKey(key), prefix: keyPrefix(key), createdAt: now })
    .returning({ id: apiKeys.id })
    .get();
  return { id: row.id, key, prefix: keyPrefix(key), plan: options.plan, name: options.name ?? null };
}

const ACTIVE_KEY_SQL = `SELECT id, name, plan, key_hash AS keyHash, prefix, status, created_at AS createdAt, revoked_at AS revokedAt
  FROM api_keys WHERE key_hash = $hash AND status = 'active'`;

/** The active key with this secret, or null (unknown, malformed or revoked). */
export function findActiveKey(db: Db, secret: string): ApiKeyRow | null {
  if (!looksLikeKey(secret)) return null;
  return prepared<ApiKeyRow>(db, ACTIVE_KEY_SQL).get({ hash: hashKey(secret) }) ?? null;
}

/** Number of keys in the database (any status). */
export function countKeys(db: Db): number {
  return db.select({ n: count() }).from(apiKeys).get()?.n ?? 0;
}

function summarize(db: Db, row: ApiKeyRow, now: number): KeySummary {
  return {
    id: row.id,
    name: row.name,
    plan: row.plan,
    prefix: row.prefix,
    status: row.status,
    wordsUsedThisMonth: getQuotaState(db, row, now).used,
    createdAt: row.createdAt,
  };
}

/** All keys, newest first, with this month's words. */
export function listKeys(db: Db, now: number = Date.now()): KeySummary[] {
  return db
    .select()
    .from(apiKeys)
    .orderBy(desc(apiKeys.id))
    .all()
    .map((row) => summarize(db, row, now));
}

/** The key with this numeric id, display prefix (or start of one) or full secret; null if none. */
export function resolveKey(db: Db, idOrPrefix: string): ApiKeyRow | null {
  const ref = idOrPrefix.trim();
  if (/^\d+$/.test(ref))
    return (
      db
        .select()
        .from(apiKeys)
        .where(eq(apiKeys.id, Number(ref)))
        .get() ?? null
    );
  if (looksLikeKey(ref) && ref.length > keyPrefix(ref).length) {
    return (
      db
        .select()
        .from(apiKeys)
        .where(eq(apiKeys.keyHash, hashKey(ref)))
        .get() ?? null
    );
  }
  if (!/^ak_[0-9A-Za-z]*$/.test(ref) || ref.length < 4) return null;
  const rows = db
    .select()
    .from(apiKeys)
    .where(sql`substr(${apiKeys.prefix}, 1, ${ref.length}) = ${ref}`)
    .limit(2)
    .all();
  if (rows.length > 1) throw new AmbiguousKeyError(`"${ref}" matches more than one key; use the id or a longer prefix`);
  return rows[0] ?? null;
}

/** Revokes a key (idempotent); returns the updated row, or null when no key matches. */
export function revokeKey(db: Db, idOrPrefix: string, now: number = Date.now()): ApiKeyRow | null {
  const row = resolveKey(db, idOrPrefix);
  if (!row) return null;
  if (row.status === 'revoked') return row;
  return db.update(apiKeys).set({ status: 'revoked', revokedAt: now }).where(eq(apiKeys.id, row.id)).returning().get() ?? null;
}

/** Quota and request count of a key. */
export function keyUsage(db: Db, row: ApiKeyRow, now: number = Date.now()): KeyUsage {
  flushUsage(db);
  const requests = db
    .select({ n: sql<number>`count(*)` })
    .from(usageEvents)
    .where(eq(usageEvents.keyId, row.id))
    .get();
  return { key: summarize(db, row, now), quota: getQuotaState(db, row, now), requests: requests?.n ?? 0 };
}
