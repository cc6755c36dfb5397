/**
 * Input lines read with bounded memory (issue 44 item 7): `calibrate` read a 256 MB JSONL line whole
 * (2.5 GB RSS, 20-32 s: the pending string was searched from its start for every chunk) and only
 * then refused its text. Here a line past `maxChars` characters is refused while it is read: what
 * came of it is dropped at once, the rest is skipped up to its newline, and only its length is kept.
 */

/** One input line: its text, or, past the bound, how many characters it had (not kept). */
export type BoundedLine = { text: string } | { tooLong: number };

/**
 * The characters a JSON line may have when its text may have `maxTextChars`: every character
 * escaped as `\uXXXX` is 6, and a line's other fields (a label, an id) get LINE_OVERHEAD_CHARS.
 * Never refuses a line whose text a detection would take.
 */
export function maxLineChars(maxTextChars: number): number {
  return 6 * maxTextChars + LINE_OVERHEAD_CHARS;
}

/** Room for a line's fields besides its text. */
const LINE_OVERHEAD_CHARS = 4096;

/**
 * The lines of `input` (UTF-8; `\n` or `\r\n`), a chunk's complete lines at a time; a last line
 * without its newline is a line too. A line longer than `maxChars` comes as `{ tooLong }`.
 */
export async function* boundedLines(input: AsyncIterable<Uint8Array>, maxChars: number): AsyncGenerator<BoundedLine[]> {
  const decoder = new TextDecoder('utf-8');
  let parts: string[] = [];
  let length = 0;
  let over = false;
  const take = (piece: string) => {
    length += piece.length;
    if (over) return;
    if (length > maxChars) {
      // Past the bound: drop what was kept of the line, and keep only its length from now on.
      over = true;
      parts = [];
    } else if (piece !== '') parts.push(piece);
  };
  const end = (): BoundedLine => {
    let line: BoundedLine;
    if (over) line = { tooLong: length };
    else {
      const text = parts.join('');
      line = { text: text.endsWith('\r') ? text.slice(0, -1) : text };
    }
    parts = [];
    length = 0;
    over = false;
    return line;
  };
  const chunkLines = (chunk: string) => {
    const lines: BoundedLine[] = [];
    let start = 0;
    for (let nl = chunk.indexOf('\n'); nl !== -1; nl = chunk.indexOf('\n', start)) {
      take(chunk.slice(start, nl));
      lines.push(end());
      start = nl + 1;
    }
    take(chunk.slice(start));
    return lines;
  };
  for await (const bytes of input) yield chunkLines(decoder.decode(bytes, { stream: true }));
  const last = chunkLines(decoder.decode());
  if (length > 0 || over) last.push(end());
  if (last.length) yield last;
}
