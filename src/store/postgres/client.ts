/** Bun's built-in PostgreSQL client (no dependency) and Drizzle over it (drizzle-orm/bun-sql). */
import { SQL } from 'bun';
import { drizzle, type BunSQLDatabase } from 'drizzle-orm/bun-sql';
import * as schema from './schema';

/** The Drizzle handle of the PostgreSQL store (the raw client on `$client`). */
export type PgDb = BunSQLDatabase<typeof schema> & { $client: SQL };

/**
 * Connections per server process. Charges of one event-loop turn go out as one pipelined
 * transaction (quota.ts), so a few connections carry thousands of charges a second; each
 * WORKERS process and each instance has its own pool, so N instances x WORKERS x this must stay
 * below the server's max_connections (100 by default).
 */
export const POOL_MAX = 8;

/** The URL without its password, for logs and error messages. */
export function redactUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    return parsed.toString();
  } catch {
    return 'postgres://(unparsable URL)';
  }
}

/** A pool on `url`; connections open on first use. A connection attempt gives up after `timeoutMs`. */
export function openPostgres(url: string, timeoutMs: number): PgDb {
  const client = new SQL({
    url,
    max: POOL_MAX,
    connectionTimeout: Math.max(1, Math.ceil(timeoutMs / 1000)),
    // Idle connections go after a minute (a restarted server or a NAT forgets them anyway).
    idleTimeout: 60,
  });
  return drizzle({ client, schema }) as PgDb;
}
