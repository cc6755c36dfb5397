/** `detect --jsonl`: JSON lines `{"text": ...}` in, one JSON line per input line out, in order, streaming. */
import type { CalibrationProfile, Detector, MeasuredErrorView, ProfileUse, SentenceScore } from '../detector/types';
import { type LabelLang, type Sensitivity, TextTooLongError } from '../contract';
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
  /** How often this mode flagged human texts of this kind (the API's `measuredError`): the profile's texts where it applied. */
  measuredError: MeasuredErrorView;
  /** With `--calibration`: the profile and whether its threshold decided this line (the API's `calibration`). */
  calibration?: ProfileUse;
  /** The model that scored the line (src/model-version.ts), as in the API's answers. */
  modelVersion: string;
  /** Each sentence's AI score, as in the API's answers; with `--sentences` only. */
  sentenceScores?: SentenceScore[];
}

/** One input line that could not be scored: the API's code and message for the same body. */
export interface JsonlError {
  line: number;
  id?: unknown;
  error: {
    code: 'invalid_json' | 'text_required' | 'invalid_sensitivity' | 'text_too_short' | 'text_too_long' | 'too_many_sentences';
    message: string;
  };
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
  /** Decide with this calibration profile (the `--calibration FILE` flag). */
  profile?: CalibrationProfile | null;
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
  o: Pick<JsonlOptions, 'detector' | 'modelVersion' | 'sensitivity' | 'lang' | 'sentences' | 'profile'>,
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
    const a = o.detector.analyze(input.text, { sensitivity, labelLang: o.lang, words, profile: o.profile, modelVersion: o.modelVersion });
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
      ...(a.calibration ? { calibration: a.calibration } : {}),
      modelVersion: o.modelVersion,
      ...(o.sentences ? { sentenceScores: a.sentenceScores } : {}),
    };
  } catch (caught) {
    // The engine's own length check (NFKC lengthens some characters) answers as the API does.
    const error = caught instanceof TextTooLongError ? new ApiError('text_too_long', caught.params) : caught;
    if (!(error instanceof ApiError)) throw error;
    const code = error.code as JsonlError['error']['code'];
    return { line, ...withId, error: { code, message: t(o.lang, `errors.${code}`, error.params) } };
  }
}

/**
 * The lines of a byte stream, read chunk by chunk (never the whole stream): for each chunk, the
 * lines it completes, split on `\n` with a trailing `\r` dropped; a last line without its newline
 * comes last. `detect --jsonl` and `calibrate` read stdin with it.
 */
export async function* lineChunks(input: AsyncIterable<Uint8Array>): AsyncGenerator<string[]> {
  const decoder = new TextDecoder('utf-8');
  let pending = '';
  const strip = (raw: string) => (raw.endsWith('\r') ? raw.slice(0, -1) : raw);
  for await (const bytes of input) {
    pending += decoder.decode(bytes, { stream: true });
    const lines: string[] = [];
    let start = 0;
    for (let nl = pending.indexOf('\n'); nl !== -1; nl = pending.indexOf('\n', start)) {
      lines.push(strip(pending.slice(start, nl)));
      start = nl + 1;
    }
    pending = pending.slice(start);
    yield lines;
  }
  pending += decoder.decode();
  // A last line without its newline is still an input line.
  if (pending !== '') yield [strip(pending)];
}

/**
 * Writes one JSON line per non-blank input line of `input` (lineChunks), in order; each carries its
 * input `line` number. Output is handed on after every input chunk. Returns the number of error lines.
 */
export async function runJsonl(o: JsonlOptions): Promise<number> {
  let out = '';
  let line = 0;
  let errors = 0;
  const flush = async () => {
    if (out === '') return;
    const chunk = out;
    out = '';
    await o.write(chunk);
  };
  for await (const lines of lineChunks(o.input)) {
    for (const raw of lines) {
      line++;
      const result = scoreJsonLine(raw, line, o);
      if (result === null) continue;
      if ('error' in result) errors++;
      out += `${JSON.stringify(result)}\n`;
      if (out.length >= OUT_BUFFER_CHARS) await flush();
    }
    await flush();
  }
  return errors;
}
