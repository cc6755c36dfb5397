/**
 * bun run eval [files...] [--json] [--dimensions]: scores labelled JSON lines (default: the shared
 * dev split, every round) with the committed model, through the same Detector the API uses, and
 * prints AUROC, TPR at 1%/5% FPR, each mode's measured FPR/TPR (flagged = an AI-side verdict) per
 * language and per source, the catch rate on long texts and modern generators, the false-positive
 * rate of non-native writers beside native ones, document-type accuracy with its confusion matrix,
 * and (--dimensions) how often each explanation dimension fires on human and on AI texts.
 *
 * bun run eval --loso: retrains one lexical model per left-out source family and reports every
 * source as never seen (scripts/lib/eval-loso.ts); about 5 minutes on 2 cores.
 * bun run eval --mixed: the mixed-authorship segments on mixes built from dev texts (scripts/lib/eval-mixed-main.ts).
 * bun run eval --calibration [--dump FILE]: calibration profiles on each held-out family (scripts/lib/eval-calibration-main.ts);
 * with --adapt [--logits FILE], profiles that also learn from AI examples (scripts/lib/eval-adapt.ts);
 * with --adapt --shift, profiles scored on writers outside their texts (scripts/lib/eval-shift-main.ts).
 */
import { parseArgs } from 'node:util';
import { createDetector } from '../src/detector';
import { countWords, SENSITIVITIES } from '../src/contract';
import { dataDir, hasData, loadRows, splitFiles, type Row } from './lib/data';
import { auroc, tprAtFpr } from './lib/metrics';
import { BASELINE_AUROC, docTypeOf, NON_NATIVE_HUMAN_SOURCES } from './lib/doctype-map';
import { confusion, isModernGenerator } from './lib/eval-loso';
import { measureEdits } from './lib/edits';
import { isLightEdit } from './lib/weights';
import type { DocType } from '../src/detector/score/doctype';
import { MIN_STYLE_WORDS } from '../src/detector/explain/dimensions';

const { values: opt, positionals } = parseArgs({
  options: {
    json: { type: 'boolean', default: false },
    dimensions: { type: 'boolean', default: false },
    loso: { type: 'boolean', default: false },
    mixed: { type: 'boolean', default: false },
    calibration: { type: 'boolean', default: false },
    adapt: { type: 'boolean', default: false },
    logits: { type: 'string' },
    'no-cross': { type: 'boolean', default: false },
    dump: { type: 'string' },
    by: { type: 'string' },
    shift: { type: 'boolean', default: false },
    splits: { type: 'string' },
    'no-reference': { type: 'boolean', default: false },
    out: { type: 'string' },
    before: { type: 'string' },
    'reference-weight': { type: 'string' },
    records: { type: 'string' },
    kinds: { type: 'string' },
    cap: { type: 'string' },
    dev: { type: 'boolean', default: false },
    'min-texts': { type: 'string' },
  },
  allowPositionals: true,
});
if (opt.loso) {
  await import('./lib/eval-loso-main');
  process.exit(0);
}
if (opt.calibration) {
  await import('./lib/eval-calibration-main');
  process.exit(0);
}
if (opt.mixed) {
  await import('./lib/eval-mixed-main');
  process.exit(0);
}
if (!positionals.length && !hasData()) {
  console.error(`eval: no files given and no shared data at ${dataDir()} (set DATA_DIR or pass files)`);
  process.exit(2);
}
const rows = measureEdits(loadRows(positionals.length ? positionals : splitFiles('dev')));
const detector = await createDetector();

interface Item {
  row: Row;
  p: number;
  ai: Record<string, boolean>;
  dims: Record<string, boolean>;
  docType: string;
  annotations: number;
  words: number;
}
// One analysis per text; only the explanation depends on the mode.
const items: Item[] = rows.map((row) => {
  const r = detector.score(row.text);
  const byMode = SENSITIVITIES.map((m) => detector.explain(row.text, r, detector.decide(row.text, r, m), 'en'));
  const a = byMode[SENSITIVITIES.indexOf('conservative')];
  const ai: Record<string, boolean> = {};
  SENSITIVITIES.forEach((m, k) => (ai[m] = byMode[k].ai));
  const dims: Record<string, boolean> = {};
  for (const d of a.dimensions) dims[d.id] = d.detected;
  return { row, p: r.probability, ai, dims, docType: a.docType, annotations: a.textAnnotations.length, words: countWords(row.text) };
});

