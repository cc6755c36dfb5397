/** Browser-side client of POST /v1/detect: single JSON mode, multipart batch mode, error messages. */
import type { ProfileUse } from '../detector/decide/profile.ts';
import type { DetectResponse } from '../modules/detect/service.ts';
import type { Usage } from '../modules/usage/model.ts';
import { CodedError } from '../contract/errors.ts';
import { STRINGS, tr, type StringKey, type UiLang } from './strings.ts';

/** Path of the detection endpoint, same origin as the page. */
export const DETECT_PATH = '/v1/detect';
/** Path of the key's usage report (not charged). */
export const USAGE_PATH = '/v1/usage';

/** An error answered by the API in its `{ success: false, error: { code, message } }` body. */
export class ApiError extends CodedError {
  override name = 'ApiError';

  constructor(
    status: number,
    code: string,
    message: string,
    readonly headers: Headers,
  ) {
    super(code, status, message);
  }
}

/**
 * The single-mode response fields the page reads: picked from the server's own response type
 * (a type-only import, erased from the bundle), so the page cannot drift from the contract.
 */
export type DetectResult = Pick<
  DetectResponse,
  | 'score'
  | 'verdict'
  | 'verdictKey'
  | 'aiShare'
  | 'segments'
  | 'docTypeLabel'
  | 'totalDimensions'
  | 'activeDimensions'
  | 'ms_cost'
  | 'rate_remaining'
  | 'dimensions'
  | 'textAnnotations'
  | 'bullets'
  | 'sentenceScores'
  | 'measuredError'
> & {
  /** Whether the named calibration profile decided this text, and why not (issue 34); absent without one. */
  calibration?: ProfileUse | null;
};

/** The headers of every request the page makes with a key. */
export function headersFor(key: string, lang: UiLang): Record<string, string> {
  return { 'X-API-Key': key, 'Accept-Language': lang, Accept: 'application/json, application/x-ndjson' };
}

/** The API's error body as an ApiError (the status line when there is no body). */
export async function toApiError(res: Response): Promise<ApiError> {
  let code = `http_${res.status}`;
  let message = ''; // filled in the page's language by describeError when the body has none
  try {
    const body = (await res.json()) as { error?: { code?: string; message?: string } };
    if (body?.error?.code) code = body.error.code;
    if (body?.error?.message) message = body.error.message;
  } catch {
    // Some answers (e.g. a proxy's or Bun's bare 413) carry no JSON body: keep the status line.
  }
  return new ApiError(res.status, code, message, res.headers);
}

/** Posts one text (with the chosen calibration profile's id, if any); resolves with the result and the response headers, or rejects with ApiError. */
export async function detectText(
  key: string,
  lang: UiLang,
  text: string,
  sensitivity: string,
  calibration = '',
): Promise<{ data: DetectResult; headers: Headers }> {
  const res = await fetch(DETECT_PATH, {
    method: 'POST',
    headers: { ...headersFor(key, lang), 'Content-Type': 'application/json' },
    // `calibration` only when a profile is chosen: without one the request is the same as before.
    body: JSON.stringify(calibration ? { text, sensitivity, calibration } : { text, sensitivity }),
  });
  if (!res.ok) throw await toApiError(res);
  return { data: (await res.json()) as DetectResult, headers: res.headers };
}

/** The key's usage report (GET /v1/usage: not charged), or rejects with ApiError. */
export async function fetchUsage(key: string, lang: UiLang): Promise<Usage> {
  const res = await fetch(USAGE_PATH, { headers: headersFor(key, lang) });
  if (!res.ok) throw await toApiError(res);
  return (await res.json()) as Usage;
}

/** A plan's name in the interface language (its id when the page does not know it). */
export function planName(plan: string, lang: UiLang): string {
  const key = `plan_${plan}`;
  return Object.hasOwn(STRINGS[lang], key) ? tr(lang, key as StringKey) : plan;
}

