/**
 * A few cheap counts of a text's surface form (issue 43 item 4): what a profile's maker compares between
 * the AI examples and the human texts to warn when they differ mainly in form (an archive exported with
 * tokenised punctuation, examples all in Markdown or all opening "Certainly!"). Computed where a
 * profile's evidence is made (detector.profileSample) and dropped once the profile is made: never kept.
 */

/** What a profile's maker reads of a text's form. */
export interface TextForm {
  /** Punctuation split off as a tokenizer leaves it: `he' s`, `don' t`, `n't` alone, ` ,` / ` .` before a space (2+ times). */
  tokenised: boolean;
  /** Line breaks inside paragraphs (hard-wrapped lines): more single line breaks than paragraphs. */
  wrapped: boolean;
  /** Markdown: a heading, list items, bold or code marks. */
  markdown: boolean;
  /** Curly quotes or apostrophes (“ ” ‘ ’) rather than straight ones. */
  curly: boolean;
  /** Casing out of the ordinary: no capital letter at all, or most letters capitals. */
  casing: boolean;
  /** The first word, lower case, letters only (at most 24): an opening many examples share ("certainly"). */
  opening: string;
  /** The last line when it is short (a signature, a sign-off: at most 6 words), lower case, letters and spaces only (at most 40); else "". */
  closing: string;
}

/** Tokenised punctuation: a clitic split from its word (`he' s`, `don' t`, `do n't`) or a mark after a space. */
const TOKENISED = /\w' (?:s|t|re|ve|ll|d|m)\b|\s(?:n't|'s|'re|'ve|'ll|'d|'m)\b|\w [,.;:!?](?=\s|$)/g;
/** How many tokenised marks make a text tokenised (one can be a typo). */
const MIN_TOKENISED = 2;
const MARKDOWN = /^\s{0,3}(?:#{1,6}\s|[-*+]\s|\d+\.\s|>\s)|\*\*[^*\n]+\*\*|`[^`\n]+`/m;
const CURLY = /[\u201c\u201d\u2018\u2019]/;
/** Casing: a text with at least this many letters and no capital, or this share of capitals, is out of the ordinary. */
const CASING_MIN_LETTERS = 40;
const CASING_CAPS_SHARE = 0.5;
/** A closing line has at most this many words. */
const CLOSING_MAX_WORDS = 6;

/** The text's form (the text as given, before normalisation). */
export function textForm(text: string): TextForm {
  const trimmed = text.trim();
  const paragraphs = trimmed.split(/\n\s*\n/).filter((p) => p.trim()).length;
  const singleBreaks = (trimmed.match(/[^\n]\n(?=[^\n])/g) ?? []).length;
  const letters = trimmed.match(/\p{L}/gu)?.length ?? 0;
  const capitals = trimmed.match(/\p{Lu}/gu)?.length ?? 0;
  const lines = trimmed.split('\n').filter((l) => l.trim());
  const last = lines.length > 1 ? lines[lines.length - 1].trim() : '';
  const lastWords = last.split(/\s+/).filter(Boolean).length;
  return {
    tokenised: (trimmed.match(TOKENISED) ?? []).length >= MIN_TOKENISED,
    wrapped: singleBreaks > paragraphs,
    markdown: MARKDOWN.test(trimmed),
    curly: CURLY.test(trimmed),
    casing: letters >= CASING_MIN_LETTERS && (capitals === 0 || capitals / letters >= CASING_CAPS_SHARE),
    opening: (trimmed.match(/^[^\p{L}]*(\p{L}+)/u)?.[1] ?? '').toLowerCase().slice(0, 24),
    closing:
      lastWords > 0 && lastWords <= CLOSING_MAX_WORDS
        ? last
            .toLowerCase()
            .replace(/[^\p{L}\s]/gu, '')
            .replace(/\s+/g, ' ')
            .trim()
            .slice(0, 40)
        : '',
  };
}