const langs = [...new Set(items.map((i) => i.row.lang))].sort();
const rate = (xs: Item[], f: (i: Item) => boolean) => (xs.length ? xs.filter(f).length / xs.length : NaN);
const fmt = (v: number, d = 3) => (Number.isFinite(v) ? v.toFixed(d) : '-');

function summary(xs: Item[]) {
  const pos = xs.filter((i) => i.row.label === 'ai').map((i) => i.p);
  const neg = xs.filter((i) => i.row.label === 'human').map((i) => i.p);
  const modes: Record<string, { fpr: number; tpr: number }> = {};
  for (const m of SENSITIVITIES) {
    modes[m] = {
      fpr: rate(
        xs.filter((i) => i.row.label === 'human'),
        (i) => i.ai[m],
      ),
      tpr: rate(
        xs.filter((i) => i.row.label === 'ai'),
        (i) => i.ai[m],
      ),
    };
  }
  return {
    n: xs.length,
    ai: pos.length,
    human: neg.length,
    auroc: auroc(pos, neg),
    tpr1: tprAtFpr(pos, neg, 0.01),
    tpr5: tprAtFpr(pos, neg, 0.05),
    modes,
  };
}

/** A source with one label is measured against the other label's texts of the same language. */
function sourceSummary(source: string, lang: string) {
  const mine = items.filter((i) => i.row.source === source && i.row.lang === lang);
  const others = items.filter((i) => i.row.lang === lang);
  const pos = mine.filter((i) => i.row.label === 'ai');
  const neg = mine.filter((i) => i.row.label === 'human');
  const posP = (pos.length ? pos : others.filter((i) => i.row.label === 'ai')).map((i) => i.p);
  const negP = (neg.length ? neg : others.filter((i) => i.row.label === 'human')).map((i) => i.p);
  const s = summary(mine);
  return {
    source,
    lang,
    ...s,
    auroc: auroc(posP, negP),
    tpr1: pos.length ? tprAtFpr(posP, negP, 0.01) : NaN,
    baseline: BASELINE_AUROC[source],
  };
}

const overall: Record<string, ReturnType<typeof summary>> = Object.fromEntries([
  ['all', summary(items)],
  ...langs.map((l) => [l, summary(items.filter((i) => i.row.lang === l))]),
]);
const sources = [...new Set(items.map((i) => `${i.row.source}|${i.row.lang}`))]
  .sort()
  .map((k) => sourceSummary(...(k.split('|') as [string, string])));
const humans = items.filter((i) => i.row.label === 'human');
const nativeness = Object.fromEntries(
  langs.map((l) => {
    const h = humans.filter((i) => i.row.lang === l);
    const nn = h.filter((i) => NON_NATIVE_HUMAN_SOURCES.has(i.row.source));
    const nat = h.filter((i) => !NON_NATIVE_HUMAN_SOURCES.has(i.row.source));
    return [
      l,
      Object.fromEntries(
        SENSITIVITIES.map((m) => [
          m,
          { nonNative: rate(nn, (i) => i.ai[m]), native: rate(nat, (i) => i.ai[m]), nNonNative: nn.length, nNative: nat.length },
        ]),
      ),
    ];
  }),
);
const docTypes = confusion(
  items.flatMap((i) => {
    const t = docTypeOf(i.row);
    return t ? [[t, i.docType as DocType] as [DocType, DocType]] : [];
  }),
  'dev split',
);
const docTypeAccuracy = { n: items.filter((i) => docTypeOf(i.row)).length, accuracy: docTypes.accuracy };
/** AI text the modes promise to catch: not an LLM edit that changed under half of a human text's words (weights.ts). */
const isAiText = (i: (typeof items)[number]) => i.row.label === 'ai' && !isLightEdit(i);
const ai150 = items.filter((i) => isAiText(i) && i.words >= 150);
/** Generators of 2024 (eval-loso.ts isModernGenerator): AlpacaEval, L2R's GPT-4o, Gemini 1.5 and Llama 3, round 4. */
const modern = items.filter((i) => isAiText(i) && isModernGenerator({ source: i.row.source, model: i.row.model, y: 1 }));
const humanNoAnnotations = Object.fromEntries(
  langs.map((l) => [
    l,
    rate(
      humans.filter((i) => i.row.lang === l),
      (i) => i.annotations === 0,
    ),
  ]),
);
const dimIds = Object.keys(items[0]?.dims ?? {});
/** Fire rate of each dimension on human and AI texts per language (optionally only texts of minWords+). */
const dimensionRates = (minWords: number) =>
  dimIds.map((id) => ({
    id,
    ...Object.fromEntries(
      langs.flatMap((l) => [
        [
          `${l}_human`,
          rate(
            items.filter((i) => i.row.lang === l && i.row.label === 'human' && i.words >= minWords),
            (i) => i.dims[id],
          ),
        ],
        [
          `${l}_ai`,
          rate(
            items.filter((i) => i.row.lang === l && i.row.label === 'ai' && i.words >= minWords),
            (i) => i.dims[id],
          ),
        ],
      ]),
    ),
  }));
