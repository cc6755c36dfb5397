/**
 * drizzle-kit migrations embedded at build time: inside `bun build --compile` drizzle's folder
 * migrator fails (`Can't find meta/_journal.json`), so each dialect imports its journal and SQL
 * files (`with { type: 'text' }`) and hands them to drizzle's own dialect migrator in the shape
 * that migrator builds from a folder.
 */
import { createHash } from 'node:crypto';
import type { MigrationMeta } from 'drizzle-orm/migrator';

/** The part of drizzle-kit's meta/_journal.json the migrator reads. */
export interface Journal {
  entries: ReadonlyArray<{ tag: string; when: number; breakpoints: boolean }>;
}

const BREAKPOINT = '--> statement-breakpoint';

/**
 * The journal's migrations in order. `embedded` maps each journal tag to its SQL text; a tag
 * without SQL is an error (a new migration generated but not imported).
 */
export function journalMigrations(journal: Journal, embedded: Readonly<Record<string, string>>, where: string): MigrationMeta[] {
  return journal.entries.map((entry) => {
    const query = embedded[entry.tag];
    if (query === undefined) throw new Error(`migration ${entry.tag} is in the journal but not embedded in ${where}`);
    return {
      sql: query.split(BREAKPOINT),
      bps: entry.breakpoints,
      folderMillis: entry.when,
      hash: createHash('sha256').update(query).digest('hex'),
    };
  });
}

/** drizzle's internals that its folder migrators call; not in the public types. */
export interface DialectMigrator {
  dialect: { migrate(migrations: MigrationMeta[], session: unknown, config: object): unknown };
  session: unknown;
}
