/**
 * `bun run eval --mixed`: the mixed-authorship segments of the committed model on mixes built from
 * the dev split with another seed than the fit's, on the data's own LLM continuations of human
 * openings (dev), and on wholly human and wholly AI dev texts (issue 13's targets).
 */
import { type ModelLang, SENSITIVITIES } from '../../src/contract';
import { loadEngine, MODEL } from '../../src/detector/score/load';
import { detectorFor } from '../../src/detector';
import { dataDir, hasData, loadRows, splitFiles } from './data';
import { buildMixes, continuationMixes } from './mixes';
import { EVAL_SEED, MIXES_PER_LANG, measureSegments, prepareCases, type SegmentCase } from './segments-fit';

if (!hasData()) {
  console.error(`eval --mixed: no shared data at ${dataDir()} (set DATA_DIR)`);
  process.exit(2);
}
const engine = await loadEngine();
const dev = loadRows(splitFiles('dev'));
const mixes = [...buildMixes(dev, EVAL_SEED, MIXES_PER_LANG), ...continuationMixes(dev)];
const cases = prepareCases(engine, mixes, dev);
const pct = (v: number) => (Number.isFinite(v) ? `${(100 * v).toFixed(1)}%` : '-');
console.log(
  '| set | lang | mixes | AI-part recall | precision | aiShare MAE | human texts with aiShare >= 0.3 | AI texts with aiShare >= 0.7 |',
);
console.log('|---|---|---|---|---|---|---|---|');
const row = (name: string, lang: ModelLang, xs: SegmentCase[]) => {
  const params = MODEL.segments[lang];
  if (!params) return console.log(`| ${name} | ${lang} | no decoder for this language |`);
  const m = measureSegments(xs, params);
  console.log(
    `| ${name} | ${lang} | ${m.mixes} | ${pct(m.recall)} | ${pct(m.precision)} | ${m.mae.toFixed(3)} | ${pct(m.humanHigh)} (n=${m.humans}) | ${pct(m.aiHigh)} (n=${m.ais}) |`,
  );
};
for (const lang of ['en', 'es'] as const) {
  const mine = cases.filter((c) => c.lang === lang);
  row('all', lang, mine);
  for (const kind of ['human_then_ai', 'ai_then_human', 'continuation'] as const) {
    const xs = mine.filter((c) => c.kind === kind);
    if (xs.length) row(kind, lang, xs);
  }
}

// Verdicts: how often a human opening no longer hides the AI text, and what `mixed` costs human texts.
const detector = detectorFor(engine);
console.log('\n| lang | mixes (human opening, then AI) called AI, mixed or likely AI | human dev texts called mixed |');
console.log('|---|---|---|');
for (const lang of ['en', 'es'] as const) {
  const opened = mixes.filter((m) => m.lang === lang && m.kind === 'human_then_ai');
  const humans = dev.filter((r) => r.lang === lang && r.label === 'human' && !r.mix);
  const caught = SENSITIVITIES.map((m) =>
    pct(opened.filter((x) => detector.analyze(x.text, { sensitivity: m }).ai).length / opened.length),
  );
  const mixedHumans = SENSITIVITIES.map((m) =>
    pct(humans.filter((r) => detector.analyze(r.text, { sensitivity: m }).verdictKey === 'mixed').length / humans.length),
  );
  console.log(
    `| ${lang} | ${SENSITIVITIES.map((m, k) => `${m} ${caught[k]}`).join(', ')} (n=${opened.length}) | ${SENSITIVITIES.map((m, k) => `${m} ${mixedHumans[k]}`).join(', ')} (n=${humans.length}) |`,
  );
}
