/** The `keys` subcommand: create, list, revoke and inspect API keys (the secret is printed once, last). */
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import type { Config } from '../config';
import {
  AmbiguousKeyError,
  createKey,
  keyUsage,
  listKeys,
  resolveKey,
  revokeKey,
  type KeyAdminStores,
  type KeySummary,
} from '../modules/keys';
import { isPlanId, PLAN_IDS } from '../plans';
import { StoreUnavailableError } from '../store/errors';

/** Where the CLI writes: one call per line. */
export interface CliIo {
  out(line: string): void;
  err(line: string): void;
}

/** Commands that only work on keys that exist: on a missing SQLite file they stop rather than create an empty one. */
const READ_COMMANDS = new Set(['list', 'revoke', 'usage']);

/**
 * Why `keys <command>` cannot run on this configuration, or null: list/revoke/usage on a SQLite
 * file that does not exist (run from another directory, or a typo in DATABASE_PATH) would
 * otherwise create an empty database and report no keys. `keys create` may create it.
 */
export function missingDatabase(command: string | undefined, config: Pick<Config, 'databasePath' | 'databaseUrl'>): string | null {
  if (command === undefined || !READ_COMMANDS.has(command) || config.databaseUrl !== null) return null;
  const path = config.databasePath;
  if (path === ':memory:' || path.startsWith('file:') || existsSync(path)) return null;
  return (
    `keys ${command}: there is no database at ${resolve(path)} (DATABASE_PATH=${path}). ` +
    'Run this where the server runs, or set DATABASE_PATH (or DATABASE_URL) to its database; nothing was created.'
  );
}

/** The stores, or how to open them when a command needs them (help and usage errors open nothing). */
export type StoreSource = KeyAdminStores | (() => Promise<KeyAdminStores>);

/** Usage text of `keys`. */
export const KEYS_USAGE = `Usage:
  keys create --plan <${PLAN_IDS.join('|')}> [--name NAME]   prints the new key as the last line
  keys list                                   id, name, plan, prefix, words this month, status
  keys revoke <id-or-prefix>                  revokes ONE key: its id (3) or any start of its prefix (ak_3kQ9)
  keys usage <id-or-prefix>                   words, calls and requests of ONE key, named the same way
A start that several keys share revokes nothing: the command lists the matching keys and exits 1.`;

function table(rows: KeySummary[]): string[] {
  const header = ['ID', 'NAME', 'PLAN', 'PREFIX', 'WORDS_THIS_MONTH', 'STATUS'];
  const cells = rows.map((r) => [String(r.id), r.name ?? '-', r.plan, r.prefix, String(r.wordsUsedThisMonth), r.status]);
  const widths = header.map((h, i) => Math.max(h.length, ...cells.map((c) => c[i].length)));
  return [header, ...cells].map((line) =>
    line
      .map((c, i) => c.padEnd(widths[i]))
      .join('  ')
      .trimEnd(),
  );
}

async function create(store: KeyAdminStores, args: string[], io: CliIo): Promise<number> {
  const { values } = parseArgs({ args, options: { plan: { type: 'string' }, name: { type: 'string' } }, strict: true });
  if (!values.plan || !isPlanId(values.plan)) {
    io.err(`keys create: --plan must be one of ${PLAN_IDS.join(', ')}`);
    return 2;
  }
  const created = await createKey(store.keys, { plan: values.plan, name: values.name ?? null });
  io.out(`Created key #${created.id} (plan ${created.plan}${created.name ? `, name "${created.name}"` : ''}, prefix ${created.prefix}).`);
  io.out('Store it now: it is shown only once and only its hash is kept.');
  io.out(created.key);
  return 0;
}

async function withKey(ref: string | undefined, command: string, io: CliIo, action: (id: string) => Promise<number>): Promise<number> {
  if (!ref) {
    io.err(`keys ${command}: give a key id or prefix`);
    return 2;
  }
  try {
    return await action(ref);
  } catch (error) {
    if (error instanceof AmbiguousKeyError) {
      io.err(`keys ${command}: ${error.message}`);
      return 1;
    }
    throw error;
  }
}

/** Runs `keys <command> ...` against the store (SQLite or PostgreSQL); returns the process exit code. */
export async function runKeysCli(args: string[], source: StoreSource, io: CliIo): Promise<number> {
  const [command, ...rest] = args;
  const open = async () => (typeof source === 'function' ? source() : source);
  try {
    switch (command) {
      case 'create':
        return await create(await open(), rest, io);
      case 'help':
      case '--help':
      case '-h':
        io.out(KEYS_USAGE);
        return 0;
      case 'list':
        for (const line of table(await listKeys(await open()))) io.out(line);
        return 0;
      case 'revoke':
        return await withKey(rest[0], 'revoke', io, async (ref) => {
          const revoked = await revokeKey((await open()).keys, ref);
          if (!revoked) return notFound(io, 'revoke', ref);
          const { key, alreadyRevoked } = revoked;
          // Idempotent, so exit 0 either way; the message says whether anything changed.
          if (alreadyRevoked)
            io.out(`Key #${key.id} (${key.prefix}) was already revoked on ${new Date(key.revokedAt ?? 0).toISOString()}.`);
          else io.out(`Revoked key #${key.id} (${key.prefix}).`);
          return 0;
        });
      case 'usage':
        return await withKey(rest[0], 'usage', io, async (ref) => {
          const store = await open();
          const row = await resolveKey(store.keys, ref);
          if (!row) return notFound(io, 'usage', ref);
          const { key, quota, requests } = await keyUsage(store, row);
          io.out(`Key #${key.id} ${key.prefix} (${key.name ?? 'no name'}), plan ${key.plan}, ${key.status}`);
          io.out(
            `Words this month: ${quota.used} of ${quota.limit} (${quota.remaining} left), resets ${new Date(quota.resetAt * 1000).toISOString()}`,
          );
          if (quota.callLimit !== null) io.out(`Calls: ${quota.callsUsed} of ${quota.callLimit}`);
          io.out(`Requests recorded: ${requests}`);
          return 0;
        });
      default:
        io.err(command ? `keys: unknown command "${command}"` : 'keys: missing command');
        io.err(KEYS_USAGE);
        return 2;
    }
  } catch (error) {
    if (error instanceof TypeError && 'code' in error && String(error.code).startsWith('ERR_PARSE_ARGS')) {
      io.err(`keys ${command}: ${error.message}`);
      return 2;
    }
    if (error instanceof StoreUnavailableError) {
      io.err(`keys ${command}: the database did not answer (${error.reason}); nothing was changed. Try again.`);
      return 1;
    }
    throw error;
  }
}

function notFound(io: CliIo, command: string, ref: string): number {
  io.err(`keys ${command}: no key matches "${ref}"`);
  return 1;
}
