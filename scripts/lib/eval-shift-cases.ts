/**
 * The cases `eval --calibration --adapt --shift` measures (scripts/lib/eval-shift.ts): per (language, kind of
 * writing) with two or more families of MIN_FAMILY_HUMAN_TEXTS+ human texts of the kind, a profile from each
 * family that also has AI texts of the kind, scored on every other family's human texts of the kind; and the
 * issue's cases rebuilt from our data (the native-essays profile scored on learner essays is among the essay
 * rows: outfox_essays -> wi_learner_essays, toefl_chatgpt_rexshijaku, cowsl2h_spanish_learner_essays).
 */
import type { ModelLang } from '../../src/contract';
import { shuffled } from '../../src/detector/learn/stats';
import { MIN_FAMILY_HUMAN_TEXTS } from './calibrate';
import { EXAMPLE_COUNTS } from './eval-adapt';
import { type ShiftRecord, TOKENISED } from './eval-shift-data';
import type { ShiftCase, Target } from './eval-shift';

/** A family's AI texts of the kind a profile needs: enough for the smaller example count on the operator's half. */
const MIN_AI = 2 * EXAMPLE_COUNTS[0];
/** The tokenised-archive case: a family of stories whose human texts the eval tokenises (eval-shift-data.ts tokenised). */
export const TOKENISED_FAMILY: { lang: ModelLang; family: string; kind: string } = TOKENISED;
/** The labelling-mistake case: native essays with learner essays given as "AI examples", and the other learner essays scored. */
export const MISTAKE = {
  native: 'outfox_essays',
  learners: 'wi_learner_essays',
  others: ['toefl_chatgpt_rexshijaku', 'cowsl2h_spanish_learner_essays'],
};
/** The learner essays given as examples (the first of a seeded order; the rest of the family is scored). */
const MISTAKE_SEED = 4_301;

const LANGS = ['en', 'es'] as const;

/** The records of one (language, kind, family), per label. */
type Cell = { human: ShiftRecord[]; ai: ShiftRecord[]; population: string };

function cellsOf(records: readonly ShiftRecord[]): Map<string, Map<string, Cell>> {
  const kinds = new Map<string, Map<string, Cell>>();
  for (const r of records) {
    if (!r.kind) continue;
    const key = `${LANGS[r.lang]}\t${r.kind}`;
    const families = kinds.get(key) ?? kinds.set(key, new Map()).get(key)!;
    const cell = families.get(r.family) ?? families.set(r.family, { human: [], ai: [], population: r.population }).get(r.family)!;
    (r.y ? cell.ai : cell.human).push(r);
  }
  return kinds;
}

/** Every family's human texts of a kind as a target. */
const targetOf = (family: string, cell: Cell): Target => ({ name: family, texts: () => cell.human, exclude: [cell.population] });

/** The cases: every profile family of every kind with others, then the tokenised archive and the labelling mistake. */
export function shiftCases(
  records: readonly ShiftRecord[],
  tokenisedHuman: readonly ShiftRecord[],
  minTexts = MIN_FAMILY_HUMAN_TEXTS,
): ShiftCase[] {
  const cases: ShiftCase[] = [];
  const kinds = cellsOf(records);
  for (const [key, families] of [...kinds].sort(([a], [b]) => a.localeCompare(b))) {
    const [lang, kind] = key.split('\t') as [ModelLang, string];
    const scored = [...families].filter(([, c]) => c.human.length >= minTexts).sort(([a], [b]) => a.localeCompare(b));
    if (scored.length < 2) continue;
    for (const [family, cell] of scored) {
      if (cell.ai.length < MIN_AI || cell.human.length < MIN_FAMILY_HUMAN_TEXTS) continue;
      cases.push({
        lang,
        kind,
        name: family,
        human: cell.human,
        ai: cell.ai,
        targets: scored.filter(([f]) => f !== family).map(([f, c]) => targetOf(f, c)),
        exclude: [cell.population],
      });
    }
  }
  const t = TOKENISED_FAMILY;
  const stories = kinds.get(`${t.lang}\t${t.kind}`);
  const own = stories?.get(t.family);
  if (stories && own && tokenisedHuman.length) {
    const byGroup = new Map(own.human.map((r) => [r.group, r]));
    cases.push({
      lang: t.lang,
      kind: t.kind,
      name: `${t.family}, human texts tokenised`,
      human: tokenisedHuman,
      ai: own.ai,
      targets: [
        { name: 'its own writers, held back, as written', texts: (held) => held.flatMap((r) => byGroup.get(r.group) ?? []), exclude: [] },
        ...[...stories].filter(([f, c]) => f !== t.family && c.human.length >= minTexts).map(([f, c]) => targetOf(f, c)),
      ],
      exclude: [own.population],
      named: true,
    });
  }
  const essays = kinds.get('en\tessay');
  const native = essays?.get(MISTAKE.native);
  const learners = essays?.get(MISTAKE.learners);
  if (essays && native && learners) {
    const order = shuffled(learners.human, MISTAKE_SEED);
    const examples = order.slice(0, EXAMPLE_COUNTS[EXAMPLE_COUNTS.length - 1]);
    const rest: Cell = { ...learners, human: order.slice(examples.length) };
    cases.push({
      lang: 'en',
      kind: 'essay',
      name: `${MISTAKE.native} + ${MISTAKE.learners} human texts as "AI examples"`,
      human: native.human,
      ai: native.ai,
      examples: () => examples,
      targets: [
        targetOf(`${MISTAKE.learners} (the others)`, rest),
        ...MISTAKE.others.flatMap((f) => (essays.get(f) ? [targetOf(f, essays.get(f)!)] : [])),
      ],
      exclude: [native.population, learners.population],
      named: true,
    });
  }
  return cases;
}
