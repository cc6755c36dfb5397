/** `detect --jsonl`: JSON lines `{"text": ...}` in, one JSON line per input line out, in order, streaming. */
import type { Detector, MeasuredErrorView, SentenceScore } from '../detector/types';
import type { LabelLang, Sensitivity } from '../contract';
import { ApiError } from '../http/errors';
import { t } from '../i18n';
import { validateDetectBody } from '../modules/detect/model';
import { checkScorable } from '../modules/detect/service';

/** Output is handed to the writer once this many characters are buffered (and after every input chunk). */
export const OUT_BUFFER_CHARS = 64 * 1024;

/** One scored input line. */
export interface JsonlResult {
  line: number;
  id?: unknown;
  score: number;
  probability: number;
  verdict: string;
  ai: boolean;
  lang: string;
  words: number;
  /** Words in AI passages over all words (mixed authorship). */
  aiShare: number;
  /** How often this mode flagged held-out human texts of this kind (the API's `measuredError`). */
  measuredError: MeasuredErrorView;
  /** The model that scored the line (src/model-version.ts), as in the API's answers. */
  modelVersion: string;
  /** Each sentence's AI score, as in the API's answers; with `--sentences` only. */
  sentenceScores?: SentenceScore[];
}

/** One input line that could not be scored: the API's code and message for the same body. */
export interface JsonlError {
  line: number;
  id?: unknown;
  error: { code: 'invalid_json' | 'text_required' | 'invalid_sensitivity' | 'text_too_short'; message: string };
}

/** What the JSONL mode needs. */
export interface JsonlOptions {
  detector: Detector;
  /** The loaded model's version, put in every scored line. */
  modelVersion: string;
  sensitivity: Sensitivity;
  lang: LabelLang;
  /** Add `sentenceScores` to each scored line (the `--sentences` flag). */
  sentences?: boolean;
  input: AsyncIterable<Uint8Array>;
  write(chunk: string): void | Promise<void>;
}

/**
 * Scores one input line (without its newline) as POST /api/detect would a body: what the API
 * refuses (no string `text`, a bad `sensitivity`, fewer than MIN_WORDS words) gets the API's
 * error code and message. A line's own `sensitivity` wins over --sensitivity. Blank lines give
 * null (skipped). Never throws.
 */
export function scoreJsonLine(
  raw: string,
  line: number,
  o: Pick<JsonlOptions, 'detector' | 'modelVersion' | 'sensitivity' | 'lang' | 'sentences'>,
): JsonlResult | JsonlError | null {
  const source = raw.charCodeAt(0) === 0xfeff ? raw.slice(1) : raw;
  if (source.trim() === '') return null;
  let value: unknown;
  try {
    value = JSON.parse(source);
  } catch {
    return { line, error: { code: 'invalid_json', message: t(o.lang, 'errors.invalid_json') } };
  }
  const record = value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
  const withId = record.id === undefined ? {} : { id: record.id };
  try {
    const input = validateDetectBody(value);
    const sensitivity = record.sensitivity == null ? o.sensitivity : input.sensitivity;
    const words = o.detector.countWords(input.text);
    checkScorable(input.text, words);
    const a = o.detector.analyze(input.text, { sensitivity, labelLang: o.lang, words });
    return {
      line,
      ...withId,
      score: a.score,
      probability: a.probability,
      verdict: a.verdictKey,
      ai: a.ai,
      lang: a.language,
      words: a.words,
      aiShare: a.aiShare,
      measuredError: a.measuredError,
      modelVersion: o.modelVersion,
      ...(o.sentences ? { sentenceScores: a.sentenceScores } : {}),
    };
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    const code = error.code as JsonlError['error']['code'];
    return { line, ...withId, error: { code, message: t(o.lang, `errors.${code}`, error.params) } };
  }
}

/**
 * Reads `input` chunk by chunk (never the whole stream), splits it on `\n` (a trailing `\r` is
 * dropped), and writes one JSON line per non-blank input line, in order; each carries its input
 * `line` number. Returns the number of error lines.
 */
export async function runJsonl(o: JsonlOptions): Promise<number> {
  const decoder = new TextDecoder('utf-8');
  let pending = '';
  let out = '';
  let line = 0;
  let errors = 0;
  const emit = (raw: string) => {
    line++;
    const result = scoreJsonLine(raw.endsWith('\r') ? raw.slice(0, -1) : raw, line, o);
    if (result === null) return;
    if ('error' in result) errors++;
    out += `${JSON.stringify(result)}\n`;
  };
  const flush = async () => {
    if (out === '') return;
    const chunk = out;
    out = '';
    await o.write(chunk);
  };
  for await (const bytes of o.input) {
    pending += decoder.decode(bytes, { stream: true });
    let start = 0;
    for (let nl = pending.indexOf('\n'); nl !== -1; nl = pending.indexOf('\n', start)) {
      emit(pending.slice(start, nl));
      start = nl + 1;
      if (out.length >= OUT_BUFFER_CHARS) await flush();
    }
    pending = pending.slice(start);
    await flush();
  }
  pending += decoder.decode();
  // A last line without its newline is still an input line.
  if (pending !== '') emit(pending);
  await flush();
  return errors;
}
