/**
 * The memory of a profile build over many texts (issue 44 item 7: `calibrate` takes any number of
 * texts; hold the n-grams of 100,000 texts in less than 1.3 GB). 100,000 scored texts (synthetic
 * evidence shaped like the core's for texts of about 2 KB, scripts/lib/fit-evidence.ts: 720 distinct
 * n-grams each; 90% human, 10% AI examples), then profileSteps driven as the CLI drives it, for at most
 * `--seconds` (the memory peaks in the n-gram counting and the documents, before the passes, which
 * take minutes at this size and allocate little). Prints the RSS with the inputs held, the process's
 * peak RSS (VmHWM) and where the build was when it stopped.
 *   nice -n 10 bun bench/fit-memory.ts [--texts 100000] [--grams 720] [--seconds 60]
 */
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import type { ProfileInput } from '../src/detector/decide/profile';
import { profileSteps } from '../src/detector/learn/profile';
import { GRAMS_OF_2_KB, syntheticFitTexts } from '../scripts/lib/fit-evidence';

const { values } = parseArgs({
  options: {
    texts: { type: 'string', default: '100000' },
    grams: { type: 'string', default: String(GRAMS_OF_2_KB) },
    seconds: { type: 'string', default: '60' },
  },
});
const n = Number(values.texts);
const grams = Number(values.grams);
const mb = (bytes: number) => `${Math.round(bytes / 2 ** 20)} MB`;
const peak = () => Number(/VmHWM:\s+(\d+) kB/.exec(readFileSync('/proc/self/status', 'utf8'))![1]) * 1024;

const inputs = (count: number, label: 0 | 1, seed: number): ProfileInput[] => {
  const out: ProfileInput[] = [];
  // In chunks, so that only the inputs themselves stay (as the CLI keeps each text's sample, not its text).
  for (let done = 0; done < count; done += 1_000) {
    for (const t of syntheticFitTexts(Math.min(1_000, count - done), grams, label, seed + done)) {
      out.push({
        lang: 'en',
        logit: t.logit,
        probability: 1 / (1 + Math.exp(-t.logit)),
        words: 350,
        docType: 'essay',
        evidence: t.evidence,
      });
    }
  }
  return out;
};
const human = inputs(Math.round(n * 0.9), 0, 1);
const ai = inputs(n - human.length, 1, 10_000_000);
Bun.gc(true);
const held = process.memoryUsage().rss;
console.log(`${n} texts of ${grams} n-grams held: RSS ${mb(held)} (peak so far ${mb(peak())})`);
const steps = profileSteps(human, { name: 'memory', modelVersion: 'bench', createdAt: new Date(0).toISOString() }, ai);
const t0 = performance.now();
let count = 0;
let done = false;
while (performance.now() - t0 < Number(values.seconds) * 1000) {
  count++;
  if (steps.next().done) {
    done = true;
    break;
  }
}
console.log(
  `${done ? 'built' : 'stopped'} after ${((performance.now() - t0) / 1000).toFixed(1)} s, ${count} steps: RSS ${mb(process.memoryUsage().rss)}, peak ${mb(peak())} (${mb(peak() - held)} over the inputs)`,
);