const dimensions = dimensionRates(0);
const dimensionsLong = dimensionRates(MIN_STYLE_WORDS);

if (opt.json) {
  console.log(
    JSON.stringify(
      {
        overall,
        sources,
        nativeness,
        docTypeAccuracy,
        humanNoAnnotations,
        dimensions: opt.dimensions ? { all: dimensions, long: dimensionsLong } : undefined,
      },
      null,
      1,
    ),
  );
  process.exit(0);
}
const modeCols = (s: ReturnType<typeof summary>) => SENSITIVITIES.map((m) => `${fmt(s.modes[m].fpr)} / ${fmt(s.modes[m].tpr)}`).join(' | ');
console.log(
  `| set | n (ai/human) | AUROC | baseline | TPR@1%FPR | TPR@5%FPR | conservative FPR/TPR | balanced FPR/TPR | aggressive FPR/TPR |`,
);
console.log(`|---|---|---|---|---|---|---|---|---|`);
for (const [k, s] of Object.entries(overall)) {
  const base = BASELINE_AUROC[k === 'all' ? 'all' : `all/${k}`];
  console.log(`| **${k}** | ${s.ai}/${s.human} | ${fmt(s.auroc)} | ${base ?? '-'} | ${fmt(s.tpr1)} | ${fmt(s.tpr5)} | ${modeCols(s)} |`);
}
for (const s of sources) {
  console.log(
    `| ${s.source} (${s.lang}) | ${s.ai}/${s.human} | ${fmt(s.auroc)} | ${s.baseline ?? '-'} | ${fmt(s.tpr1)} | - | ${modeCols(s)} |`,
  );
}
console.log('\nHuman texts flagged as AI (FPR), non-native vs native writers:');
for (const l of langs)
  for (const m of SENSITIVITIES) {
    const v = nativeness[l][m];
    console.log(`  ${l} ${m.padEnd(12)} non-native ${fmt(v.nonNative)} (n=${v.nNonNative})  native ${fmt(v.native)} (n=${v.nNative})`);
  }
console.log(
  `\nAI texts of 150+ words caught: ${SENSITIVITIES.map((m) => `${m} ${fmt(rate(ai150, (i) => i.ai[m]))}`).join(', ')} (n=${ai150.length})`,
);
console.log(
  `Modern generators caught: ${SENSITIVITIES.map((m) => `${m} ${fmt(rate(modern, (i) => i.ai[m]))}`).join(', ')} (n=${modern.length})`,
);
console.log(`\n${docTypes.markdown}`);
console.log(`Human texts with no flagged sentence at conservative: ${langs.map((l) => `${l} ${fmt(humanNoAnnotations[l])}`).join(', ')}`);
if (opt.dimensions) {
  for (const [title, rows] of [
    [`all texts`, dimensions],
    [`texts of ${MIN_STYLE_WORDS}+ words (where style dimensions judge)`, dimensionsLong],
  ] as const) {
    console.log(`\nDimension fire rates, ${title}:\n`);
    console.log(`| dimension | ${langs.map((l) => `${l} human | ${l} AI`).join(' | ')} |`);
    console.log(`|---|${langs.map(() => '---|---').join('|')}|`);
    for (const d of rows)
      console.log(
        `| ${d.id} | ${langs.map((l) => `${fmt((d as unknown as Record<string, number>)[`${l}_human`], 3)} | ${fmt((d as unknown as Record<string, number>)[`${l}_ai`], 3)}`).join(' | ')} |`,
      );
  }
}
