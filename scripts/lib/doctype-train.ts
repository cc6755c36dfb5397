/** Train the document-type naive Bayes model on rows whose `domain` maps to a type. */
import type { DocType, DocTypeModel } from '../../src/explain/doctype';
import { DOCTYPE_MAX_WORDS } from '../../src/explain/doctype';
import { DOMAIN_TO_DOCTYPE } from './doctype-map';
import type { Doc } from './featurize';

/** 2^14 word buckets per type: 16 KB a type. */
const BITS = 14;
/** Laplace smoothing. */
const ALPHA = 0.5;

/** Multinomial naive Bayes over distinct word buckets, uniform prior over types, quantised to bytes. */
export function trainDocTypes(docs: Doc[]): DocTypeModel {
  const size = 1 << BITS;
  const types = [...new Set(docs.map((d) => DOMAIN_TO_DOCTYPE[d.row.domain]).filter(Boolean))].sort() as DocType[];
  const counts = types.map(() => new Float64Array(size));
  // Each type's documents weigh the same in total, whatever the size of its sources.
  const perType = types.map((t) => docs.filter((d) => DOMAIN_TO_DOCTYPE[d.row.domain] === t).length);
  for (const d of docs) {
    const c = types.indexOf(DOMAIN_TO_DOCTYPE[d.row.domain]);
    if (c < 0) continue;
    const seen = new Set<number>();
    for (let i = 0; i < Math.min(d.words.length, DOCTYPE_MAX_WORDS); i++) seen.add(d.words[i] & (size - 1));
    for (const b of seen) counts[c][b] += 1000 / perType[c];
  }
  const logp = counts.map((row) => {
    const total = row.reduce((a, v) => a + v, 0) + ALPHA * size;
    return row.map((v) => Math.log((v + ALPHA) / total));
  });
  let min = Infinity;
  let max = -Infinity;
  for (const row of logp) for (const v of row) [min, max] = [Math.min(min, v), Math.max(max, v)];
  const step = (max - min) / 255;
  const table = new Uint8Array(types.length * size);
  logp.forEach((row, c) => row.forEach((v, b) => (table[c * size + b] = Math.round((v - min) / step))));
  return { types, bits: BITS, min, step, table };
}
