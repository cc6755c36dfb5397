/** Benchmark documents: PDFs and DOCX files built from the fixed corpus with the test fixture writers. */
import { makeDocx, makePdf } from '../test/fixtures/make';
import { corpusText } from './corpus';
import type { WrkRequest } from './wrk';

/** Words per PDF text line: short enough to fit the fixture writer's page width (it does not wrap). */
const WORDS_PER_LINE = 10;
/** Text lines per PDF page (about a page of 11 pt prose). */
const LINES_PER_PAGE = 30;

/** A PDF of `pages` pages of about 300 words each. */
export function benchPdf(pages: number, variant = 0): Uint8Array<ArrayBuffer> {
  const words = corpusText(pages * WORDS_PER_LINE * LINES_PER_PAGE, 1000 + variant).split(/\s+/);
  const lines: string[] = [];
  for (let i = 0; i < words.length; i += WORDS_PER_LINE) lines.push(words.slice(i, i + WORDS_PER_LINE).join(' '));
  const pageTexts = Array.from({ length: pages }, (_, p) => lines.slice(p * LINES_PER_PAGE, (p + 1) * LINES_PER_PAGE).join('\n'));
  return makePdf(pageTexts) as Uint8Array<ArrayBuffer>;
}

/** A DOCX of `words` words in paragraphs. */
export async function benchDocx(words: number, variant = 0): Promise<Uint8Array<ArrayBuffer>> {
  return (await makeDocx(corpusText(words, 2000 + variant).split('\n\n'))) as Uint8Array<ArrayBuffer>;
}

/** JSON with every non-ASCII character \u-escaped (wrk's Lua body must be plain ASCII). */
export function asciiJson(value: unknown): string {
  return JSON.stringify(value).replace(/[\u007f-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** Distinct 500-word texts the HTTP load sends in turn ("500-word texts": not one string, cached). */
export const HTTP_TEXT_VARIANTS = 8;

/** The single-mode JSON bodies of the HTTP benchmarks: HTTP_TEXT_VARIANTS texts of `words` words. */
export function detectBodies(words = 500): string[] {
  return Array.from({ length: HTTP_TEXT_VARIANTS }, (_, v) => asciiJson({ text: corpusText(words, v) }));
}

/**
 * The detect requests of a load: the bodies above and `keys`, both in turn (as many requests as
 * the longer list). One enterprise key (15M words a month) lasts a 4 s run up to ~7,500 req/s of
 * 500 words; two processes on a quiet 2-core machine get close to that, so a run uses several keys.
 */
export function detectRequests(keys: readonly string[]): WrkRequest[] {
  const bodies = detectBodies();
  return Array.from({ length: Math.max(bodies.length, keys.length) }, (_, i) => ({
    body: bodies[i % bodies.length],
    headers: { 'content-type': 'application/json', 'x-api-key': keys[i % keys.length] },
  }));
}
