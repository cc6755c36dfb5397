/**
 * bun run scripts/top-features.ts [--lang en|es] [--top N]: the most AI-leaning and most
 * human-leaning unmasked words of the committed model, as unigrams and as sentence openers. The
 * weights are hashed, so each is read back by scoring the word alone with feature output on.
 * Used to check that the model does not lean on dataset artifacts (see model/README.md).
 */
import { parseArgs } from 'node:util';
import { loadEngine, MODEL } from '../src/detector/score/load';
import { decodeWeights } from '../src/detector/score/model';

const { values: opt } = parseArgs({ options: { lang: { type: 'string', default: 'en' }, top: { type: 'string', default: '25' } } });
const lang = opt.lang === 'es' ? 'es' : 'en';
const engine = await loadEngine();
const weights = decodeWeights(new Uint8Array(await Bun.file(new URL('../model/weights.bin', import.meta.url)).arrayBuffer()), MODEL);

/** Weights of a lone word: its unigram and its "sentence starts with it" bigram (the first two n-grams emitted). */
function wordWeights(word: string): [number, number] {
  const r = engine.analyze(word, lang, true);
  const f = r.feats!;
  return [f.length > 0 ? weights[f[0]] : 0, f.length > 1 ? weights[f[1]] : 0];
}

const rows = MODEL.vocab[lang].map((w) => ({ w, ...Object.fromEntries(['uni', 'opener'].map((k, i) => [k, wordWeights(w)[i]])) })) as {
  w: string;
  uni: number;
  opener: number;
}[];
const top = Number(opt.top);
const show = (title: string, xs: { w: string; v: number }[]) =>
  console.log(`${title}\n  ${xs.map((x) => `${x.w} ${x.v.toFixed(2)}`).join(', ')}`);
for (const key of ['uni', 'opener'] as const) {
  const sorted = rows.map((r) => ({ w: r.w, v: r[key] })).sort((a, b) => b.v - a.v);
  show(`${lang} ${key}: most AI-leaning`, sorted.slice(0, top));
  show(`${lang} ${key}: most human-leaning`, sorted.slice(-top).reverse());
}
