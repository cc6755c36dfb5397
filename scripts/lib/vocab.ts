/**
 * The masking vocabulary: words kept as themselves by the scorer; every other word becomes a shape
 * token (suffix + length). Only words in common use across most sources qualify, so a topic word
 * of one source ("beer" in a brewing forum, "hotel" in one set of AI reviews) cannot become a
 * label cue. Style-lexicon words are added on purpose: they are style, not topic.
 */
import type { ModelLang } from '../../src/contract';
import { styleWords } from '../../src/detector/score/lexicons';
import type { Row } from './data';

const WORD = /[\p{L}\p{N}]+(?:['’-][\p{L}\p{N}]+)*/gu;
/** A word must appear in at least this share of the documents of a source to count as used there... */
const MIN_SOURCE_DOC_SHARE = 0.01;
/** ...in at least this share of the language's sources. */
const MIN_SOURCE_SHARE = 0.6;

function wordsOf(text: string): Set<string> {
  const out = new Set<string>();
  for (const m of text.toLowerCase().replace(/’/g, "'").matchAll(WORD)) if (!/^\p{N}/u.test(m[0])) out.add(m[0]);
  return out;
}

/** Top `k` words of `lang` by document frequency among words used across most sources (ties alphabetical). */
export function topHumanWords(rows: Row[], lang: ModelLang, k: number): string[] {
  const bySource = new Map<string, { docs: number; df: Map<string, number> }>();
  const total = new Map<string, number>();
  for (const r of rows) {
    if (r.lang !== lang) continue;
    const src = bySource.get(r.source) ?? { docs: 0, df: new Map() };
    bySource.set(r.source, src);
    src.docs++;
    for (const w of wordsOf(r.text)) {
      src.df.set(w, (src.df.get(w) ?? 0) + 1);
      if (r.label === 'human') total.set(w, (total.get(w) ?? 0) + 1);
    }
  }
  const sources = [...bySource.values()];
  const spread = (w: string) => sources.filter((s) => (s.df.get(w) ?? 0) >= MIN_SOURCE_DOC_SHARE * s.docs).length / sources.length;
  return [...total.entries()]
    .filter(([w]) => spread(w) >= MIN_SOURCE_SHARE)
    .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
    .slice(0, k)
    .map(([w]) => w);
}

/** The vocabulary the scorer keeps unmasked. */
export function buildVocab(rows: Row[], k: number, withStyle: boolean): { en: string[]; es: string[] } {
  const make = (lang: ModelLang) => {
    const set = new Set(topHumanWords(rows, lang, k));
    if (withStyle) for (const w of styleWords(lang)) set.add(w);
    return [...set].sort();
  };
  return { en: make('en'), es: make('es') };
}
