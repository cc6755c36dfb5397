/**
 * What the soak reports about the tables that grow with traffic (issue 33): usage_events (one row
 * per request), usage_totals (what the retention rule folds them into) and idempotency_records
 * (kept answers, bounded per key by IDEMPOTENCY_MAX_PER_KEY), in rows and bytes of their pages
 * (SQLite's dbstat, indexes included); and one pass of the retention rule over everything, timed.
 */
import { Database } from 'bun:sqlite';
import { openStore } from '../src/store';

/** The tables watched, as SQLite names them. */
const TABLES = ['usage_events', 'usage_totals', 'idempotency_records'] as const;
type Table = (typeof TABLES)[number];

/** Rows and bytes (table and index pages) of one table. */
export interface TableSize {
  rows: number;
  bytes: number;
}

/** The watched tables' sizes in the SQLite database at `path` (read-only; safe while the server writes). */
export function tableSizes(path: string): Record<Table, TableSize> {
  const db = new Database(path, { readonly: true });
  try {
    const owner = new Map(
      (db.query('SELECT name, tbl_name AS tbl FROM sqlite_schema').all() as Array<{ name: string; tbl: string }>).map((r) => [
        r.name,
        r.tbl,
      ]),
    );
    const pages = db.query('SELECT name, SUM(pgsize) AS bytes FROM dbstat GROUP BY name').all() as Array<{ name: string; bytes: number }>;
    const sizes = Object.fromEntries(TABLES.map((t) => [t, { rows: 0, bytes: 0 }])) as Record<Table, TableSize>;
    for (const page of pages) {
      const table = owner.get(page.name) as Table | undefined;
      if (table && table in sizes) sizes[table].bytes += page.bytes;
    }
    for (const table of TABLES) sizes[table].rows = (db.query(`SELECT count(*) AS n FROM ${table}`).get() as { n: number }).n;
    return sizes;
  } finally {
    db.close();
  }
}

/** Runs the retention rule once over every event (as if all were past the period): how many were folded, in how long. */
export async function compactEverything(path: string): Promise<{ events: number; ms: number }> {
  const store = await openStore({ databasePath: path, databaseUrl: null, storeTimeoutMs: 5_000 }, { migrate: false });
  try {
    const t = performance.now();
    const events = await store.usage.compact(Date.now() + 1);
    return { events, ms: performance.now() - t };
  } finally {
    await store.close();
  }
}

/** `rows (KB)` for a report cell. */
export function sizeCell(size: TableSize): string {
  return `${size.rows.toLocaleString('en-US')} (${(size.bytes / 1024).toFixed(0)} KB)`;
}
