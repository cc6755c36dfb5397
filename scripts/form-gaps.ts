/**
 * How far apart human texts and AI texts of our data sit in each surface form (issue 43 item 4; the
 * forms: src/detector/score/form.ts), for the sources a profile's maker might pair: the evidence for
 * FORM_GAP (src/detector/decide/examples.ts). `bun scripts/form-gaps.ts` (reads ../shared/data dev
 * files, at most 300 texts a side; prints each form's share on both sides and the findings a profile
 * would warn about).
 */
import { formFindings } from '../src/detector/learn/examples';
import { type TextForm, textForm } from '../src/detector/score/form';

const DATA = `${import.meta.dir}/../../shared/data/`;
const PAIRS: [string, string][] = [
  ['autextification2023', 'autextification2023'],
  ['fastdetectgpt_gpt34', 'fastdetectgpt_gpt34'],
  ['mixset_pure', 'mixset_pure'],
  ['outfox_essays', 'argugpt_ai_only'],
  ['wi_learner_essays', 'argugpt_ai_only'],
  ['cowsl2h_spanish_learner_essays', 'use_cowsl2h_chatgpt_essays'],
  ['bbc_news_2005', 'm4_llama2'],
];
const FLAGS = ['tokenised', 'wrapped', 'markdown', 'curly', 'casing'] as const;

async function forms(source: string, label: 'human' | 'ai'): Promise<TextForm[]> {
  const lines = (await Bun.file(`${DATA}${source}.dev.jsonl`).text()).split('\n').filter(Boolean);
  return lines
    .map((l) => JSON.parse(l) as { text: string; label?: string })
    .filter((r) => (r.label ?? 'ai') === label)
    .slice(0, 300)
    .map((r) => textForm(r.text));
}

let widest = 0;
for (const [human, ai] of PAIRS) {
  const h = await forms(human, 'human');
  const a = await forms(ai, 'ai');
  const share = (xs: TextForm[], k: (typeof FLAGS)[number]) => xs.filter((x) => x[k]).length / Math.max(1, xs.length);
  const cells = FLAGS.map((k) => {
    widest = Math.max(widest, Math.abs(share(h, k) - share(a, k)));
    return `${k} ${share(h, k).toFixed(2)}/${share(a, k).toFixed(2)}`;
  });
  console.log(`${human} (${h.length}) vs ${ai} (${a.length}): ${cells.join(', ')}; findings ${JSON.stringify(formFindings(h, a))}`);
}
console.log(`widest gap of a yes/no form: ${widest.toFixed(2)}`);
