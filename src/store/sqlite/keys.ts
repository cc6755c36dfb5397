/** SQLite KeyStore: Drizzle's builder for administration, one prepared statement for the per-request lookup. */
import { count, desc, eq, sql } from 'drizzle-orm';
import type { ApiKey, KeyStore } from '../types';
import { retryBusy } from './busy';
import type { Db } from './client';
import { prepared } from './prepared';
import { apiKeys } from './schema';

const ACTIVE_KEY_SQL = `SELECT id, name, plan, key_hash AS keyHash, prefix, status, created_at AS createdAt, revoked_at AS revokedAt
  FROM api_keys WHERE key_hash = $hash AND status = 'active'`;

/** The KeyStore of one SQLite connection; every call retries a busy lock up to `timeoutMs`. */
export function sqliteKeyStore(db: Db, timeoutMs: number): KeyStore {
  const run = <T>(work: () => T) => retryBusy(work, performance.now() + timeoutMs);
  return {
    insert: (key) => run(() => db.insert(apiKeys).values(key).returning().get() as ApiKey),
    // No cache: ~7 us a lookup, and a revocation is seen by the next request of every process.
    findActiveByHash: (hash) => run(() => prepared<ApiKey>(db, ACTIVE_KEY_SQL).get({ hash }) ?? null),
    byId: (id) => run(() => (db.select().from(apiKeys).where(eq(apiKeys.id, id)).get() as ApiKey | undefined) ?? null),
    byHash: (hash) => run(() => (db.select().from(apiKeys).where(eq(apiKeys.keyHash, hash)).get() as ApiKey | undefined) ?? null),
    byPrefixStart: (start, limit) =>
      run(
        () => db.select().from(apiKeys).where(sql`substr(${apiKeys.prefix}, 1, ${start.length}) = ${start}`).limit(limit).all() as ApiKey[],
      ),
    list: () => run(() => db.select().from(apiKeys).orderBy(desc(apiKeys.id)).all() as ApiKey[]),
    count: () => run(() => db.select({ n: count() }).from(apiKeys).get()?.n ?? 0),
    revoke: (id, at) =>
      run(() => {
        const updated = db
          .update(apiKeys)
          .set({ status: 'revoked', revokedAt: at })
          .where(sql`${apiKeys.id} = ${id} AND ${apiKeys.status} = 'active'`)
          .returning()
          .get() as ApiKey | undefined;
        return updated ?? (db.select().from(apiKeys).where(eq(apiKeys.id, id)).get() as ApiKey | undefined) ?? null;
      }),
  };
}
