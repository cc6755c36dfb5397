/**
 * Bullets: 2 to 6 plain-language findings, each with an example passage. The first one always
 * supports the verdict (AI-leaning for an AI-side verdict, human-leaning for a human-side one, a
 * neutral reason for `inconclusive`); the others follow by strength, whichever way they point.
 */
import type { Bullet } from '../types';
import { isAiVerdict, isHumanVerdict, type LabelLang, type VerdictKey } from '../../contract';
import { t } from '../../i18n';
import type { Finding } from './findings';
import { passage } from './passage';

export const MIN_BULLETS = 2;
export const MAX_BULLETS = 6;
/** The leaning the first bullet must have for a verdict. */
export function leaningOf(verdict: VerdictKey): Finding['leaning'] {
  return isAiVerdict(verdict) ? 'ai' : isHumanVerdict(verdict) ? 'human' : 'neutral';
}

/**
 * Order findings (`lead` first: the finding that supports the verdict, chosen by the caller),
 * drop the rest beyond MAX_BULLETS, pad to MIN_BULLETS with `filler`, and render.
 */
export function renderBullets(text: string, lead: Finding, others: Finding[], filler: Finding, lang: LabelLang): Bullet[] {
  const ranked = [lead, ...others.filter((f) => f !== lead && f.id !== lead.id).sort((a, b) => b.strength - a.strength)].slice(
    0,
    MAX_BULLETS,
  );
  if (ranked.length < MIN_BULLETS) ranked.push(filler);
  return ranked.map((f) => ({ id: f.id, leaning: f.leaning, text: t(lang, `bullets.${f.key}`, f.params), ...passage(text, f.cite) }));
}

/** The strongest finding with this leaning, if any. */
export function strongestWith(findings: Finding[], leaning: Finding['leaning']): Finding | null {
  let best: Finding | null = null;
  for (const f of findings) if (f.leaning === leaning && (!best || f.strength > best.strength)) best = f;
  return best;
}
