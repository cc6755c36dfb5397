/**
 * `bun run eval --loso`: how the detector does on sources it has never seen. For each source
 * family, a lexical model trained on all the others scores the family's texts (and their 20-70-word
 * excerpts); thresholds for that family come from the other families' held-out human texts only
 * (nested), so a family never sets its own bar. The document-type classifier is held out the same
 * way, one source at a time.
 */
import { LENGTH_BUCKETS, lengthBucket } from '../../src/detector/score/calibration';
import { cellAt } from '../../src/detector/score/probability';
import { scoreBuckets, withFloor, type DocType, type DocTypeModel } from '../../src/detector/score/doctype';
import type { ModelFile } from '../../src/detector/score/model';
import { SENSITIVITIES, type Sensitivity } from '../../src/contract';
import { heldOutScore, languageThresholds, MIN_FAMILY_HUMAN_TEXTS, type HeldOutScore } from './calibrate';
import { isFormalHuman, UNTRAINED_FAMILIES } from './data';
import { trainDocTypeClassifier } from './doctype-train';
import type { Doc } from './featurize';
import { heldOutLogits } from './loso';
import type { HeldOutHelper } from './loso-helper';
import { isLightEdit } from './weights';
import { auroc } from './metrics';
import type { Prepared } from './pipeline';
import { SEED, SPARSE_OPTIONS } from './settings';

/** A held-out score with its text's facts. */
export interface Scored extends HeldOutScore {
  /** The featurized text (absent in hand-made reports). */
  doc?: Doc;
  domain: string;
  model: string | null;
  formal: boolean;
  /**
   * An LLM edit that changed under half of a human text's words (weights.ts): mostly the human
   * original, so neither a human text nor AI text the modes promise to catch; reported on its own.
   */
  lightEdit: boolean;
  /** Flagged at each mode (nested threshold and even odds reached, the shipped model's cell conclusive). */
  flagged: boolean[];
}

const LANGS = ['en', 'es'] as const;

/** AI text of 2024 generators: AlpacaEval's chat models, L2R's GPT-4o, Gemini 1.5 and Llama 3 rewrites, and round 4. */
export function isModernGenerator(s: { source: string; model: string | null; y: 0 | 1 }): boolean {
  if (s.y !== 1) return false;
  if (s.source === 'l2r_rewrites_2024') return /gpt-4o|gemini|llama-3/.test(s.model ?? '');
  return s.source === 'alpaca_eval_modern' || s.source === 'imbd' || s.source === 'glimpse' || s.source === 'evobench';
}

/** AI text the modes promise to catch: not a light edit of a human text. */
const isAi = (s: Scored) => s.y === 1 && !s.lightEdit;
const pct = (v: number) => (Number.isFinite(v) ? (100 * v).toFixed(1) : '-');
const rate = (xs: Scored[], m: number) => (xs.length ? xs.filter((s) => s.flagged[m]).length / xs.length : NaN);
const modes = (xs: Scored[]) => [0, 1, 2].map((m) => pct(rate(xs, m))).join(' / ');
/** One Markdown cell per mode. */
const modeCells = (xs: Scored[]) => [0, 1, 2].map((m) => `${pct(rate(xs, m))}%`).join(' | ');

/**
 * Held-out scores of every text and excerpt, each flagged against thresholds its own family did
 * not set (nested: the other families' held-out human texts, by the rule `bun run train` uses), at
 * even odds or above by the shipped model's calibration of the text's cell, as the verdict requires.
 */
export async function heldOutScores(
  p: Prepared,
  shipped: ModelFile,
  o: { onFamily?: (f: string, i: number, n: number) => void; helper?: HeldOutHelper } = {},
): Promise<Scored[]> {
  return nestedFlags(p.docs, await heldOutLogits(p.docs, { sparse: SPARSE_OPTIONS, ...o }), shipped);
}

/** Held-out logits `z` (one per doc, NaN where not scored) flagged as heldOutScores says; `bun run train` calls it with the cells it just fitted. */
export function nestedFlags(docs: readonly Doc[], z: Float64Array, shipped: ModelFile): Scored[] {
  const all: Scored[] = [];
  docs.forEach((d, i) => {
    if (!Number.isFinite(z[i])) return;
    all.push({
      doc: d,
      ...heldOutScore(d, z[i]),
      domain: d.row.domain,
      model: d.row.model,
      formal: isFormalHuman(d.row),
      lightEdit: isLightEdit(d),
      flagged: [],
    });
  });
  const guards = all.filter((s) => !UNTRAINED_FAMILIES.has(s.family));
  for (const family of new Set(all.map((s) => s.family))) {
    const t = languageThresholds(guards.filter((s) => s.family !== family));
    for (const s of all) {
      if (s.family !== family) continue;
      const cell = cellAt(shipped, LANGS[s.lang], s.words);
      const evenOdds = cell.platt.a > 0 ? -cell.platt.b / cell.platt.a : Infinity;
      s.flagged = SENSITIVITIES.map((m) => s.z >= Math.max(t[s.lang][m], evenOdds) && cell.conclusive[m]);
    }
  }
  return all;
}

