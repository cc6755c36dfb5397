/** How many cores this process may use (for WORKERS=auto and the extraction pool). */

import { availableParallelism, cpus } from 'node:os';
/**
 * Cores of this machine. Bun's availableParallelism() reads navigator.hardwareConcurrency, and
 * pdf.js replaces globalThis.navigator when it loads in this thread (inline extraction, tests):
 * after that it returns undefined, so fall back to os.cpus().
 */
export function coreCount(): number {
  const n = availableParallelism();
  return Number.isInteger(n) && n > 0 ? n : Math.max(1, cpus().length);
}
