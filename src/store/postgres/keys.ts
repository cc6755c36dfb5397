/** PostgreSQL KeyStore: Drizzle's builder for administration, one raw statement for the per-request lookup. */
import { count, desc, eq, sql } from 'drizzle-orm';
import { withDeadline } from '../deadline';
import type { ApiKey, KeyStore } from '../types';
import type { PgDb } from './client';
import { apiKeys } from './schema';

const ACTIVE_KEY_SQL = `SELECT id, name, plan, key_hash AS "keyHash", prefix, status, created_at AS "createdAt", revoked_at AS "revokedAt"
  FROM api_keys WHERE key_hash = $1 AND status = 'active'`;

/** bigint columns arrive as strings from a raw query ("1795301289986"). */
function fromRaw(row: Record<string, unknown>): ApiKey {
  return {
    id: Number(row.id),
    name: (row.name as string | null) ?? null,
    plan: row.plan as string,
    keyHash: row.keyHash as string,
    prefix: row.prefix as string,
    status: row.status as ApiKey['status'],
    createdAt: Number(row.createdAt),
    revokedAt: row.revokedAt === null || row.revokedAt === undefined ? null : Number(row.revokedAt),
  };
}

/** The KeyStore of a PostgreSQL pool; every call fails with StoreUnavailableError after `timeoutMs`. */
export function postgresKeyStore(db: PgDb, timeoutMs: number): KeyStore {
  const run = <T>(work: Promise<T>) => withDeadline(work, timeoutMs);
  const first = (rows: ApiKey[]) => rows[0] ?? null;
  return {
    insert: (key) =>
      run(
        db
          .insert(apiKeys)
          .values(key)
          .returning()
          .then((rows) => rows[0] as ApiKey),
      ),
    findActiveByHash: (hash) =>
      run(db.$client.unsafe(ACTIVE_KEY_SQL, [hash]).then((rows: Record<string, unknown>[]) => (rows[0] ? fromRaw(rows[0]) : null))),
    byId: (id) => run(db.select().from(apiKeys).where(eq(apiKeys.id, id)).then(first)),
    byHash: (hash) => run(db.select().from(apiKeys).where(eq(apiKeys.keyHash, hash)).then(first)),
    byPrefixStart: (start, limit) =>
      run(db.select().from(apiKeys).where(sql`substr(${apiKeys.prefix}, 1, ${start.length}) = ${start}`).limit(limit)),
    list: () => run(db.select().from(apiKeys).orderBy(desc(apiKeys.id))),
    count: () =>
      run(
        db
          .select({ n: count() })
          .from(apiKeys)
          .then((rows) => Number(rows[0]?.n ?? 0)),
      ),
    revoke: (id, at) =>
      run(
        (async () => {
          const updated = await db
            .update(apiKeys)
            .set({ status: 'revoked', revokedAt: at })
            .where(sql`${apiKeys.id} = ${id} AND ${apiKeys.status} = 'active'`)
            .returning();
          if (updated[0]) return updated[0] as ApiKey;
          return first(await db.select().from(apiKeys).where(eq(apiKeys.id, id)));
        })(),
      ),
  };
}
