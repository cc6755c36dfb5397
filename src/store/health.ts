/** The store's answer to GET /health: a short probe, 'up' or 'down'. */
import type { StoreHealth } from './types';

/** How long a health probe may take: a store that cannot answer within this is reported down (docs/deploy.md). */
export const HEALTH_PROBE_MS = 1000;

/** 'up' when `probe` (a statement run with a HEALTH_PROBE_MS deadline) succeeds, 'down' otherwise. */
export async function probeHealth(probe: () => Promise<unknown>): Promise<StoreHealth> {
  try {
    await probe();
    return 'up';
  } catch {
    return 'down';
  }
}
