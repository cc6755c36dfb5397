import { describe, expect, it, setDefaultTimeout } from 'bun:test';
import { SUITE_TIMEOUT_MS } from './timeout';
import { startMemoryGovernor } from '../src/memory-governor';

setDefaultTimeout(SUITE_TIMEOUT_MS);

const MB = 1024 * 1024;

/** A governor over a fake RSS that a collection brings down to `live`. */
function fake(softLimitBytes: number, live: number) {
  let rss = live;
  const governor = startMemoryGovernor({
    softLimitBytes,
    rss: () => rss,
    collect: () => {
      rss = live;
    },
    sampleMs: 1_000_000,
  });
  return { governor, grow: (bytes: number) => (rss += bytes), rss: () => rss };
}

describe('memory governor', () => {
  it('does nothing under the soft limit', () => {
    const { governor, grow } = fake(512 * MB, 100 * MB);
    grow(400 * MB);
    governor.check();
    expect(governor.collections).toBe(0);
    governor.stop();
  });

  it('collects once RSS passes the soft limit, and brings it back', () => {
    const { governor, grow, rss } = fake(512 * MB, 100 * MB);
    grow(500 * MB);
    governor.check();
    expect(governor.collections).toBe(1);
    expect(rss()).toBe(100 * MB);
    governor.stop();
  });

  it('does not collect again and again when the live data itself is above the limit', () => {
    const { governor, grow } = fake(512 * MB, 600 * MB);
    grow(10 * MB);
    governor.check();
    expect(governor.collections).toBe(1);
    grow(50 * MB);
    governor.check();
    governor.check();
    expect(governor.collections).toBe(1);
    // A quarter of the soft limit of new growth earns another collection.
    grow(130 * MB);
    governor.check();
    expect(governor.collections).toBe(2);
    governor.stop();
  });

  it('brings a real process back down after large short-lived allocations', () => {
    const before = process.memoryUsage.rss();
    const governor = startMemoryGovernor({ softLimitBytes: before + 64 * MB, sampleMs: 1_000_000 });
    let garbage: Uint8Array[] | null = Array.from({ length: 40 }, () => new Uint8Array(8 * MB).fill(1));
    expect(process.memoryUsage.rss()).toBeGreaterThan(before + 200 * MB);
    garbage = null;
    governor.check();
    expect(governor.collections).toBe(1);
    expect(process.memoryUsage.rss()).toBeLessThan(before + 150 * MB);
    expect(garbage).toBeNull();
    governor.stop();
  });
});
