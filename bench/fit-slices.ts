/**
 * How long an adaptation's fit holds the event loop in one step (issue 44 item 3): the API runs
 * profileSteps in slices and serves other requests between them, so its longest step is what another
 * key's detection may wait. 100 texts of 500 KB of varied words (synthetic evidence shaped like the
 * core's, scripts/lib/fit-evidence.ts: 57,000 distinct n-grams each) + 100 AI examples, by default;
 * `--texts N --grams G` for others. Prints the longest step, the steps and the whole fit.
 *   nice -n 10 bun bench/fit-slices.ts [--texts 100] [--grams 57000]
 */
import { parseArgs } from 'node:util';
import { adaptationSteps } from '../src/detector/learn/adaptation';
import { GRAMS_OF_500_KB, syntheticFitTexts } from '../scripts/lib/fit-evidence';

const { values } = parseArgs({
  options: { texts: { type: 'string', default: '100' }, grams: { type: 'string', default: String(GRAMS_OF_500_KB) } },
});
const n = Number(values.texts);
const grams = Number(values.grams);
const human = syntheticFitTexts(n, grams, 0, 1);
const ai = syntheticFitTexts(n, grams, 1, 2);
const steps = adaptationSteps(human, ai);
// Wall time, and CPU time (what the step itself used: on a busy machine the wall time also counts the other processes' turns).
const times: number[] = [];
const cpu: number[] = [];
const t0 = performance.now();
for (;;) {
  const s0 = performance.now();
  const c0 = process.cpuUsage();
  const r = steps.next();
  const c = process.cpuUsage(c0);
  times.push(performance.now() - s0);
  cpu.push((c.user + c.system) / 1000);
  if (r.done) break;
}
const total = performance.now() - t0;
const top = (xs: number[]) =>
  [...xs]
    .sort((a, b) => b - a)
    .slice(0, 4)
    .map((t) => t.toFixed(1))
    .join(', ');
console.log(
  `${n} + ${n} texts of ${grams} n-grams: ${times.length} steps in ${(total / 1000).toFixed(2)} s; longest (wall) ${top(times)} ms; (CPU) ${top(cpu)} ms`,
);
