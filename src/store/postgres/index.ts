/** The PostgreSQL store: one database shared by every instance behind a load balancer. */
import { cachedCalibrationStore } from '../calibration-cache';
import { cachedKeyStore } from '../key-cache';
import { driverCode, StoreOpenError } from '../errors';
import { withDeadline } from '../deadline';
import type { StoreOptions } from '../options';
import { HEALTH_PROBE_MS, probeHealth } from '../health';
import { watchQuotaWrites, watchRateWrites } from '../watch-writes';
import { WriteHealth } from '../write-health';
import { keepTrying } from '../retry';
import type { Store } from '../types';
import { postgresCalibrationStore } from './calibrations';
import { openPostgres, redactUrl, type PgDb } from './client';
import { postgresIdempotencyStore } from './idempotency';
import { postgresKeyStore } from './keys';
import { postgresChargeLedger } from './ledger';
import { migratePostgres, withMigrationLock } from './migrate';
import { postgresQuotaStore } from './quota';
import { postgresRateStore } from './rates';
import { postgresUsageSink } from './usage';

export { withMigrationLock } from './migrate';

/** How long the refund of a charge that committed after its request gave up keeps being retried. */
const LATE_REFUND_WINDOW_MS = 60 * 60 * 1000;

/** A store on PostgreSQL, with its Drizzle handle for tools and tests. */
export interface PostgresStore extends Store {
  readonly dialect: 'postgres';
  readonly db: PgDb;
}

/** Connects (and migrates, unless told not to), or throws StoreOpenError with one line: where, why, what to do. */
export async function openPostgresStore(url: string, options: StoreOptions): Promise<PostgresStore> {
  const { timeoutMs, calibrationCacheBytes, migrate = true, onEvent = () => {} } = options;
  const db = openPostgres(url, timeoutMs);
  const location = redactUrl(url);
  try {
    if (migrate)
      await withDeadline(
        withMigrationLock(db, () => migratePostgres(db)),
        Math.max(timeoutMs, 30_000),
      );
    else await withDeadline(db.$client`SELECT 1` as Promise<unknown>, timeoutMs);
  } catch (error) {
    await db.$client.close({ timeout: 0 }).catch(() => {});
    const cause = (error as { cause?: unknown }).cause ?? error;
    const why = (cause as Error)?.message?.split('\n')[0] ?? String(cause);
    throw new StoreOpenError(
      `Cannot use the PostgreSQL database ${location}: ${why} (${driverCode(cause)}). Check DATABASE_URL (user, password, host, port, database) and that the server accepts connections from here.`,
    );
  }
  const keys = cachedKeyStore(postgresKeyStore(db, timeoutMs));
  const writes = new WriteHealth();
  const usage = postgresUsageSink(db, timeoutMs, onEvent, writes);
  const ledger = postgresChargeLedger(db, timeoutMs);
  const quota = postgresQuotaStore(db, timeoutMs, (request) => {
    const fields = { keyId: request.keyId, words: request.words };
    onEvent('late_charge_refunding', fields);
    const { hold } = request;
    // A held charge is given back through its hold, so its lease never gives it back a second time.
    const refund = hold
      ? () => ledger.settle(hold.id, hold.attempt, 0, { keep: true, calls: 1 })
      : () => quota.refund(request.keyId, request.period, request.words, 1);
    void keepTrying(refund, { windowMs: LATE_REFUND_WINDOW_MS }).then(
      (outcome) => outcome.ok || onEvent('late_charge_refund_failed', { ...fields, name: driverCode(outcome.lastError) }),
    );
  });
  let closed = false;
  return {
    dialect: 'postgres',
    db,
    location,
    keys,
    quota: watchQuotaWrites(quota, writes),
    usage,
    idempotency: postgresIdempotencyStore(db, timeoutMs),
    rates: watchRateWrites(postgresRateStore(db, timeoutMs), writes),
    ledger,
    calibrations: cachedCalibrationStore(postgresCalibrationStore(db, timeoutMs), { maxBytes: calibrationCacheBytes }),
    health: () => probeHealth(writes, () => withDeadline(db.$client`SELECT 1` as Promise<unknown>, HEALTH_PROBE_MS)),
    async close() {
      if (closed) return;
      closed = true;
      await usage.close();
      await db.$client.close({ timeout: 5 });
    },
  };
}
