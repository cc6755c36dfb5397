/** Applies the SQLite migrations (drizzle/sqlite), embedded so the compiled binary needs no drizzle/ folder. */
import type { MigrationMeta } from 'drizzle-orm/migrator';
import journal from '../../../drizzle/sqlite/meta/_journal.json';
import m0000 from '../../../drizzle/sqlite/0000_init.sql' with { type: 'text' };
import m0001 from '../../../drizzle/sqlite/0001_idempotency.sql' with { type: 'text' };
import m0002 from '../../../drizzle/sqlite/0002_rate_buckets.sql' with { type: 'text' };
import m0003 from '../../../drizzle/sqlite/0003_charge_holds.sql' with { type: 'text' };
import m0004 from '../../../drizzle/sqlite/0004_calibrations.sql' with { type: 'text' };
import { journalMigrations, type DialectMigrator } from '../migrations';
import type { Db } from './client';

/**
 * Every generated migration, by journal tag. After `bun run db:generate`, add the new file here
 * (test/store/migrate.test.ts fails until every journal entry is embedded).
 */
export const EMBEDDED_MIGRATIONS: Readonly<Record<string, string>> = {
  '0000_init': m0000,
  '0001_idempotency': m0001,
  '0002_rate_buckets': m0002,
  '0003_charge_holds': m0003,
  '0004_calibrations': m0004,
};

/** The journal's migrations in order, in the shape drizzle's own migrator builds from a folder. */
export function embeddedMigrations(): MigrationMeta[] {
  return journalMigrations(journal, EMBEDDED_MIGRATIONS, 'src/store/sqlite/migrate.ts');
}

/** Brings the schema up to date inside one transaction (drizzle's own bookkeeping table). */
export function migrateDatabase(db: Db): void {
  const internal = db as unknown as DialectMigrator;
  // Same call drizzle-orm/bun-sqlite/migrator makes after reading the folder from disk.
  internal.dialect.migrate(embeddedMigrations(), internal.session, {});
}
