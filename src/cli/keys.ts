/** The `keys` subcommand: create, list, revoke and inspect API keys (the secret is printed once, last). */
import { parseArgs } from 'node:util';
import { AmbiguousKeyError, createKey, keyUsage, listKeys, resolveKey, revokeKey, type KeyAdminStores, type KeySummary } from '../modules/keys';
import { isPlanId, PLAN_IDS } from '../plans';
import { StoreUnavailableError } from '../store/errors';

/** Where the CLI writes: one call per line. */
export interface CliIo {
  out(line: string): void;
  err(line: string): void;
}

/** Usage text of `keys`. */
export const KEYS_USAGE = `Usage:
  keys create --plan <${PLAN_IDS.join('|')}> [--name NAME]   prints the new key as the last line
  keys list                                   id, name, plan, prefix, words this month, status
  keys revoke <id-or-prefix>
  keys usage <id-or-prefix>`;

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
  io.out(
    `Created key #${created.id} (plan ${created.plan}${created.name ? `, name "${created.name}"` : ''}, prefix ${created.prefix}).`,
  );
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
export async function runKeysCli(args: string[], store: KeyAdminStores, io: CliIo): Promise<number> {
  const [command, ...rest] = args;
  try {
    switch (command) {
      case 'create':
        return await create(store, rest, io);
      case 'help':
      case '--help':
      case '-h':
        io.out(KEYS_USAGE);
        return 0;
      case 'list':
        for (const line of table(await listKeys(store))) io.out(line);
        return 0;
      case 'revoke':
        return await withKey(rest[0], 'revoke', io, async (ref) => {
          const row = await revokeKey(store.keys, ref);
          if (!row) return notFound(io, 'revoke', ref);
          io.out(`Revoked key #${row.id} (${row.prefix}).`);
          return 0;
        });
      case 'usage':
        return await withKey(rest[0], 'usage', io, async (ref) => {
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
