import { describe, expect, it, setDefaultTimeout } from 'bun:test';
import { SUITE_TIMEOUT_MS } from '../timeout';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import postgresJournal from '../../drizzle/postgres/meta/_journal.json';
import sqliteJournal from '../../drizzle/sqlite/meta/_journal.json';
import * as postgres from '../../src/store/postgres/migrate';
import { BUSY_TIMEOUT_MS, openDatabase } from '../../src/store/sqlite/client';
import * as sqlite from '../../src/store/sqlite/migrate';

setDefaultTimeout(SUITE_TIMEOUT_MS);

const ROOT = join(import.meta.dir, '../..');

describe('migrations', () => {
  const dialects = [
    ['sqlite', sqliteJournal, sqlite.EMBEDDED_MIGRATIONS, sqlite.embeddedMigrations],
    ['postgres', postgresJournal, postgres.EMBEDDED_MIGRATIONS, postgres.embeddedMigrations],
  ] as const;
  for (const [dialect, journal, embedded, migrations] of dialects) {
    it(`embeds every ${dialect} migration listed in the drizzle-kit journal, byte for byte`, async () => {
      expect(journal.dialect).toBe(dialect === 'sqlite' ? 'sqlite' : 'postgresql');
      for (const entry of journal.entries) {
        expect(embedded[entry.tag]).toBe(await Bun.file(join(ROOT, 'drizzle', dialect, `${entry.tag}.sql`)).text());
      }
      expect(migrations()).toHaveLength(journal.entries.length);
    });
  }

  it('keeps the two schemas in step: the same tables and columns', async () => {
    const columns = (sql: string) =>
      [...sql.matchAll(/CREATE TABLE [`"](\w+)[`"] \(([\s\S]*?)\n\);?/g)].map(([, table, body]) => [
        table,
        [...body.matchAll(/^\s*[`"](\w+)[`"]/gm)].map((m) => m[1]).sort(),
      ]);
    const sqliteSql = Object.values(sqlite.EMBEDDED_MIGRATIONS).join('\n');
    const postgresSql = Object.values(postgres.EMBEDDED_MIGRATIONS).join('\n');
    expect(columns(postgresSql)).toEqual(columns(sqliteSql));
    expect(columns(sqliteSql).map(([table]) => table)).toEqual([
      'api_keys',
      'monthly_usage',
      'usage_events',
      'idempotency_records',
      'rate_buckets',
      'charge_holds',
      'calibrations',
    ]);
  });

  it('creates the SQLite tables once and is idempotent', () => {
    const db = openDatabase(':memory:');
    sqlite.migrateDatabase(db);
    sqlite.migrateDatabase(db);
    const tables = db.$client
      .query<{ name: string }, []>("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")
      .all()
      .map((r) => r.name);
    expect(tables).toEqual([
      '__drizzle_migrations',
      'api_keys',
      'calibrations',
      'charge_holds',
      'idempotency_records',
      'monthly_usage',
      'rate_buckets',
      'sqlite_sequence',
      'usage_events',
    ]);
    expect(db.$client.query<{ n: number }, []>('SELECT count(*) AS n FROM __drizzle_migrations').get()?.n).toBe(
      sqliteJournal.entries.length,
    );
  });

  it('opens a file database in WAL mode with synchronous=NORMAL and a short busy timeout, creating its directory', () => {
    const dir = mkdtempSync(join(tmpdir(), 'detector-db-'));
    try {
      const db = openDatabase(join(dir, 'nested', 'deeper', 'x.sqlite'));
      const pragma = (name: string) => Object.values(db.$client.query(`PRAGMA ${name}`).get() as object)[0];
      expect(pragma('journal_mode')).toBe('wal');
      expect(pragma('synchronous')).toBe(1); // NORMAL
      // Short: SQLite's wait is synchronous and freezes the event loop; longer waits are retried asynchronously (busy.ts).
      expect(pragma('busy_timeout')).toBe(BUSY_TIMEOUT_MS);
      expect(BUSY_TIMEOUT_MS).toBeLessThanOrEqual(20);
      db.$client.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
