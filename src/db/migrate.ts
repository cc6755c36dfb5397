/** Applies the drizzle-kit migrations, embedded at build time so `bun build --compile` needs no drizzle/ folder. */
import { createHash } from 'node:crypto';
import type { MigrationMeta } from 'drizzle-orm/migrator';
import journal from '../../drizzle/meta/_journal.json';
import m0000 from '../../drizzle/0000_init.sql' with { type: 'text' };
import type { Db } from './client';

/**
 * Every generated migration, by journal tag. After `bunx drizzle-kit generate`, add the new
 * file here (test/db/migrate.test.ts fails until every journal entry is embedded).
 */
export const EMBEDDED_MIGRATIONS: Readonly<Record<string, string>> = {
  '0000_init': m0000,
};

const BREAKPOINT = '--> statement-breakpoint';

/** The journal's migrations in order, in the shape drizzle's own migrator builds from a folder. */
export function embeddedMigrations(): MigrationMeta[] {
  return journal.entries.map((entry) => {
    const query = EMBEDDED_MIGRATIONS[entry.tag];
    if (query === undefined) throw new Error(`migration ${entry.tag} is in the journal but not embedded in src/db/migrate.ts`);
    return {
      sql: query.split(BREAKPOINT),
      bps: entry.breakpoints,
      folderMillis: entry.when,
      hash: createHash('sha256').update(query).digest('hex'),
    };
  });
}

/** drizzle's internals that its folder migrator calls; not in the public types. */
interface DialectMigrator {
  dialect: { migrate(migrations: MigrationMeta[], session: unknown, config: object): void };
  session: unknown;
}

/** Brings the schema up to date inside one transaction (drizzle's own bookkeeping table). */
export function migrateDatabase(db: Db): void {
  const internal = db as unknown as DialectMigrator;
  // Same call drizzle-orm/bun-sqlite/migrator makes after reading the folder from disk.
  internal.dialect.migrate(embeddedMigrations(), internal.session, {});
}
