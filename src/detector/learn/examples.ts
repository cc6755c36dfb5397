/**
 * Checking a language's AI examples against its human texts as a profile is made (issue 43 item 4; the
 * record and its constants: ../decide/examples.ts): the model's AUROC of the two sides, and the forms
 * (../score/form.ts) in which they differ. Pure; the forms are read from the inputs and never kept.
 */
import { round6 } from '../../contract';
import { type ExamplesCheck, FORM_GAP, FORMS, type FormFinding, MIN_CHECKED_EXAMPLES } from '../decide/examples';
import type { TextForm } from '../score/form';
import { auroc } from './stats';

/** What the check reads of a text: the model's logit and, when the caller measured it, the form. */
export interface CheckedText {
  logit: number;
  form?: TextForm;
}

/** The most common non-empty value of a text field on a side, or null. */
function commonest(forms: readonly TextForm[], key: 'opening' | 'closing'): string | null {
  const counts = new Map<string, number>();
  for (const f of forms) if (f[key]) counts.set(f[key], (counts.get(f[key]) ?? 0) + 1);
  let best: string | null = null;
  for (const [v, n] of counts) if (best === null || n > counts.get(best)! || (n === counts.get(best)! && v < best)) best = v;
  return best;
}

const share = (forms: readonly TextForm[], test: (f: TextForm) => boolean) => forms.filter(test).length / Math.max(1, forms.length);

/** The form findings: each form whose shares differ by FORM_GAP or more, the widest gap first. */
export function formFindings(human: readonly TextForm[], ai: readonly TextForm[]): FormFinding[] {
  const out: (FormFinding & { gap: number })[] = [];
  const push = (form: FormFinding['form'], test: (f: TextForm) => boolean, word?: string) => {
    const h = share(human, test);
    const a = share(ai, test);
    if (Math.abs(a - h) >= FORM_GAP) out.push({ form, human: round6(h), ai: round6(a), ...(word ? { word } : {}), gap: Math.abs(a - h) });
  };
  for (const form of FORMS) {
    if (form === 'opening' || form === 'closing') {
      // The value most texts of either side share (the examples' "certainly", an archive's sign-off): the wider gap of the two.
      const values = [...new Set([commonest(ai, form), commonest(human, form)].filter((v): v is string => v !== null))];
      const gaps = values.map((v) => ({ v, gap: Math.abs(share(ai, (f) => f[form] === v) - share(human, (f) => f[form] === v)) }));
      const widest = gaps.sort((x, y) => y.gap - x.gap)[0];
      if (widest) push(form, (f) => f[form] === widest.v, form === 'opening' ? widest.v : undefined);
    } else push(form, (f) => f[form]);
  }
  return out.sort((x, y) => y.gap - x.gap).map(({ gap: _, ...f }) => f);
}

/** The check of a language's AI examples, or null with fewer than MIN_CHECKED_EXAMPLES. Forms are compared only when every text carries one. */
export function checkExamples(human: readonly CheckedText[], ai: readonly CheckedText[]): ExamplesCheck | null {
  if (ai.length < MIN_CHECKED_EXAMPLES || !human.length) return null;
  const modelAuroc =
    Math.round(
      auroc(
        ai.map((t) => t.logit),
        human.map((t) => t.logit),
      ) * 1e4,
    ) / 1e4;
  const forms = [...human, ...ai].every((t) => t.form)
    ? formFindings(
        human.map((t) => t.form!),
        ai.map((t) => t.form!),
      )
    : [];
  return { aiTexts: ai.length, modelAuroc, forms };
}
