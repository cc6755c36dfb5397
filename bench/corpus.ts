/**
 * A fixed generated corpus for the benchmark: seeded, so every run and every machine scores the
 * same texts; no dependency on ../shared/data. English prose with a Spanish paragraph now and then,
 * sentence lengths 6-32 words, commas, numbers, apostrophes and hyphens, like real submissions.
 */
import { rng } from '../scripts/lib/metrics';

/** The seed of the corpus: change it and the bench numbers are no longer comparable. */
const SEED = 0x5eed_2026;

const EN_WORDS = (
  'the of and to in is that it for was on with as by this are be from at or an have which not has but ' +
  'were their can more all also its been one would there other some these into only new time than first ' +
  'study results research students teacher school report data analysis model system people years market ' +
  'government policy council city river morning evening letter history music science practice company ' +
  'customers product design quality method approach evidence question answer problem solution approach ' +
  'important significant different particular general local national public private recent common likely ' +
  'suggest describe consider provide develop improve increase reduce remain become include explain argue ' +
  'however although because while whereas therefore moreover instead perhaps usually rarely often clearly'
).split(' ');
const ES_WORDS = (
  'el la de que y en los se del las un por con no una su para es al lo como más pero sus le ya o este ' +
  'estudio resultados escuela profesor alumnos informe ciudad gobierno mercado historia música ciencia ' +
  'importante diferente general público reciente además aunque porque mientras también según niño año'
).split(' ');
const EN_EXTRAS = ["don't", "it's", 'well-known', 'long-term', "students'", 'e.g.', 'Dr.', '2024', '3.5', '17%'];

function sentence(next: () => number, words: readonly string[], extras: readonly string[]): string[] {
  const length = 6 + Math.floor(next() * 27);
  const out: string[] = [];
  for (let i = 0; i < length; i++) {
    let w = next() < 0.04 && extras.length ? extras[Math.floor(next() * extras.length)] : words[Math.floor(next() * words.length)];
    if (i === 0) w = w[0].toUpperCase() + w.slice(1);
    if (i > 2 && i < length - 2 && next() < 0.08) w += ',';
    out.push(w);
  }
  out[out.length - 1] += next() < 0.9 ? '.' : '?';
  return out;
}

/**
 * A text of exactly `wordCount` whitespace-separated tokens in paragraphs of 3-7 sentences
 * (the last sentence is cut to fit). The same `wordCount` and `variant` always give the same text.
 */
export function corpusText(wordCount: number, variant = 0): string {
  const next = rng(SEED + wordCount * 31 + variant);
  const paragraphs: string[] = [];
  let total = 0;
  while (total < wordCount) {
    const spanish = next() < 0.15;
    const sentences: string[] = [];
    const count = 3 + Math.floor(next() * 5);
    for (let s = 0; s < count && total < wordCount; s++) {
      let tokens = spanish ? sentence(next, ES_WORDS, []) : sentence(next, EN_WORDS, EN_EXTRAS);
      if (total + tokens.length > wordCount) tokens = tokens.slice(0, wordCount - total);
      total += tokens.length;
      sentences.push(tokens.join(' '));
    }
    paragraphs.push(sentences.join(' '));
  }
  return paragraphs.join('\n\n');
}
