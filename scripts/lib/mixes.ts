/**
 * Mixed texts with a known boundary, built from labelled rows: the opening sentences of a human
 * text followed by the opening sentences of an AI text of the same language (and the same source
 * where it has both labels, else the same domain), or the other way round, at several AI shares;
 * plus the data's own LLM continuations of human openings (round 3, `mix.human_end_word`).
 * The mixed-authorship decoder is fitted on one set of them and `bun run eval --mixed` measures another.
 */
import type { ModelLang } from '../../src/contract';
import { rng } from './metrics';
import type { Row } from './data';

/** A mixed text and where its AI part is. */
export interface Mix {
  text: string;
  lang: ModelLang;
  /** [start, end) UTF-16 offsets of the AI-written part. */
  ai: [number, number];
  /** Share of the words that are AI-written. */
  aiShare: number;
  kind: 'human_then_ai' | 'ai_then_human' | 'continuation';
}

/** AI shares of the built mixes. */
const SHARES = [0.25, 0.5, 0.75];
/** Mixes get between these many words in all: a student essay, not a tweet or a book. */
const MIX_MIN_WORDS = 120;
const MAX_WORDS = 500;
/** The two parts are joined as paragraphs (a pasted section) or inside one paragraph. */
const JOINERS = ['\n\n', ' '];

const WORD = /\S+/g;

/** The text cut after its sentence that ends nearest to `words` words (at least one sentence). */
function openingOf(text: string, words: number): string {
  const ends = [...text.matchAll(/[.!?]["')\]]?(?=\s|$)/g)].map((m) => m.index! + m[0].length);
  let best = ends[0] ?? text.length;
  let bestGap = Infinity;
  for (const end of ends) {
    const n = (text.slice(0, end).match(WORD) ?? []).length;
    const gap = Math.abs(n - words);
    if (gap < bestGap) [best, bestGap] = [end, gap];
    if (n > words) break;
  }
  return text.slice(0, best).trim();
}

const countWords = (s: string) => (s.match(WORD) ?? []).length;

/** Mixes built from `rows` (deterministic for a seed). */
export function buildMixes(rows: Row[], seed: number, perLang: number): Mix[] {
  const rand = rng(seed);
  const pick = <T>(xs: T[]) => xs[Math.floor(rand() * xs.length)];
  const out: Mix[] = [];
  for (const lang of ['en', 'es'] as const) {
    const usable = rows.filter((r) => r.lang === lang && !r.mix && countWords(r.text) >= 80);
    const humans = usable.filter((r) => r.label === 'human');
    const ais = usable.filter((r) => r.label === 'ai');
    if (!humans.length || !ais.length) continue;
    for (let k = 0; k < perLang; k++) {
      const human = pick(humans);
      const sameSource = ais.filter((r) => r.source === human.source);
      const sameDomain = ais.filter((r) => r.domain === human.domain);
      const ai = pick(sameSource.length ? sameSource : sameDomain.length ? sameDomain : ais);
      const share = SHARES[k % SHARES.length];
      const total = MIX_MIN_WORDS + Math.floor(rand() * (MAX_WORDS - MIX_MIN_WORDS));
      const humanPart = openingOf(human.text, Math.round(total * (1 - share)));
      const aiPart = openingOf(ai.text, Math.round(total * share));
      const joiner = JOINERS[k % JOINERS.length];
      const aiFirst = Math.floor(k / SHARES.length) % 2 === 1;
      const text = aiFirst ? aiPart + joiner + humanPart : humanPart + joiner + aiPart;
      const start = aiFirst ? 0 : humanPart.length + joiner.length;
      const aiWords = countWords(aiPart);
      out.push({
        text,
        lang,
        ai: [start, start + aiPart.length],
        aiShare: aiWords / (aiWords + countWords(humanPart)),
        kind: aiFirst ? 'ai_then_human' : 'human_then_ai',
      });
    }
  }
  return out;
}

/** The data's LLM continuations of human openings, with their boundary. */
export function continuationMixes(rows: Row[]): Mix[] {
  return rows.flatMap((r) => {
    const boundary = r.mix?.human_end_word;
    if (boundary === undefined) return [];
    const words = [...r.text.matchAll(WORD)];
    if (boundary <= 0 || boundary >= words.length) return [];
    const start = words[boundary].index!;
    return [
      {
        text: r.text,
        lang: r.lang,
        ai: [start, r.text.length] as [number, number],
        aiShare: (words.length - boundary) / words.length,
        kind: 'continuation' as const,
      },
    ];
  });
}
