/**
 * What a profile's maker checked of the AI examples against the human texts (issue 43 item 4: mistakes
 * said out loud): the model's AUROC of the examples against the human texts (under 0.5, the model reads
 * the "AI examples" as more human than the human texts: mislabelled?), and the surface forms
 * (score/form.ts) in which the two sides differ most (tokenised punctuation, hard-wrapped lines,
 * Markdown, curly quotes, casing, a shared opening word or closing line): an adaptation learns whatever
 * separates the sides, and a form only one side has is learned as "AI", then flags human texts in that
 * form. Made by learn/examples.ts; kept in the profile (`languages.<lang>.examples`) so that its
 * warnings (./profile.ts profileWarnings) are said wherever the profile is shown.
 */

/** The forms compared (score/form.ts TextForm's fields). */
export const FORMS = ['tokenised', 'wrapped', 'markdown', 'curly', 'casing', 'opening', 'closing'] as const;
export type FormKind = (typeof FORMS)[number];

/** A form one side has far more than the other. */
export interface FormFinding {
  form: FormKind;
  /** Share of the human texts, and of the AI examples, in this form (6 decimals). */
  human: number;
  ai: number;
  /** `opening`: the shared opening word (a word most texts of one side open with); absent for the other forms (a closing line may name a person). */
  word?: string;
}

/** The check of a language's AI examples (`languages.<lang>.examples`; absent with fewer than MIN_CHECKED_EXAMPLES). */
export interface ExamplesCheck {
  /** AI examples checked. */
  aiTexts: number;
  /** The model's AUROC of the examples against the human texts (4 decimals). */
  modelAuroc: number;
  /** The forms in which the sides differ by FORM_GAP or more, the widest gap first. */
  forms: FormFinding[];
}

/** The fewest AI examples checked: under this, a share or an AUROC says too little (MIN_COVERED_TEXTS's count). */
export const MIN_CHECKED_EXAMPLES = 20;
/** Under this model AUROC, the examples rank below the human texts (a coin would rank them at 0.5). */
export const EXAMPLES_BELOW_HUMAN_AUROC = 0.5;
/**
 * Two sides differ in a form when its shares differ by this much (half the texts): the audit's cases
 * (issue 43) are forms all or nearly all texts of one side have (every example opening "Certainly!" or
 * in Markdown, an archive tokenised throughout), while between the human and AI texts of our data, paired
 * as a profile's maker might pair them (one source, or native / learner essays beside AI essays, news
 * beside AI articles), the widest gap in a form is 0.39: learner essays' line breaks inside paragraphs
 * (0.41) against AI essays' (0.02) (`bun scripts/form-gaps.ts`).
 */
export const FORM_GAP = 0.5;
