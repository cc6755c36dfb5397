/** The masking vocabulary: the most frequent words of human writing per language, plus style words. */
import { styleWords } from '../../src/engine/lexicons';
import type { Row } from './data';

const WORD = /[\p{L}\p{N}]+(?:['’-][\p{L}\p{N}]+)*/gu;

/** Top `k` words (lower-cased) of the human rows of `lang`, ties broken alphabetically. */
export function topHumanWords(rows: Row[], lang: 'en' | 'es', k: number): string[] {
  const counts = new Map<string, number>();
  for (const r of rows) {
    if (r.label !== 'human' || r.lang !== lang) continue;
    for (const m of r.text.toLowerCase().replace(/’/g, "'").matchAll(WORD)) {
      const w = m[0];
      if (/^\p{N}/u.test(w)) continue;
      counts.set(w, (counts.get(w) ?? 0) + 1);
    }
  }
  return [...counts.entries()].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).slice(0, k).map(([w]) => w);
}

/** The vocabulary the scorer keeps unmasked. */
export function buildVocab(rows: Row[], k: number, withStyle: boolean): { en: string[]; es: string[] } {
  const make = (lang: 'en' | 'es') => {
    const set = new Set(topHumanWords(rows, lang, k));
    if (withStyle) for (const w of styleWords(lang)) set.add(w);
    return [...set].sort();
  };
  return { en: make('en'), es: make('es') };
}
