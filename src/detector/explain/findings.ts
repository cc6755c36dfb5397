/**
 * Findings: what the bullets say, before ranking and wording. Each finding names its signal (`id`),
 * which way it points (`leaning`), the sentences it counted and the one it cites (the strongest of
 * them), so a bullet's count and example can always be checked against the text.
 */
import type { EngineResult, ScoredSentence } from '../score/engine';
import { COUNT, type SentenceCount } from '../score/counts';
import type { BulletLeaning } from '../types';
import { CONTRACTIONS, PERSONAL } from '../score/lexicons';
import { MIN_TRIGGER_WORDS } from './dimensions';
import { passage } from './passage';

/** A candidate bullet before ranking. */
export interface Finding {
  /** The signal: a dimension id, or a human-side or neutral signal (personal_voice, short_text...). */
  id: string;
  /** The message key in the catalogues' `bullets`. */
  key: string;
  leaning: BulletLeaning;
  params: Record<string, string | number>;
  /** How far beyond its threshold the signal is (ranks the bullets). */
  strength: number;
  /** The sentences the finding counted (its `count` param, when it has one, is their number). */
  sentences: ScoredSentence[];
  /** The passage it cites: one of `sentences`, or a paragraph/passage span when it speaks of one. */
  cite: { start: number; end: number } | null;
  /**
   * How strongly a sentence shows the signal (its example is the strongest sentence; when an earlier
   * bullet quotes that one, the next: bullets.ts); -Infinity for a sentence it must never quote.
   * Without it, the finding may quote its other sentences in text order.
   */
  rank?: (s: ScoredSentence) => number;
}

/** The sentence of `xs` with the highest `rank` (ties: the longer one), or null. */
export function strongest(xs: readonly ScoredSentence[], rank: (s: ScoredSentence) => number): ScoredSentence | null {
  let best: ScoredSentence | null = null;
  for (const s of xs) {
    if (!best || rank(s) > rank(best) || (rank(s) === rank(best) && s.words > best.words)) best = s;
  }
  return best;
}

/**
 * The dimension each human-side signal is the other face of. When the model switched that
 * dimension off for the text's language (it did not separate human from AI text there), the
 * signal is not shown either: the page would list the dimension as not used beside a bullet that
 * uses it (issue 32: "Concrete details ... point toward a human writer" beside "Few concrete
 * details: not used").
 */
export const HUMAN_SIGNAL_DIMENSION: Readonly<Record<string, string>> = {
  varied_rhythm: 'low_burstiness',
  personal_voice: 'formal_register',
  informal_register: 'formal_register',
  concrete_details: 'low_specificity',
};

/** Rate-based human signals need this many words to mean anything. */
const MIN_WORDS_FOR_HUMAN_SIGNALS = 40;
/** Personal voice: first-person words plus real contractions per 100 words. */
const VOICE_RATE = 1.5;
/** Concrete details: numbers plus proper names per 100 words. */
const SPECIFIC_RATE = 4;
/** Informal register: more than one casual marker (one "bueno" or "vale" is not a register), at this rate per 100 words. */
const MIN_INFORMAL_MARKERS = 2;
const INFORMAL_RATE = 0.5;
/** Varied rhythm: sentence-length variation this many times the AI-side threshold. */
const BURSTY_FACTOR = 1.8;

/** First-person words and contractions, both languages (the lexicons the wasm core counts with). */
const VOICE_WORDS = new Set([...PERSONAL.en, ...PERSONAL.es, ...CONTRACTIONS.en]);
/** Words of a passage, lower-cased, apostrophes inside a word kept (’ read as '). */
const WORD = /\p{L}+(?:'\p{L}+)*/gu;

/** Whether a passage shows a personal voice: a first-person word or a contraction, as the bullet says. */
export function showsVoice(example: string): boolean {
  for (const w of example.toLowerCase().replace(/’/g, "'").matchAll(WORD)) if (VOICE_WORDS.has(w[0])) return true;
  return false;
}

/** Human-side findings: evidence that points toward a person, each citing its strongest sentence. */
export function humanFindings(r: EngineResult, text: string, cvThreshold: number): Finding[] {
  const out: Finding[] = [];
  const cv = r.style.sentenceCV;
  if (Number.isFinite(cv) && Number.isFinite(cvThreshold) && cv >= cvThreshold * BURSTY_FACTOR) {
    // The sentence furthest from the median length shows the variation best.
    const lens = r.sentences
      .filter((s) => s.words >= MIN_TRIGGER_WORDS)
      .map((s) => s.words)
      .sort((a, b) => a - b);
    const median = lens[lens.length >> 1] ?? 0;
    const rank = (s: ScoredSentence) => Math.abs(s.words - median);
    const cite = strongest(r.sentences, rank);
    out.push({ ...finding('varied_rhythm', 'human', {}, Math.min(2, cv / cvThreshold - 1), r.sentences, cite), rank });
  }
  if (r.style.words >= MIN_WORDS_FOR_HUMAN_SIGNALS) {
    const voice = r.style.personalRate + r.style.contractionRate;
    if (voice >= VOICE_RATE) {
      // The example must show the voice in the words it quotes (a long sentence is cut; "/-iː/" is not an "I").
      const shown = (s: ScoredSentence) => showsVoice(passage(text, s).example);
      out.push(...countedFinding(r, 'personal_voice', [COUNT.firstPerson, COUNT.contractions], voice / 3, shown));
    }
    const specific = r.style.numberRate + r.style.properRate;
    if (specific >= SPECIFIC_RATE) out.push(...countedFinding(r, 'concrete_details', [COUNT.numbers, COUNT.properNames], specific / 8));
    const markers = r.sentences.reduce((n, s) => n + COUNT.informalMarkers(s), 0);
    if (markers >= MIN_INFORMAL_MARKERS && r.style.informalRate >= INFORMAL_RATE) {
      out.push(...countedFinding(r, 'informal_register', [COUNT.informalMarkers], r.style.informalRate));
    }
  }
  return out;
}

/**
 * A human-side finding over the sentences where any of `features` counts something, citing the one
 * that counts most; none when no sentence does (a rate with nothing to show is not shown).
 */
function countedFinding(
  r: EngineResult,
  id: string,
  features: readonly SentenceCount[],
  strength: number,
  citable: (s: ScoredSentence) => boolean = () => true,
): Finding[] {
  const total = (s: ScoredSentence) => features.reduce((n, read) => n + read(s), 0);
  const sentences = r.sentences.filter((s) => total(s) > 0);
  // A sentence that cannot show the signal is never quoted, even when a stronger one is quoted already.
  const rank = (s: ScoredSentence) => (citable(s) ? total(s) : -Infinity);
  const cite = strongest(
    sentences.filter((s) => citable(s)),
    total,
  );
  return cite ? [{ ...finding(id, 'human', {}, Math.min(2, strength), sentences, cite), rank }] : [];
}

/** A finding whose message key is its id. */
export function finding(
  id: string,
  leaning: BulletLeaning,
  params: Finding['params'],
  strength: number,
  sentences: ScoredSentence[],
  cite: ScoredSentence | { start: number; end: number } | null,
  key = id,
): Finding {
  return { id, key, leaning, params, strength, sentences, cite: cite ? { start: cite.start, end: cite.end } : null };
}
