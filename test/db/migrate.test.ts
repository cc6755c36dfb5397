import { describe, expect, it } from 'bun:test';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import journal from '../../drizzle/meta/_journal.json';
import { openDatabase } from '../../src/db/client';
import { EMBEDDED_MIGRATIONS, embeddedMigrations, migrateDatabase } from '../../src/db/migrate';

describe('migrations', () => {
  it('embeds every migration listed in the drizzle-kit journal, byte for byte', async () => {
    for (const entry of journal.entries) {
      expect(EMBEDDED_MIGRATIONS[entry.tag]).toBe(
        await Bun.file(join(import.meta.dir, '../../drizzle', `${entry.tag}.sql`)).text(),
      );
    }
    expect(embeddedMigrations()).toHaveLength(journal.entries.length);
  });

  it('creates the tables once and is idempotent', () => {
    const db = openDatabase(':memory:');
    migrateDatabase(db);
    migrateDatabase(db);
    const tables = db.$client
      .query<{ name: string }, []>("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")
      .all()
      .map((r) => r.name);
    expect(tables).toEqual(['__drizzle_migrations', 'api_keys', 'monthly_usage', 'sqlite_sequence', 'usage_events']);
    expect(db.$client.query<{ n: number }, []>('SELECT count(*) AS n FROM __drizzle_migrations').get()?.n).toBe(
      journal.entries.length,
    );
  });

  it('opens a file database in WAL mode with synchronous=NORMAL and a busy timeout, creating its directory', () => {
    const dir = mkdtempSync(join(tmpdir(), 'detector-db-'));
    try {
      const db = openDatabase(join(dir, 'nested', 'deeper', 'x.sqlite'));
      const pragma = (name: string) => Object.values(db.$client.query(`PRAGMA ${name}`).get() as object)[0];
      expect(pragma('journal_mode')).toBe('wal');
      expect(pragma('synchronous')).toBe(1); // NORMAL
      expect(pragma('busy_timeout')).toBe(5000);
      db.$client.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