/** The summary per mode: worst family's human texts flagged, AI caught (long English, modern generators, Spanish). */
export interface LosoSummary {
  worstFamily: Record<Sensitivity, { family: string; lang: string; rate: number }>;
  ai150En: Record<Sensitivity, number>;
  modern: Record<Sensitivity, number>;
  ai80Es: Record<Sensitivity, number>;
}

/** The per-family and per-source tables, the per-cell table, formal prose and the summary, as Markdown. */
export function losoReport(scores: Scored[]): { markdown: string; meanAuroc: number; summary: LosoSummary } {
  const lines: string[] = [];
  const texts = scores.filter((s) => !s.excerpt);
  const trained = (s: Scored) => !UNTRAINED_FAMILIES.has(s.family);
  const byMode = (f: (m: number) => number) => Object.fromEntries(SENSITIVITIES.map((m, k) => [m, f(k)])) as Record<Sensitivity, number>;

  lines.push('Per source (held out with its family): human texts flagged / AI texts caught, per mode.', '');
  lines.push(
    '| source | family | lang | texts human/AI | AUROC | conservative | balanced | aggressive | human excerpts, conservative/balanced |',
  );
  lines.push('|---|---|---|---|---|---|---|---|---|');
  const aurocs: number[] = [];
  for (const source of [...new Set(texts.map((s) => s.source))].sort()) {
    for (const lang of [0, 1] as const) {
      const mine = texts.filter((s) => s.source === source && s.lang === lang);
      if (!mine.length) continue;
      const human = mine.filter((s) => s.y === 0);
      const ai = mine.filter(isAi);
      // A one-label source is measured against the other label of the other families.
      const others = texts.filter((s) => s.lang === lang && s.family !== mine[0].family && trained(s));
      const neg = (human.length ? human : others.filter((s) => s.y === 0)).map((s) => s.z);
      const pos = (ai.length ? ai : others.filter(isAi)).map((s) => s.z);
      const a = auroc(pos, neg);
      if (trained(mine[0])) aurocs.push(a);
      const cell = (m: number) =>
        human.length && ai.length ? `${pct(rate(human, m))} / ${pct(rate(ai, m))}` : pct(rate(human.length ? human : ai, m));
      const excerpts = scores.filter((s) => s.excerpt && s.source === source && s.lang === lang && s.y === 0);
      const family = trained(mine[0]) ? mine[0].family : `${mine[0].family} (never trained on)`;
      lines.push(
        `| ${source} | ${family} | ${LANGS[lang]} | ${human.length}/${ai.length} | ${a.toFixed(3)} | ${cell(0)} | ${cell(1)} | ${cell(2)} | ${excerpts.length ? `${pct(rate(excerpts, 0))} / ${pct(rate(excerpts, 1))}` : '-'} |`,
      );
    }
  }
  const meanAuroc = aurocs.reduce((x, v) => x + v, 0) / aurocs.length;

  // Worst family: human whole texts of every trained family with enough of them, per language.
  const worstFamily = {} as LosoSummary['worstFamily'];
  SENSITIVITIES.forEach((m, k) => {
    worstFamily[m] = { family: '-', lang: '-', rate: 0 };
    for (const family of new Set(texts.filter(trained).map((s) => s.family))) {
      for (const lang of [0, 1] as const) {
        const h = texts.filter((s) => s.family === family && s.lang === lang && s.y === 0);
        if (h.length >= MIN_FAMILY_HUMAN_TEXTS && rate(h, k) > worstFamily[m].rate)
          worstFamily[m] = { family, lang: LANGS[lang], rate: rate(h, k) };
      }
    }
  });
  const ai150 = texts.filter((s) => trained(s) && isAi(s) && s.lang === 0 && s.words >= 150);
  const modern = texts.filter((s) => isAi(s) && isModernGenerator(s));
  const ai80Es = texts.filter((s) => trained(s) && isAi(s) && s.lang === 1 && s.words >= 80);
  const lightEdits = texts.filter((s) => trained(s) && s.lightEdit);
  const summary: LosoSummary = {
    worstFamily,
    ai150En: byMode((k) => rate(ai150, k)),
    modern: byMode((k) => rate(modern, k)),
    ai80Es: byMode((k) => rate(ai80Es, k)),
  };

  lines.push('', 'Per mode (trained families; AuTexTification, never trained on, is in the tables above only):', '');
  lines.push('| | conservative | balanced | aggressive |', '|---|---|---|---|');
  lines.push(
    `| worst family's human texts flagged (${MIN_FAMILY_HUMAN_TEXTS}+ texts) | ${SENSITIVITIES.map((m) => `${pct(worstFamily[m].rate)}% (${worstFamily[m].family}, ${worstFamily[m].lang})`).join(' | ')} |`,
  );
  lines.push(`| English AI texts of 150+ words caught (${ai150.length}) | ${modeCells(ai150)} |`);
  lines.push(`| modern generators caught (${modern.length}) | ${modeCells(modern)} |`);
  lines.push(`| Spanish AI texts of 80+ words caught (${ai80Es.length}) | ${modeCells(ai80Es)} |`);
  lines.push(
    `| light LLM edits of human texts (under half the words changed; not counted above) flagged (${lightEdits.length}) | ${modeCells(lightEdits)} |`,
  );

  lines.push('', 'Per family: AI texts caught, conservative / balanced / aggressive:', '');
  lines.push('| family | lang | AI texts | caught |', '|---|---|---|---|');
  for (const family of [...new Set(texts.map((s) => s.family))].sort()) {
    for (const lang of [0, 1] as const) {
      const a = texts.filter((s) => s.family === family && s.lang === lang && isAi(s));
      if (a.length) lines.push(`| ${family} | ${LANGS[lang]} | ${a.length} | ${modes(a)} |`);
    }
  }

  lines.push(
    '',
    'Formal human prose (news, encyclopedic, textbook, academic, student papers and reports, clinical, technical Q&A), flagged per mode:',
    '',
  );
  lines.push('| source | domain | lang | human texts | flagged |', '|---|---|---|---|---|');
  const formal = texts.filter((s) => s.formal);
  for (const key of [...new Set(formal.map((s) => `${s.source}|${s.domain}|${s.lang}`))].sort()) {
    const [source, domain, lang] = key.split('|');
    const h = formal.filter((s) => s.source === source && s.domain === domain && s.lang === Number(lang));
    lines.push(`| ${source} | ${domain} | ${LANGS[Number(lang)]} | ${h.length} | ${modes(h)} |`);
  }

  lines.push('', 'Cells: flagged human texts (full texts; excerpts) and caught AI texts, conservative / balanced / aggressive:', '');
  lines.push('| lang | words | human texts | human FPR | human excerpts | excerpt FPR | AI texts | AI caught |');
  lines.push('|---|---|---|---|---|---|---|---|');
  for (const lang of [0, 1] as const) {
    LENGTH_BUCKETS.forEach((lo, b) => {
      const hi = LENGTH_BUCKETS[b + 1];
      const inCell = (s: Scored) => trained(s) && s.lang === lang && lengthBucket(s.words) === b;
      const h = texts.filter((s) => inCell(s) && s.y === 0);
      const x = scores.filter((s) => s.excerpt && inCell(s) && s.y === 0);
      const a = texts.filter((s) => inCell(s) && isAi(s));
      lines.push(
        `| ${LANGS[lang]} | ${lo}${hi ? `-${hi}` : '+'} | ${h.length} | ${modes(h)} | ${x.length} | ${modes(x)} | ${a.length} | ${modes(a)} |`,
      );
    });
  }
  lines.push('', `Mean AUROC over ${aurocs.length} (source, language) rows of trained families: ${meanAuroc.toFixed(3)}.`);
  return { markdown: lines.join('\n'), meanAuroc, summary };
}

