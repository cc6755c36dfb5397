/**
 * How a verdict and an AI share look, in the text view and the Files table alike. Each of the six
 * verdict keys has its own badge (styles.css: an icon on a scale from ○ human to ● AI, `?` for
 * inconclusive, and a colour); the localized label is always written out, so colour is never alone.
 */
import { aiSharePercent, isAiVerdict, type VerdictKey } from '../contract/index.ts';
import type { UiLang } from './strings.ts';

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
export function showsPassages(verdictKey: VerdictKey): boolean {
  return isAiVerdict(verdictKey);
}

/** An AI share (0 to 1) as a whole percentage in the interface language ("52%", "52 %"), rounded as the mixed bullet rounds it. */
export function formatShare(share: number, lang: UiLang): string {
  return new Intl.NumberFormat(lang, { style: 'percent', maximumFractionDigits: 0 }).format(aiSharePercent(share) / 100);
}
