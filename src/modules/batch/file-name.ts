/**
 * The file name a batch echoes back (progress, result and error lines) and sniffs the extension
 * of. A part's name is the client's to choose (issue 23: a 100 KB name was echoed whole; control
 * and bidi characters were echoed too, so a name could rewrite a log line or read backwards in a UI).
 */

/** Longest name echoed, in UTF-16 code units: the common file-system limit (ext4, NTFS: 255). */
export const MAX_FILE_NAME_CHARS = 255;
/** Longest extension kept when a long name is shortened (the extension picks Markdown vs text). */
const MAX_KEPT_EXTENSION = 16;
/**
 * C0 and C1 controls, DEL, and bidi formatting characters (ALM, LRM, RLM, the embeddings and
 * overrides U+202A-202E, the isolates U+2066-2069): dropped. Other format characters stay.
 */
const UNSAFE = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;
const ELLIPSIS = '…';

/** The name to echo for a part: unsafe characters dropped, shortened in the middle to MAX_FILE_NAME_CHARS keeping its extension. */
export function safeFileName(raw: string | undefined, fallback: string): string {
  // Typed string, but Bun's File.name is undefined for `filename=""` (issue 29).
  const name = (raw ?? '').replace(UNSAFE, '').trim();
  if (name === '') return fallback;
  if (name.length <= MAX_FILE_NAME_CHARS) return name;
  const dot = name.lastIndexOf('.');
  const ext = dot > 0 && name.length - dot <= MAX_KEPT_EXTENSION + 1 ? name.slice(dot) : '';
  let head = name.slice(0, MAX_FILE_NAME_CHARS - ELLIPSIS.length - ext.length);
  // Never cut a surrogate pair in two.
  const last = head.charCodeAt(head.length - 1);
  if (last >= 0xd800 && last <= 0xdbff) head = head.slice(0, -1);
  return `${head}${ELLIPSIS}${ext}`;
}