/** Document type held out one source at a time: accuracy (`other` counted wrong) and the confusion matrix. */
export function docTypeLoso(docs: Doc[]): { markdown: string; accuracy: number } {
  const typed = docs.filter((d) => !d.excerpt && d.docType);
  const sources = [...new Set(typed.map((d) => d.row.source))].sort();
  const pairs: [DocType, DocType][] = [];
  for (const source of sources) {
    const train = typed.filter((d) => d.row.source !== source && d.row.split === 'train');
    const model = trainDocTypeClassifier(train, SEED);
    for (const d of typed) if (d.row.source === source) pairs.push([d.docType!.type, classify(model, d)]);
  }
  return confusion(pairs, 'held out by source');
}

/** The type the rules and a classifier give a featurized text (scored on its stored features). */
export function classify(model: DocTypeModel, d: Doc): DocType {
  return d.docType!.rule ?? withFloor(model, scoreBuckets(model, d.docType!.buckets)).type;
}

/** Accuracy and a confusion matrix (rows: the data's type; columns: the answer) as Markdown. */
export function confusion(pairs: [DocType, DocType][], title: string): { markdown: string; accuracy: number } {
  const truth = [...new Set(pairs.map(([t]) => t))].sort();
  const answers = [...new Set([...truth, ...pairs.map(([, a]) => a)])].sort();
  const accuracy = pairs.filter(([t, a]) => t === a).length / Math.max(1, pairs.length);
  const lines = [`Document type, ${title}: ${pct(accuracy)}% right of ${pairs.length} texts (\`other\` counted wrong).`, ''];
  lines.push(`| data \\ answer | ${answers.join(' | ')} | right |`);
  lines.push(`|---|${answers.map(() => '---').join('|')}|---|`);
  for (const t of truth) {
    const row = pairs.filter(([x]) => x === t);
    lines.push(
      `| ${t} | ${answers.map((a) => row.filter(([, y]) => y === a).length).join(' | ')} | ${pct(row.filter(([, y]) => y === t).length / row.length)}% |`,
    );
  }
  return { markdown: lines.join('\n'), accuracy };
}
