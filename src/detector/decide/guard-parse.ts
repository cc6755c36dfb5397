/**
 * Reading back what format 3 added to a profile (issue 43): a language's `guard` note, each mode's
 * `otherWriters`, an adapted mode's `fallback` and the `examples` check, each checked for its shape and
 * its counts (a rate is flagged / texts, the most flagged population within the populations' texts).
 * Each check answers what is wrong, or null; ./profile.ts parseProfile throws `calibration_invalid` with it.
 */
import { SENSITIVITIES } from '../../contract';
import { FALLBACK_REASONS } from './adaptation';
import { FORMS } from './examples';
import { MIN_GUARD_TEXTS } from './guard';
import { isCount, isObject, isShare, isShareOf } from './json-checks';

const GUARD_MADE: readonly unknown[] = ['with_profile', 'on_load'];

/** A population's figures (`most`): shape, rate = flagged / texts, at least MIN_GUARD_TEXTS texts. */
function checkPopulation(p: unknown, at: string): string | null {
  if (
    !isObject(p) ||
    typeof p.id !== 'string' ||
    typeof p.label !== 'string' ||
    !isCount(p.texts) ||
    !isCount(p.flagged) ||
    !isShare(p.rate) ||
    !isShare(p.modelRate)
  ) {
    return `${at} is not a population's figures`;
  }
  if (p.texts < MIN_GUARD_TEXTS) return `${at}.texts is ${p.texts}, under the ${MIN_GUARD_TEXTS} a guarded population has`;
  if (p.flagged > p.texts || !isShareOf(p.rate, p.flagged, p.texts)) return `${at}.rate is not flagged / texts`;
  return null;
}

/** A mode's `otherWriters`: shape and counts; `populations` as the language's guard note says. */
export function checkOtherWriters(v: unknown, at: string, populations: number, references: number): string | null {
  if (
    !isObject(v) ||
    (v.bar !== 'adapted' && v.bar !== 'calibration') ||
    !isCount(v.texts) ||
    !isCount(v.flagged) ||
    !isShare(v.rate) ||
    !isCount(v.populations) ||
    typeof v.raised !== 'boolean'
  ) {
    return `${at} is not the figures of other writers`;
  }
  if (v.flagged > v.texts || !isShareOf(v.rate, v.flagged, v.texts)) return `${at}.rate is not flagged / texts`;
  if (v.populations !== populations) return `${at}.populations is ${v.populations}, the guard has ${populations}`;
  if (v.texts > references) return `${at}.texts is more than the ${references} reference texts of the guard`;
  if (v.texts < populations * MIN_GUARD_TEXTS) return `${at}.texts is fewer than its populations hold`;
  if (v.most === null) return populations === 0 ? null : `${at}.most is null with ${populations} populations`;
  const wrong = checkPopulation(v.most, `${at}.most`);
  if (wrong) return wrong;
  const most = v.most as { texts: number; flagged: number };
  if (populations === 0 || most.texts > v.texts || most.flagged > v.flagged) return `${at}.most is not within the populations`;
  return null;
}

/** An adapted mode's `fallback`: true when it fell back (its bar null, fewer caught than calibration-only), false when absent, else what is wrong. */
export function checkFallback(m: unknown, at: string, aiTexts: number): boolean | string {
  if (!isObject(m) || m.fallback === undefined) return false;
  if (!(FALLBACK_REASONS as readonly unknown[]).includes(m.fallback)) return `${at}.fallback is not a reason`;
  if (m.thresholdLogit !== null || (m.thresholdScore !== undefined && m.thresholdScore !== null))
    return `${at} fell back but keeps a bar of its own`;
  if (!isCount(m.caught) || !isCount(m.modelCaught) || m.caught >= m.modelCaught || m.modelCaught > aiTexts)
    return `${at} fell back but caught no fewer examples than calibration-only`;
  return true;
}

/** The `examples` check of a language: shape, its examples as many as the AI samples kept. */
function checkExamples(v: unknown, at: string, aiSamples: number): string | null {
  if (!isObject(v) || !isCount(v.aiTexts) || !isShare(v.modelAuroc) || !Array.isArray(v.forms))
    return `${at} is not a check of the examples`;
  if (v.aiTexts !== aiSamples) return `${at}.aiTexts is ${v.aiTexts}, the language was given ${aiSamples} AI examples`;
  for (const f of v.forms) {
    if (
      !isObject(f) ||
      !(FORMS as readonly unknown[]).includes(f.form) ||
      !isShare(f.human) ||
      !isShare(f.ai) ||
      (f.word !== undefined && (f.form !== 'opening' || typeof f.word !== 'string'))
    ) {
      return `${at}.forms holds something other than a form's shares`;
    }
  }
  return null;
}

/**
 * A language's format-3 fields: a `guard` note and every mode's `otherWriters` together or neither
 * (formats 1 and 2 have neither: they are guarded on load), and the `examples` check.
 */
export function checkGuarded(l: Record<string, unknown>, at: string, format: number, aiSamples: number): string | null {
  if (l.examples !== undefined) {
    const wrong = checkExamples(l.examples, `${at}.examples`, aiSamples);
    if (wrong) return wrong;
  }
  const modes = l.modes as Record<string, Record<string, unknown>>;
  const stated = SENSITIVITIES.filter((mode) => modes[mode].otherWriters !== undefined).length;
  if (format < 3 && l.examples !== undefined) return `${at}.examples is not in format ${format}`;
  if (l.guard === undefined) return stated === 0 ? null : `${at}.modes state other writers without a guard note`;
  if (format < 3) return `${at}.guard is not in format ${format}`;
  const g = l.guard;
  if (!isObject(g) || !isCount(g.references) || !isCount(g.populations) || !GUARD_MADE.includes(g.made))
    return `${at}.guard is not a guard note`;
  if (stated !== SENSITIVITIES.length) return `${at}.guard is set but not every mode states other writers`;
  const adaptation = l.adaptation as { modes: Record<string, { thresholdLogit: number | null }> } | null | undefined;
  for (const mode of SENSITIVITIES) {
    const o = modes[mode].otherWriters;
    const wrong = checkOtherWriters(o, `${at}.modes.${mode}.otherWriters`, g.populations, g.references);
    if (wrong) return wrong;
    const adapted = !!adaptation && adaptation.modes[mode].thresholdLogit !== null;
    if ((o as { bar: string }).bar !== (adapted ? 'adapted' : 'calibration'))
      return `${at}.modes.${mode}.otherWriters.bar is not the bar a covered detection applies`;
  }
  return null;
}
