/** The store's answer to GET /health: the latest write's outcome, then a short probe. */
import { driverCode } from './errors';
import type { StoreHealth } from './types';
import type { WriteHealth } from './write-health';

/** How long a health probe may take: a store that cannot answer within this is reported down (docs/deploy.md). */
export const HEALTH_PROBE_MS = 1000;
/**
 * How long the SQLite probe waits for another process's write lock before saying `locked`: well
 * under the 0.5 s a load balancer's check may allow (it waited HEALTH_PROBE_MS, 1.0 s, before).
 */
export const HEALTH_LOCK_PROBE_MS = 250;

/** Down while the latest write failed; otherwise up when `probe` succeeds, down with its code when not. */
export async function probeHealth(writes: WriteHealth, probe: () => Promise<unknown>): Promise<StoreHealth> {
  const failing = writes.state();
  if (failing) return failing;
  try {
    await probe();
    return { store: 'up' };
  } catch (error) {
    const code = driverCode(error);
    return { store: 'down', reason: code.startsWith('SQLITE_BUSY') ? 'locked' : 'unreachable', code };
  }
}