/** One line saying what the key has left: plan, words this month, the reset date and, for trial keys, calls. */
export function usageText(usage: Usage, lang: UiLang): string {
  const n = (value: number) => value.toLocaleString(lang);
  const reset = new Intl.DateTimeFormat(lang, { month: 'long', day: 'numeric', timeZone: 'UTC' }).format(new Date(usage.period.end));
  const line = tr(lang, 'usageLine', {
    plan: planName(usage.plan, lang),
    remaining: n(usage.words.remaining),
    limit: n(usage.words.limit),
    reset,
  });
  return usage.trial ? line + tr(lang, 'usageTrial', { calls: n(usage.trial.callsRemaining) }) : line;
}

/** Posts files as `files[]`; resolves with the streaming response, or rejects with ApiError. */
export async function detectFiles(
  key: string,
  lang: UiLang,
  files: File[],
  sensitivity: string,
  calibration = '',
  signal?: AbortSignal,
): Promise<Response> {
  const form = new FormData();
  for (const f of files) form.append('files[]', f, f.name);
  form.append('sensitivity', sensitivity);
  if (calibration) form.append('calibration', calibration);
  form.append('lang', lang);
  // Each result line brings its reasons (bullets), so one file's can be opened in the table.
  form.append('detail', 'full');
  const res = await fetch(DETECT_PATH, { method: 'POST', headers: headersFor(key, lang), body: form, signal });
  if (!res.ok) throw await toApiError(res);
  return res;
}

/** Yields each JSON object of an NDJSON body as soon as its line has arrived. */
export async function* readNdjson(body: ReadableStream<Uint8Array>): AsyncGenerator<Record<string, unknown>> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let buffered = '';
  for (;;) {
    const { value, done } = await reader.read();
    // stream: true keeps a multi-byte character split across chunks intact.
    buffered += done ? decoder.decode() : decoder.decode(value, { stream: true });
    let nl: number;
    while ((nl = buffered.indexOf('\n')) >= 0) {
      const line = buffered.slice(0, nl).trim();
      buffered = buffered.slice(nl + 1);
      if (line) yield JSON.parse(line) as Record<string, unknown>;
    }
    if (done) break;
  }
  if (buffered.trim()) yield JSON.parse(buffered) as Record<string, unknown>;
}

/** When the quota resets, from X-RateLimit-Reset (epoch seconds) or else Retry-After (seconds). */
export function quotaResetDate(headers: Headers, now = Date.now()): Date | null {
  const reset = Number(headers.get('X-RateLimit-Reset'));
  if (Number.isFinite(reset) && reset > 0) return new Date(reset * 1000);
  const retry = Number(headers.get('Retry-After'));
  if (Number.isFinite(retry) && retry >= 0 && headers.get('Retry-After') !== null) return new Date(now + retry * 1000);
  return null;
}

/** The localized text to show for any failure of a request. */
export function describeError(err: unknown, lang: UiLang): string {
  if (!(err instanceof ApiError)) {
    return err instanceof SyntaxError ? tr(lang, 'errBadStream') : tr(lang, 'errNetwork');
  }
  const fallback = err.status === 413 ? tr(lang, 'errTooLarge') : tr(lang, 'errHttp', { status: err.status });
  const parts = [err.message || fallback];
  if (err.status === 401) parts.push(tr(lang, 'errNeedKey'));
  // rate_limited's Retry-After is a second or two, not a quota reset: its message already says when.
  if (err.status === 429 && err.code !== 'rate_limited') {
    const when = quotaResetDate(err.headers);
    if (when) {
      const fmt = new Intl.DateTimeFormat(lang, {
        year: 'numeric',
        month: 'long',
        day: 'numeric',
        hour: '2-digit',
        minute: '2-digit',
        timeZoneName: 'short',
      });
      parts.push(tr(lang, 'errQuotaReset', { when: fmt.format(when) }));
    }
  }
  return parts.join(' ');
}
