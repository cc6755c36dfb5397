/** Per-database cache of prepared statements for the hot request path (raw SQL ~5x faster than the builder). */
import type { Statement } from 'bun:sqlite';
import type { Db } from './client';

const caches = new WeakMap<Db, Map<string, Statement>>();

/** The prepared statement for `sql` on this database, prepared once. */
export function prepared<Row = unknown, Params extends Record<string, unknown> = Record<string, string | number | null>>(
  db: Db,
  sql: string,
): Statement<Row, [Params]> {
  let cache = caches.get(db);
  if (!cache) {
    cache = new Map();
    caches.set(db, cache);
  }
  let statement = cache.get(sql);
  if (!statement) {
    statement = db.$client.prepare(sql);
    cache.set(sql, statement);
  }
  return statement as unknown as Statement<Row, [Params]>;
}
