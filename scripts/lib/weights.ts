/**
 * Training weights of the lexical model. Chosen by leave-one-source-out (model card, "What was
 * tried"): every (source, language, label) cell weighs the square root of its size, so the big
 * single-label sources (6,000 tweets, 5,800 chat answers) cannot make their genre the label;
 * light LLM edits of human texts are left out; then both labels of a language weigh the same.
 */
import type { Row } from './data';
import type { Doc } from './featurize';

/**
 * LLM edits of human texts train the model only when the LLM changed at least this share of the
 * words. Lighter edits are mostly the human original, and their originals are human rows of
 * another source (MixSet): trained on as AI, they taught the model those very human texts, and
 * 32% of MixSet's human dev texts were flagged at `conservative` (0% with this rule).
 */
export const MIN_EDIT_SHARE = 0.5;

/** How much an LLM-edited text counts as AI text: 1 or 0 (texts wholly of one author: 1). */
export function editWeight(d: { row: Pick<Row, 'mix'> }): number {
  const mix = d.row.mix;
  // A person's light edits of an LLM text leave an LLM text; continuations are trained on their AI part only (featurize.ts).
  if (!mix || mix.type === 'human_post_edit_of_llm_text' || mix.human_end_word !== undefined) return 1;
  const share = mix.changed_word_fraction;
  return typeof share === 'number' && share < MIN_EDIT_SHARE ? 0 : 1;
}

/**
 * An AI row that is an LLM edit of a human text changing under half its words: mostly the human
 * original, so evaluation counts it neither as AI text to catch nor as human text (eval, eval --loso).
 */
export function isLightEdit(d: { row: Pick<Row, 'mix' | 'label'> }): boolean {
  return d.row.label === 'ai' && editWeight(d) === 0;
}

/** Set `weight` on the documents a lexical model is about to be trained on (mean weight 1). */
export function setTrainingWeights(docs: Doc[]): void {
  const cell = (d: Doc) => `${d.row.source}|${d.lang}|${d.y}`;
  const sizes = new Map<string, number>();
  for (const d of docs) sizes.set(cell(d), (sizes.get(cell(d)) ?? 0) + 1);
  for (const d of docs) d.weight = editWeight(d) / Math.sqrt(sizes.get(cell(d))!);
  for (const lang of [0, 1]) {
    const total = [0, 0];
    for (const d of docs) if (d.lang === lang) total[d.y] += d.weight;
    const n = total[0] + total[1];
    for (const d of docs) if (d.lang === lang && total[d.y] > 0) d.weight *= n / (2 * total[d.y]);
  }
  let mean = 0;
  for (const d of docs) mean += d.weight;
  mean /= Math.max(1, docs.length);
  for (const d of docs) d.weight /= mean;
}
