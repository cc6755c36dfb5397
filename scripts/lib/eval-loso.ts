/**
 * `bun run eval --loso`: how the detector does on sources it has never seen. For each source
 * family, a lexical model trained on all the others scores the family's texts (and their 20-70-word
 * excerpts); thresholds for that family come from the other families' held-out human texts only
 * (nested), so a family never sets its own bar. The document-type classifier is held out the same
 * way, one source at a time.
 */
import { LENGTH_BUCKETS, lengthBucket } from '../../src/detector/score/calibration';
import { scoreBuckets, withFloor, type DocType, type DocTypeModel } from '../../src/detector/score/doctype';
import type { ModelFile } from '../../src/detector/score/model';
import { MODE_FPR, SENSITIVITIES, type Sensitivity } from '../../src/contract';
import { cellThreshold, heldOutScore, PROMISE_MARGIN, type HeldOutScore } from './calibrate';
import { trainDocTypeClassifier } from './doctype-train';
import type { Doc } from './featurize';
import { heldOutLogits } from './loso';
import { auroc } from './metrics';
import { trainable, type Prepared } from './pipeline';
import { SEED, SPARSE_OPTIONS } from './settings';

/** A held-out score with its text's facts. */
interface Scored extends HeldOutScore {
  family: string;
  excerpt: boolean;
  /** Flagged at each mode (nested threshold reached and the shipped model's cell conclusive). */
  flagged: boolean[];
}

const LANGS = ['en', 'es'] as const;
/** Human sources with fewer texts than this are listed but not counted in the per-source maximum. */
const MIN_SOURCE_REPORT = 100;

/** Nested thresholds (logit) per language, bucket and mode, from `pool`'s human texts. */
function nestedThresholds(pool: HeldOutScore[]): number[][][] {
  return [0, 1].map((lang) =>
    LENGTH_BUCKETS.map((_, b) => {
      const human = pool.filter((s) => s.lang === lang && s.y === 0 && lengthBucket(s.words) === b);
      return SENSITIVITIES.map((m) => cellThreshold(human, MODE_FPR[m] * PROMISE_MARGIN));
    }),
  );
}

const pct = (v: number) => (Number.isFinite(v) ? (100 * v).toFixed(1) : '-');
const rate = (xs: Scored[], m: number) => (xs.length ? xs.filter((s) => s.flagged[m]).length / xs.length : NaN);

/** Held-out scores of every text and excerpt, each flagged against thresholds its own family did not set. */
export function heldOutScores(p: Prepared, shipped: ModelFile, onFamily?: (f: string, i: number, n: number) => void): Scored[] {
  const z = heldOutLogits(p.docs, { sparse: SPARSE_OPTIONS, trainable, onFamily });
  const all: Scored[] = [];
  p.docs.forEach((d, i) => {
    if (Number.isFinite(z[i])) all.push({ ...heldOutScore(d, z[i]), family: d.family, excerpt: d.excerpt, flagged: [] });
  });
  for (const family of new Set(all.map((s) => s.family))) {
    const t = nestedThresholds(all.filter((s) => s.family !== family));
    for (const s of all) {
      if (s.family !== family) continue;
      const b = lengthBucket(s.words);
      const cell = shipped.cells[LANGS[s.lang]][b];
      s.flagged = SENSITIVITIES.map((m, k) => s.z >= t[s.lang][b][k] && cell.conclusive[m]);
    }
  }
  return all;
}

/** The per-source table, the per-cell table and the summary lines, as Markdown. */
export function losoReport(scores: Scored[]): { markdown: string; meanAuroc: number; worstHuman: Record<Sensitivity, number> } {
  const lines: string[] = [];
  const texts = scores.filter((s) => !s.excerpt);
  lines.push('| source | lang | texts human/AI | AUROC | conservative | balanced | aggressive | human excerpts, conservative/balanced |');
  lines.push('|---|---|---|---|---|---|---|---|');
  const aurocs: number[] = [];
  const worst = [0, 0, 0];
  for (const source of [...new Set(texts.map((s) => s.source))].sort()) {
    for (const lang of [0, 1] as const) {
      const mine = texts.filter((s) => s.source === source && s.lang === lang);
      if (!mine.length) continue;
      const human = mine.filter((s) => s.y === 0);
      const ai = mine.filter((s) => s.y === 1);
      // A one-label source is measured against the other label of the other families.
      const others = texts.filter((s) => s.lang === lang && s.family !== mine[0].family);
      const neg = (human.length ? human : others.filter((s) => s.y === 0)).map((s) => s.z);
      const pos = (ai.length ? ai : others.filter((s) => s.y === 1)).map((s) => s.z);
      const a = auroc(pos, neg);
      aurocs.push(a);
      if (human.length >= MIN_SOURCE_REPORT) for (let m = 0; m < 3; m++) worst[m] = Math.max(worst[m], rate(human, m));
      const cell = (m: number) =>
        human.length && ai.length ? `${pct(rate(human, m))} / ${pct(rate(ai, m))}` : pct(rate(human.length ? human : ai, m));
      const excerpts = scores.filter((s) => s.excerpt && s.source === source && s.lang === lang && s.y === 0);
      lines.push(
        `| ${source} | ${LANGS[lang]} | ${human.length}/${ai.length} | ${a.toFixed(3)} | ${cell(0)} | ${cell(1)} | ${cell(2)} | ${excerpts.length ? `${pct(rate(excerpts, 0))} / ${pct(rate(excerpts, 1))}` : '-'} |`,
      );
    }
  }
  const meanAuroc = aurocs.reduce((x, v) => x + v, 0) / aurocs.length;
  lines.push('', 'Cells: flagged human texts (full texts; excerpts) and caught AI texts, conservative / balanced / aggressive:', '');
  lines.push('| lang | words | human texts | human FPR | human excerpts | excerpt FPR | AI texts | AI caught |');
  lines.push('|---|---|---|---|---|---|---|---|');
  for (const lang of [0, 1] as const) {
    LENGTH_BUCKETS.forEach((lo, b) => {
      const hi = LENGTH_BUCKETS[b + 1];
      const inCell = (s: Scored) => s.lang === lang && lengthBucket(s.words) === b;
      const h = texts.filter((s) => inCell(s) && s.y === 0);
      const x = scores.filter((s) => s.excerpt && inCell(s) && s.y === 0);
      const a = texts.filter((s) => inCell(s) && s.y === 1);
      const modes = (xs: Scored[]) => [0, 1, 2].map((m) => pct(rate(xs, m))).join(' / ');
      lines.push(
        `| ${LANGS[lang]} | ${lo}${hi ? `-${hi}` : '+'} | ${h.length} | ${modes(h)} | ${x.length} | ${modes(x)} | ${a.length} | ${modes(a)} |`,
      );
    });
  }
  const ai150 = texts.filter((s) => s.y === 1 && s.words >= 150);
  lines.push(
    '',
    `Mean AUROC over ${aurocs.length} (source, language) rows: ${meanAuroc.toFixed(3)}. ` +
      `Worst human source (${MIN_SOURCE_REPORT}+ texts) flagged: ${SENSITIVITIES.map((m, k) => `${m} ${pct(worst[k])}%`).join(', ')}. ` +
      `AI texts of 150+ words caught: ${SENSITIVITIES.map((m, k) => `${m} ${pct(rate(ai150, k))}%`).join(', ')}.`,
  );
  return { markdown: lines.join('\n'), meanAuroc, worstHuman: { conservative: worst[0], balanced: worst[1], aggressive: worst[2] } };
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
