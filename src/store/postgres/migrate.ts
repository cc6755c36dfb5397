/**
 * Applies the PostgreSQL migrations (drizzle/postgres), embedded so the compiled binary needs no
 * drizzle/ folder. Several instances may start at once on one database: a session advisory lock
 * makes them migrate one after the other (the second finds nothing to do).
 */
import type { MigrationMeta } from 'drizzle-orm/migrator';
import journal from '../../../drizzle/postgres/meta/_journal.json';
import m0000 from '../../../drizzle/postgres/0000_init.sql' with { type: 'text' };
import m0001 from '../../../drizzle/postgres/0001_charge_function.sql' with { type: 'text' };
import m0002 from '../../../drizzle/postgres/0002_idempotency.sql' with { type: 'text' };
import m0003 from '../../../drizzle/postgres/0003_rate_buckets.sql' with { type: 'text' };
import m0004 from '../../../drizzle/postgres/0004_take_rates_function.sql' with { type: 'text' };
import m0005 from '../../../drizzle/postgres/0005_charge_holds.sql' with { type: 'text' };
import m0006 from '../../../drizzle/postgres/0006_calibrations.sql' with { type: 'text' };
import { journalMigrations, type DialectMigrator } from '../migrations';
import type { PgDb } from './client';

/** Every generated migration, by journal tag (test/store/migrate.test.ts checks the journal is covered). */
export const EMBEDDED_MIGRATIONS: Readonly<Record<string, string>> = {
  '0000_init': m0000,
  '0001_charge_function': m0001,
  '0002_idempotency': m0002,
  '0003_rate_buckets': m0003,
  '0004_take_rates_function': m0004,
  '0005_charge_holds': m0005,
  '0006_calibrations': m0006,
};

/** Advisory lock key of the migrations: an arbitrary constant (the ASCII bytes of "AIDET"). */
export const MIGRATION_LOCK = 0x41_49_44_45_54;

/** The journal's migrations in order, in the shape drizzle's own migrator builds from a folder. */
export function embeddedMigrations(): MigrationMeta[] {
  return journalMigrations(journal, EMBEDDED_MIGRATIONS, 'src/store/postgres/migrate.ts');
}

/** Runs `work` while holding the instance-wide migration lock (also used for the bootstrap key). */
export async function withMigrationLock<T>(db: PgDb, work: () => Promise<T>): Promise<T> {
  const holder = await db.$client.reserve();
  try {
    await holder`SELECT pg_advisory_lock(${MIGRATION_LOCK})`;
    try {
      return await work();
    } finally {
      await holder`SELECT pg_advisory_unlock(${MIGRATION_LOCK})`;
    }
  } finally {
    holder.release();
  }
}

/** Brings the schema up to date in one transaction (drizzle's own bookkeeping table, schema "drizzle"). */
export async function migratePostgres(db: PgDb): Promise<void> {
  const internal = db as unknown as DialectMigrator;
  // Same call drizzle-orm/bun-sql/migrator makes after reading the folder from disk.
  await internal.dialect.migrate(embeddedMigrations(), internal.session, {});
}
