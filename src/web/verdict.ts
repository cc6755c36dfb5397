/**
 * How a verdict and an AI share look, in the text view and the Files table alike. Each of the six
 * verdict keys has its own badge (styles.css: an icon on a scale from ○ human to ● AI, `?` for
 * inconclusive, and a colour); the localized label is always written out, so colour is never alone.
 */
import { aiSharePercent, isAiVerdict, type VerdictKey } from '../contract/index.ts';
import type {
  MAX_MIXED_SHARE as SERVER_MAX_MIXED_SHARE,
  MIN_HUMAN_PASSAGE_WORDS as SERVER_MIN_HUMAN_PASSAGE_WORDS,
  MIN_MIXED_SHARE as SERVER_MIN_MIXED_SHARE,
} from '../detector/decide/mixed.ts';
import { tr, type UiLang } from './strings.ts';

/**
 * The API's `mixed` rule (src/detector/decide/mixed.ts), quoted to say why a verdict is not `mixed`.
 * The page may not load the detector, so the numbers are written here, typed as the detector's own
 * literals: if mixed.ts changes one, this stops compiling. The page quotes them; it never applies them.
 */
const MIN_MIXED_SHARE: typeof SERVER_MIN_MIXED_SHARE = 0.1;
const MAX_MIXED_SHARE: typeof SERVER_MAX_MIXED_SHARE = 0.9;
const MIN_HUMAN_PASSAGE_WORDS: typeof SERVER_MIN_HUMAN_PASSAGE_WORDS = 30;

/** Shows `label` as the badge of `key` inside `target` (its text stays exactly the label). */
export function paintVerdict(target: HTMLElement, key: VerdictKey | undefined, label: string): void {
  target.textContent = label;
  target.classList.add('verdict-badge');
  if (key) target.dataset.verdict = key;
  else delete target.dataset.verdict;
}

/**
 * Verdicts under which AI passages are shown (the API's rule for highlights): a human-side or
 * inconclusive verdict shows no "AI passage", whatever the decoder read, so the page never looks
 * more accusing than the verdict.
 */
export function showsPassages(verdictKey: VerdictKey | undefined): boolean {
  return verdictKey !== undefined && isAiVerdict(verdictKey);
}

const percent = (share: number, lang: UiLang) => new Intl.NumberFormat(lang, { style: 'percent', maximumFractionDigits: 0 }).format(share);

/** An AI share (0 to 1) as a whole percentage in the interface language ("52%", "52 %"), rounded as the mixed bullet rounds it. */
export function formatShare(share: number, lang: UiLang): string {
  return percent(aiSharePercent(share) / 100, lang);
}

/** What "AI share" shows, in the text view and the Files table alike: the share under an AI-side verdict, else "—" (issue 39). */
export function shareText(verdictKey: VerdictKey | undefined, share: number | undefined, lang: UiLang): string {
  return share !== undefined && showsPassages(verdictKey) ? formatShare(share, lang) : '—';
}

/**
 * Why an AI verdict over a text with a passage that reads as human is not "Mixed" (issue 39: "Likely
 * AI-generated" stood over a text 54% of whose words were in a human passage, with no word on why),
 * or null when there is nothing to explain. From the answer's fields only (verdict, segments, share):
 * the API decided, the page says which rule it applied.
 */
export function notMixedNote(
  answer: { verdictKey: VerdictKey; segments: readonly { label: string }[]; aiShare: number },
  lang: UiLang,
): string | null {
  if (answer.verdictKey !== 'ai' && answer.verdictKey !== 'likely_ai') return null;
  if (!answer.segments.some((s) => s.label === 'human')) return null;
  return tr(lang, 'notMixed', {
    // The complement of the AI share as the page shows it, so the two add up to 100%.
    human: percent((100 - aiSharePercent(answer.aiShare)) / 100, lang),
    min: percent(MIN_MIXED_SHARE, lang),
    max: percent(MAX_MIXED_SHARE, lang),
    words: MIN_HUMAN_PASSAGE_WORDS,
  });
}
