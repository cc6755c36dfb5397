/** Per-database cache of prepared statements for the hot request path (raw SQL ~5x faster than the builder). */
import type { SQLQueryBindings, Statement } from 'bun:sqlite';
import type { Db } from './client';

/** Named parameters of a prepared statement (`$name` in SQL, `{ name }` here: strict mode). */
export type NamedParams = Record<string, string | number | null>;

const caches = new WeakMap<Db, Map<string, Statement>>();

/** The prepared statement for `sql` on this database, prepared once. */
export function prepared<Row = unknown>(db: Db, sql: string): Statement<Row, [NamedParams]> {
  let cache = caches.get(db);
  if (!cache) {
    cache = new Map();
    caches.set(db, cache);
  }
  let statement = cache.get(sql);
  if (!statement) {
    statement = db.$client.prepare<unknown, SQLQueryBindings[]>(sql);
    cache.set(sql, statement);
  }
  return statement as unknown as Statement<Row, [NamedParams]>;
}
