/** Per-source breakdown of scores: AUROC against the other label's texts of the same language, rates at a threshold. */
import { auroc, rateAbove, tprAtFpr } from './metrics';
import type { Row } from './data';

export interface Scored {
  row: Row;
  p: number;
}

/** One line per source and language: n, AUROC vs the other label in that language, TPR/FPR at `thresholds`. */
export function perSource(scored: Scored[], threshold: (lang: 'en' | 'es') => number): string[] {
  const keys = [...new Set(scored.map((s) => `${s.row.source}|${s.row.lang}`))].sort();
  const lines: string[] = [];
  for (const key of keys) {
    const [source, lang] = key.split('|') as [string, 'en' | 'es'];
    const mine = scored.filter((s) => s.row.source === source && s.row.lang === lang);
    const ai = mine.filter((s) => s.row.label === 'ai').map((s) => s.p);
    const hu = mine.filter((s) => s.row.label === 'human').map((s) => s.p);
    const otherAi = scored.filter((s) => s.row.lang === lang && s.row.label === 'ai').map((s) => s.p);
    const otherHu = scored.filter((s) => s.row.lang === lang && s.row.label === 'human').map((s) => s.p);
    const a = auroc(ai.length ? ai : otherAi, hu.length ? hu : otherHu);
    const t = threshold(lang);
    lines.push(`${source.padEnd(36)} ${lang} ai ${String(ai.length).padStart(5)} hu ${String(hu.length).padStart(5)}  AUROC ${a.toFixed(3)}  TPR ${ai.length ? rateAbove(ai, t).toFixed(3) : '  -  '}  FPR ${hu.length ? rateAbove(hu, t).toFixed(3) : '  -  '}`);
  }
  return lines;
}

export { tprAtFpr };
