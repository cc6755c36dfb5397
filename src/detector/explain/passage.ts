/** The example passage a bullet quotes: a span of the text, cut at a word boundary when long. */

/** Longest example passage; longer sentences are cut at a word boundary. */
export const MAX_EXAMPLE_CHARS = 200;
/** Characters a cut example never ends on (whitespace, and punctuation that continues a phrase). */
const TRAILING = /[\s,;:([{"'“‘«\-–—]/;

/** A passage of the text (at most MAX_EXAMPLE_CHARS) with offsets: text.slice(start, end) === example. */
export function passage(text: string, span: { start: number; end: number } | null): { example: string; start: number; end: number } {
  if (!span) {
    const end = Math.min(text.length, MAX_EXAMPLE_CHARS);
    return { example: text.slice(0, end), start: 0, end };
  }
  let end = span.end;
  if (end - span.start > MAX_EXAMPLE_CHARS) {
    const cut = text.lastIndexOf(' ', span.start + MAX_EXAMPLE_CHARS);
    end = cut > span.start ? cut : span.start + MAX_EXAMPLE_CHARS;
    // Not on a comma or a dash: the page writes "…" after a cut example, and ",…" reads as a slip.
    while (end > span.start + 1 && TRAILING.test(text[end - 1])) end--;
    const c = text.charCodeAt(end - 1);
    if (c >= 0xd800 && c <= 0xdbff) end--; // never split a surrogate pair
  }
  return { example: text.slice(span.start, end), start: span.start, end };
}
