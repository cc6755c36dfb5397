/** Bullets: 2 to 6 plain-language findings, strongest first, each with an example passage. */
import type { Bullet, LabelLang } from '../engine/types';
import type { EngineResult, ScoredSentence } from '../engine/engine';
import { SF } from '../engine/layout';
import { t } from '../i18n';

export const MIN_BULLETS = 2;
export const MAX_BULLETS = 6;
/** Longest example passage; longer sentences are cut at a word boundary. */
const MAX_EXAMPLE_CHARS = 200;

/** A candidate finding before ranking. */
export interface Finding {
  key: string;
  params: Record<string, string | number>;
  strength: number;
  sentence: ScoredSentence | null;
}

/** A passage of the text (at most MAX_EXAMPLE_CHARS) with offsets: text.slice(start, end) === example. */
export function passage(text: string, s: ScoredSentence | null): { example: string; start: number; end: number } {
  if (!s) {
    const end = Math.min(text.length, MAX_EXAMPLE_CHARS);
    return { example: text.slice(0, end), start: 0, end };
  }
  let end = s.end;
  if (end - s.start > MAX_EXAMPLE_CHARS) {
    const cut = text.lastIndexOf(' ', s.start + MAX_EXAMPLE_CHARS);
    end = cut > s.start ? cut : s.start + MAX_EXAMPLE_CHARS;
    const c = text.charCodeAt(end - 1);
    if (c >= 0xd800 && c <= 0xdbff) end--; // never split a surrogate pair
  }
  return { example: text.slice(s.start, end), start: s.start, end };
}

/** Human-side findings: evidence that points toward a person. */
export function humanFindings(r: EngineResult, sentCV: number, cvThreshold: number): Finding[] {
  const out: Finding[] = [];
  const find = (k: number) => r.sentences.find((s) => s.f[k] > 0) ?? null;
  if (Number.isFinite(sentCV) && Number.isFinite(cvThreshold) && sentCV >= cvThreshold * 1.8) {
    const longest = r.sentences.reduce<ScoredSentence | null>((a, s) => (!a || s.words > a.words ? s : a), null);
    out.push({ key: 'human_bursty', params: {}, strength: Math.min(2, sentCV / cvThreshold - 1), sentence: longest });
  }
  const voice = r.style.contractionRate + r.style.personalRate;
  if (voice >= 1.5) {
    out.push({ key: 'human_voice', params: {}, strength: Math.min(2, voice / 3), sentence: find(SF.PERSONAL) ?? find(SF.CONTRACTION) });
  }
  const specific = r.style.numberRate + r.style.properRate;
  if (r.style.words >= 40 && specific >= 4) {
    out.push({ key: 'human_specific', params: {}, strength: Math.min(2, specific / 8), sentence: find(SF.NUMBERS) ?? find(SF.PROPER) });
  }
  if (r.style.informalRate >= 0.5) {
    out.push({ key: 'human_informal', params: {}, strength: Math.min(2, r.style.informalRate), sentence: find(SF.INFORMAL) });
  }
  return out;
}

/** Rank findings and render them as bullets in the label language (always 2-6). */
export function renderBullets(text: string, findings: Finding[], r: EngineResult, lang: LabelLang): Bullet[] {
  const ranked = [...findings].sort((a, b) => b.strength - a.strength).slice(0, MAX_BULLETS);
  if (ranked.length < MIN_BULLETS) {
    ranked.push({ key: 'length_note', params: { words: r.style.words, sentences: r.sentences.length }, strength: 0, sentence: r.sentences[0] ?? null });
  }
  return ranked.map((f) => ({ text: t(lang, `bullets.${f.key}`, f.params), ...passage(text, f.sentence) }));
}
