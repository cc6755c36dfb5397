/**
 * Bullets: 2 to 6 plain-language findings, each with an example passage. The first one always
 * supports the verdict (AI-leaning for an AI-side verdict, human-leaning for a human-side one, a
 * neutral reason for `inconclusive`); the others follow by strength, whichever way they point.
 * No two bullets quote the same words (issue 39: both "Why" bullets quoted one sentence): a finding
 * whose example an earlier bullet already quotes cites the next of its own sentences by its `rank`,
 * and is left out when it has none left; only a text with a single passage to quote repeats it.
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

type Example = ReturnType<typeof passage>;

/** The examples `f` may quote, best first: its own citation, then its other sentences by its rank (ties: the longer), else in text order. */
function candidates(text: string, f: Finding): Example[] {
  const { rank } = f;
  const others = rank ? f.sentences.filter((s) => rank(s) > -Infinity).sort((a, b) => rank(b) - rank(a) || b.words - a.words) : f.sentences;
  return [f.cite, ...others].map((span) => passage(text, span));
}

/**
 * Order findings (`lead` first: the finding that supports the verdict, chosen by the caller), give
 * each an example no bullet before it quotes (overlapping words count as the same quote), keep at
 * most MAX_BULLETS, pad to MIN_BULLETS with `filler`, and render.
 */
export function renderBullets(text: string, lead: Finding, others: Finding[], filler: Finding, lang: LabelLang): Bullet[] {
  const ordered = [lead, ...others.filter((f) => f !== lead && f.id !== lead.id).sort((a, b) => b.strength - a.strength)];
  const chosen: { f: Finding; example: Example }[] = [];
  const quoted = (e: Example) => chosen.some(({ example: q }) => e.start < q.end && q.start < e.end);
  for (const f of ordered) {
    if (chosen.length === MAX_BULLETS) break;
    // The lead keeps its passage: it is the one that says why the verdict is what it is.
    const example = chosen.length === 0 ? passage(text, f.cite) : candidates(text, f).find((e) => !quoted(e));
    if (example) chosen.push({ f, example });
  }
  if (chosen.length < MIN_BULLETS) {
    const all = candidates(text, filler);
    chosen.push({ f: filler, example: all.find((e) => !quoted(e)) ?? all[0] });
  }
  return chosen.map(({ f, example }) => ({ id: f.id, leaning: f.leaning, text: t(lang, `bullets.${f.key}`, f.params), ...example }));
}

/** The strongest finding with this leaning, if any. */
export function strongestWith(findings: Finding[], leaning: Finding['leaning']): Finding | null {
  let best: Finding | null = null;
  for (const f of findings) if (f.leaning === leaning && (!best || f.strength > best.strength)) best = f;
  return best;
}
