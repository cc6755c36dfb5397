/**
 * How the near-duplicate test of a profile's texts (src/detector/learn/distinct.ts) behaves on real
 * texts (issue 44 items 1 and 2): per source of ../shared/data, its dev human texts, in file order,
 * and how many would be merged with an earlier, different text of the same source (false merges, bar
 * real near-copies the source holds: the closest pairs are printed to read), at several thresholds;
 * then the variants the test must catch, made from the same texts: 4 copies each missing a different
 * word, re-spaced, "(Copy N.)" appended, the last line (a signature) changed: the lowest similarity of
 * each to its original or its sibling. Usage: bun scripts/near-dups.ts [DATA_DIR]
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { NEAR_JACCARD, similarity, sketch } from '../src/detector/learn/distinct';

const dir = process.argv[2] ?? join(import.meta.dir, '../../shared/data');
const THRESHOLDS = [0.5, 0.6, 0.7, 0.8, 0.85, 0.9];
const rows: string[] = [];
const variants = { dropped4: 1, respaced: 1, counter: 1, signature: 1 };
/** Pairs of the 4 copies each missing a different word, and how many reach NEAR_JACCARD. */
const pairs = { all: 0, caught: 0 };
let texts = 0;
const merged = THRESHOLDS.map(() => 0);
const closest: { sim: number; source: string; a: string; b: string }[] = [];
const dropWord = (words: string[], i: number) => words.filter((_, j) => j !== i).join(' ');
for (const file of readdirSync(dir)
  .filter((f) => f.endsWith('.dev.jsonl'))
  .sort()) {
  const human = readFileSync(join(dir, file), 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as { text: string; label: string; lang: string })
    .filter((r) => r.label === 'human');
  if (!human.length) continue;
  for (const lang of ['en', 'es']) {
    const list = human.filter((r) => r.lang === lang).map((r) => r.text);
    if (!list.length) continue;
    const sketches = list.map(sketch);
    const counts = THRESHOLDS.map(() => 0);
    for (let i = 0; i < list.length; i++) {
      let best = 0;
      let at = -1;
      for (let j = 0; j < i; j++) {
        const s = similarity(sketches[i], sketches[j]);
        if (s > best) [best, at] = [s, j];
      }
      THRESHOLDS.forEach((t, k) => {
        if (best >= t) counts[k]++;
      });
      if (best >= 0.4) closest.push({ sim: best, source: `${file}:${lang}`, a: list[at].slice(0, 160), b: list[i].slice(0, 160) });
    }
    texts += list.length;
    counts.forEach((c, k) => {
      merged[k] += c;
    });
    rows.push(`| ${file.replace('.dev.jsonl', '')} ${lang} | ${list.length} | ${counts.join(' | ')} |`);
    // The variants, on every 10th text.
    for (let i = 0; i < list.length; i += 10) {
      const words = list[i].split(/\s+/).filter(Boolean);
      if (words.length < 20) continue;
      const step = Math.max(1, Math.floor(words.length / 5));
      const copies = [1, 2, 3, 4].map((c) => sketch(dropWord(words, c * step - 1)));
      for (let a = 0; a < 4; a++)
        for (let b = a + 1; b < 4; b++) {
          const s = similarity(copies[a], copies[b]);
          variants.dropped4 = Math.min(variants.dropped4, s);
          pairs.all++;
          if (s >= NEAR_JACCARD) pairs.caught++;
        }
      const own = sketch(list[i]);
      variants.respaced = Math.min(variants.respaced, similarity(own, sketch(words.join('  \n '))));
      variants.counter = Math.min(variants.counter, similarity(own, sketch(`${list[i]} (Copy ${i + 1}.)`)));
      const lines = list[i].trimEnd().split('\n');
      const signed = `${lines.slice(0, -1).join('\n')}\n${lines.length > 1 ? 'Regards, Ana Pérez' : `${lines[0]} -- Regards, Ana Pérez`}`;
      variants.signature = Math.min(
        variants.signature,
        similarity(sketch(`${list[i]}\nBest, John Smith`), sketch(`${list[i]}\n${signed.split('\n').pop()}`)),
      );
    }
  }
}
console.log(`| dev human texts (source, language) | texts | merged with an earlier text at Jaccard >= ${THRESHOLDS.join(' | ')} |`);
console.log(`| --- | --- | ${THRESHOLDS.map(() => '---').join(' | ')} |`);
for (const r of rows) console.log(r);
console.log(`| all | ${texts} | ${merged.join(' | ')} |`);
console.log(`\nthreshold in use: ${NEAR_JACCARD}; lowest similarity of the variants (every 10th text of 20+ words):`, variants);
console.log(`pairs of copies each missing a different word at or above it: ${pairs.caught} of ${pairs.all}`);
closest.sort((x, y) => y.sim - x.sim);
for (const c of closest.slice(0, 40))
  console.log(`\n${c.sim.toFixed(2)} ${c.source}\n  A: ${JSON.stringify(c.a)}\n  B: ${JSON.stringify(c.b)}`);
