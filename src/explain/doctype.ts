/**
 * Document type from surface cues: a small fixed set, decided by keyword and layout evidence.
 * Heuristic on purpose (no topic model): it explains context, it does not change the score.
 */
import type { EngineResult } from '../engine/engine';

export const DOC_TYPES = [
  'essay', 'academic', 'news', 'story', 'email', 'review', 'social_post', 'qa_answer', 'technical',
  'reference', 'list_notes', 'other',
] as const;
export type DocType = (typeof DOC_TYPES)[number];

type Cue = [DocType, RegExp, number];

/** Keyword cues (English and Spanish) with their weight per match (capped per cue). */
const CUES: Cue[] = [
  ['email', /^[^\S\n]*(dear|hi|hello|hey|estimad[oa]s?|querid[oa]s?|hola)\b[^\n]{0,40}[,:]/im, 4],
  ['email', /\b(best regards|kind regards|sincerely|yours truly|cheers|atentamente|saludos( cordiales)?|un abrazo|cordialmente)\b/i, 3],
  ['academic', /\b(this (paper|study|article|work)|we (propose|present|show|introduce|investigate|find)|our (results|approach|method|model)|et al\.|in this (paper|study)|methodology|hypothesis|empirical|dataset|participants|statistically|este (estudio|artículo|trabajo)|proponemos|resultados muestran)\b/gi, 1.5],
  ['news', /\b(said|told (reporters|the)|according to|spokesman|spokeswoman|officials?|minister|government|police|on (monday|tuesday|wednesday|thursday|friday|saturday|sunday)|según|afirmó|declaró|señaló|gobierno|ministro|policía|presidente)\b/gi, 0.8],
  ['story', /(^|\n)[^\S\n]*["“—«]|\b(once upon|suddenly|whispered|shouted|she said|he said|smiled|eyes|había una vez|de repente|susurró|gritó|dijo ella|dijo él|sonrió)\b/gi, 0.9],
  ['review', /\b(i (bought|ordered|purchased|recommend)|(this|the) product|stars?|worth the (money|price)|quality|price|delivery|arrived|compré|producto|calidad|precio|recomiendo|llegó|envío|estrellas|gameplay|graphics)\b/gi, 1],
  ['social_post', /(^|\s)[#@][\p{L}\p{N}_]+|https?:\/\/|\b(lol|omg|rt)\b/giu, 1.5],
  ['qa_answer', /\b(to answer your question|you (can|should|could|might) (try|use|consider)|here are (some|a few)|if you want|i would (suggest|recommend)|in short|the short answer|puedes|te recomiendo|aquí tienes)\b/gi, 1.2],
  ['technical', /\b(install|click|configure|settings|function|command|step \d|select|download|server|file|browser|instala|haz clic|configura|selecciona|archivo|paso \d)\b/gi, 0.8],
  ['reference', /\b(is an? [a-z]+ (located|founded|born|known)|was (founded|established|born)|is located in|(century|population|capital|established in)|es una? [a-záéíóú]+ (ubicad[oa]|fundad[oa])|fue fundad[oa]|se encuentra en|siglo|población)\b/gi, 1.2],
  ['essay', /\b(in my opinion|i (think|believe|agree|disagree)|in conclusion|to sum up|on the other hand|firstly|secondly|nowadays|society|students?|en mi opinión|creo que|en conclusión|por otro lado|hoy en día|sociedad|estudiantes)\b/gi, 1],
];

const CUE_CAP = 6;
/** Cues are read from the start of the text only: the type shows early, and the cost stays flat for long texts. */
const CUE_WINDOW_CHARS = 4000;
/** Evidence needed before a type beats "other" / the length-based defaults. */
const MIN_EVIDENCE = 2;

/** Decide the document type of a text from its cues and its shape. */
export function detectDocType(text: string, r: EngineResult): DocType {
  const lines = Math.max(1, r.paragraphs.length);
  const listShare = r.markdown.listItems / lines;
  if (r.markdown.listItems >= 4 && listShare >= 0.6) return 'list_notes';
  const score = new Map<DocType, number>();
  const head = text.length > CUE_WINDOW_CHARS ? text.slice(0, CUE_WINDOW_CHARS) : text;
  for (const [type, re, weight] of CUES) {
    const n = re.global ? Math.min(CUE_CAP, (head.match(re) ?? []).length) : re.test(head) ? 1 : 0;
    if (n) score.set(type, (score.get(type) ?? 0) + n * weight);
  }
  if (r.markdown.headings + r.markdown.listItems + r.markdown.bold >= 2) score.set('qa_answer', (score.get('qa_answer') ?? 0) + 2);
  if (r.style.words < 60) score.set('social_post', (score.get('social_post') ?? 0) + 1);
  let best: DocType = 'other';
  let bestScore = MIN_EVIDENCE - 1e-9;
  for (const [type, s] of score) if (s > bestScore) [best, bestScore] = [type, s];
  if (best === 'other' && r.style.words >= 150 && r.paragraphs.length >= 2) return 'essay';
  return best;
}
