/**
 * Whether detections can be scored (issue 40 item 1): /health scores one known text through the
 * same Detector the routes use. Before, one text left the wasm core broken, every detection of the
 * process answered 500 until a restart, and /health said `ok` throughout. The core now rebuilds
 * itself after a failure (src/detector/score/wasm.ts), so this answers `down` only while that
 * rebuild fails too, or scoring fails for any other reason; the probe also retries the rebuild.
 */
import type { Detector } from '../../detector/types';

/** What the probe found: scoring works, or the name of the error it threw. */
export type ScoringHealth = { scoring: 'up' } | { scoring: 'down'; reason: 'scoring_failing'; code: string };

/**
 * The probe's answer is kept this long (ms): /health needs no key, and an analysis costs ~0.3 ms,
 * so a flood of checks must not become a flood of analyses. A load balancer checks every few seconds.
 */
export const SCORING_PROBE_TTL_MS = 1000;

/** A known text of 50+ words: the probe scores it as a detection would. */
const PROBE_TEXT =
  'The committee met on Tuesday to review the budget for the coming year. After a long discussion about ' +
  'repairs to the library roof, the members agreed to postpone the purchase of new computers until the ' +
  'spring, when the final costs of the work will be known and the grant from the county has been paid.';

/** A cached probe of `detector`: call it for the current state (at most one analysis per SCORING_PROBE_TTL_MS). */
export function scoringProbe(detector: Detector, ttlMs: number = SCORING_PROBE_TTL_MS): () => ScoringHealth {
  let last: { at: number; health: ScoringHealth } | null = null;
  return function probeScoring(): ScoringHealth {
    const now = performance.now();
    if (last !== null && now - last.at < ttlMs) return last.health;
    let health: ScoringHealth;
    try {
      detector.analyze(PROBE_TEXT);
      health = { scoring: 'up' };
    } catch (error) {
      health = { scoring: 'down', reason: 'scoring_failing', code: (error as Error)?.name ?? 'Error' };
    }
    last = { at: now, health };
    return health;
  };
}
