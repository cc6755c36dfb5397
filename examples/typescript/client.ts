/**
 * A TypeScript client of the AI text detector on the types generated from its OpenAPI document
 * (./api.ts, `bun run examples:types`): scores a text, scores a file (POST /v1/detect/batch), and,
 * given a folder of texts known to be human-written (and optionally one of your AI examples, which
 * adapt the profile to your generators), makes a calibration profile from them, says what it learned,
 * scores the text with it (the adapted score and the model's own), lists the key's profiles and deletes
 * it; then reads the key's usage.
 *
 *   DETECTOR_URL=http://localhost:3000 DETECTOR_KEY=ak_... bun examples/typescript/client.ts essay.pdf [known-human-folder [ai-examples-folder]]
 *
 * Prints one JSON object per step on stdout. Needs only fetch, FormData and Blob (run here with Bun).
 */
import type { components, paths } from './api';

type DetectResponse = paths['/v1/detect']['post']['responses'][200]['content']['application/json'];
type BatchLine = components['schemas']['BatchLine'];
type ResultLine = components['schemas']['BatchResultLine'];
type Usage = paths['/v1/usage']['get']['responses'][200]['content']['application/json'];
type Calibration = components['schemas']['Calibration'];
type CalibrationList = components['schemas']['CalibrationList'];
type Sensitivity = 'conservative' | 'balanced' | 'aggressive';
/** A file to upload: its name and bytes. */
type Upload = { name: string; bytes: Uint8Array<ArrayBuffer> };
type ErrorBody = components['schemas']['ErrorBody'];

/** An answer with the API's error body: branch on `code`, show `message`. */
class DetectorError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(`${status} ${code}: ${message}`);
  }
}

/** Answers worth retrying with the same Idempotency-Key: the store was busy, or the first try still runs. */
const RETRYABLE = new Set([409, 503]);

/** 409 and 503; and a 429 only with Retry-After: rate_limited (seconds). A quota 429 has none: the month is used up. */
function retryable(response: Response): boolean {
  return RETRYABLE.has(response.status) || (response.status === 429 && response.headers.has('retry-after'));
}

/** A small client: one base URL and one key (sent as a bearer token; X-API-Key works as well). */
export class DetectorClient {
  constructor(
    readonly baseUrl: string,
    readonly key: string,
  ) {}

  private async request(path: string, init: RequestInit = {}, attempts = 3): Promise<Response> {
    const headers = new Headers(init.headers);
    headers.set('authorization', `Bearer ${this.key}`);
    for (let attempt = 1; ; attempt++) {
      let response: Response | null = null;
      try {
        response = await fetch(new URL(path, this.baseUrl), { ...init, headers });
      } catch (error) {
        // A network failure: safe to retry only because the request carries an Idempotency-Key.
        if (attempt >= attempts || !headers.has('idempotency-key')) throw error;
      }
      if (response?.ok) return response;
      if (response && !(retryable(response) && attempt < attempts)) {
        const body = (await response.json()) as ErrorBody;
        throw new DetectorError(response.status, body.error.code, body.error.message);
      }
      await new Promise((resolve) => setTimeout(resolve, Number(response?.headers.get('retry-after') ?? 1) * 1000));
    }
  }

  /**
   * Scores one text; retried safely (charged once) thanks to the Idempotency-Key. With `calibration`
   * (a profile id of this key), the verdict uses the profile's thresholds where it covers the text.
   */
  async detectText(text: string, sensitivity: Sensitivity = 'conservative', calibration?: string): Promise<DetectResponse> {
    const response = await this.request('/v1/detect', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'idempotency-key': crypto.randomUUID() },
      body: JSON.stringify({ text, sensitivity, ...(calibration ? { calibration } : {}) }),
    });
    return (await response.json()) as DetectResponse;
  }

  /**
   * Makes a calibration profile from known-human files (one text each, 50+ per language) and, optionally,
   * AI examples of your generators (50+ per language to adapt it), charged like detecting them; files it cannot use are named in `skippedFiles`. Sent once, never retried: the
   * route takes no Idempotency-Key, so a retry could make a second profile.
   */
  async calibrate(name: string, files: Upload[], aiFiles: Upload[] = []): Promise<Calibration> {
    const form = new FormData();
    form.append('name', name);
    for (const file of files) form.append('files[]', new Blob([file.bytes]), file.name);
    // AI examples (50+ per language) adapt the profile to your generators: charged like the human files.
    for (const file of aiFiles) form.append('aiFiles[]', new Blob([file.bytes]), file.name);
    return (await (await this.request('/v1/calibrations', { method: 'POST', body: form }, 1)).json()) as Calibration;
  }

  /** The key's calibration profiles, newest first (not charged). */
  async calibrations(): Promise<CalibrationList> {
    return (await (await this.request('/v1/calibrations')).json()) as CalibrationList;
  }

  /** Deletes a profile of the key (204); detections naming it then get 404 calibration_not_found. */
  async deleteCalibration(id: string): Promise<void> {
    await this.request(`/v1/calibrations/${encodeURIComponent(id)}`, { method: 'DELETE' });
  }

  /** Scores files (TXT, MD, DOCX, PDF), yielding each NDJSON line as it arrives. */
  async *detectFiles(files: Upload[], detail: boolean = false): AsyncGenerator<BatchLine> {
    const form = new FormData();
    for (const file of files) form.append('files[]', new Blob([file.bytes]), file.name);
    if (detail) form.append('detail', 'full');
    // Batch has its own operation: one answer type (NDJSON) for generated clients.
    const response = await this.request('/v1/detect/batch', {
      method: 'POST',
      body: form,
      headers: { 'idempotency-key': crypto.randomUUID() },
    });
    const reader = response.body!.getReader();
    const decoder = new TextDecoder();
    let buffered = '';
    for (;;) {
      const { done, value } = await reader.read();
      buffered += decoder.decode(value, { stream: !done });
      let newline = buffered.indexOf('\n');
      while (newline >= 0) {
        const line = buffered.slice(0, newline).trim();
        buffered = buffered.slice(newline + 1);
        if (line) yield JSON.parse(line) as BatchLine;
        newline = buffered.indexOf('\n');
      }
      if (done) return;
    }
  }

  /** The key's plan, words used and left this month, calls, trial calls left (not charged). */
  async usage(): Promise<Usage> {
    return (await (await this.request('/v1/usage')).json()) as Usage;
  }
}

const SAMPLE =
  'In today’s fast-paced world, it is important to note that technology plays a crucial role in our daily lives. ' +
  'Moreover, it offers numerous benefits that enhance productivity and foster innovation across many industries. ' +
  'Furthermore, by leveraging these tools, organizations can streamline their operations and unlock new opportunities.';

async function main(): Promise<void> {
  const baseUrl = process.env.DETECTOR_URL ?? 'http://localhost:3000';
  const key = process.env.DETECTOR_KEY;
  const [path, folder, aiFolder] = process.argv.slice(2);
  if (!key || !path) {
    console.error(
      'usage: DETECTOR_URL=http://localhost:3000 DETECTOR_KEY=ak_... bun examples/typescript/client.ts FILE [KNOWN_HUMAN_FOLDER [AI_EXAMPLES_FOLDER]]',
    );
    process.exit(2);
  }
  const client = new DetectorClient(baseUrl, key);
  const text = await client.detectText(SAMPLE);
  console.log(
    JSON.stringify({ step: 'text', score: text.score, verdictKey: text.verdictKey, words: text.words, modelVersion: text.modelVersion }),
  );
  const { readFile } = await import('node:fs/promises');
  const name = path.split(/[\\/]/).pop() ?? path;
  for await (const line of client.detectFiles([{ name, bytes: new Uint8Array(await readFile(path)) }], true)) {
    if (line.type === 'result') {
      const result: ResultLine = line;
      const why = result.bullets?.[0]?.text ?? '';
      console.log(
        JSON.stringify({
          step: 'file',
          fileName: result.fileName,
          score: result.score,
          verdictKey: result.verdictKey,
          words: result.words,
          why,
        }),
      );
    } else if (line.type === 'error') console.log(JSON.stringify({ step: 'file', fileName: line.fileName, error: line.code }));
  }
  if (folder) await calibrationSteps(client, folder, aiFolder);
  const usage = await client.usage();
  console.log(JSON.stringify({ step: 'usage', plan: usage.plan, words: usage.words, calls: usage.calls, trial: usage.trial }));
}

/** The files of a folder, in name order. */
async function folderFiles(folder: string): Promise<Upload[]> {
  const { readdir, readFile } = await import('node:fs/promises');
  const { join } = await import('node:path');
  const names = (await readdir(folder)).sort();
  return Promise.all(names.map(async (name) => ({ name, bytes: new Uint8Array(await readFile(join(folder, name))) })));
}

/**
 * Make a profile from the folder's files (and AI examples), say per language whether it adapted, score the
 * sample with it, list the key's profiles, delete it.
 */
async function calibrationSteps(client: DetectorClient, folder: string, aiFolder?: string): Promise<void> {
  const profile = await client.calibrate('Known-human examples', await folderFiles(folder), aiFolder ? await folderFiles(aiFolder) : []);
  const texts = Object.fromEntries(Object.entries(profile.languages).map(([lang, l]) => [lang, l?.texts]));
  const skippedFiles = (profile.skippedFiles ?? []).map(({ fileName, code }) => ({ fileName, code }));
  // Per language: adapted to the AI examples (and what it catches of them at balanced, beside the model alone), or why not.
  const adaptation = Object.fromEntries(
    Object.entries(profile.languages).map(([lang, l]) => [
      lang,
      l?.adaptation
        ? {
            aiTexts: l.adaptation.aiTexts,
            catchRate: l.adaptation.modes.balanced.catchRate,
            modelCatchRate: l.adaptation.modes.balanced.modelCatchRate,
          }
        : { notAdapted: l?.notAdapted?.reason ?? null },
    ]),
  );
  console.log(JSON.stringify({ step: 'calibrate', id: profile.id, texts, skipped: profile.skipped, skippedFiles, adaptation }));
  const scored = await client.detectText(SAMPLE, 'balanced', profile.id);
  // `applied: false` names why the profile did not decide this text (its length or type is not covered...);
  // `adapted: true`: `score` is the adapted score, `modelScore` the model's own.
  console.log(
    JSON.stringify({
      step: 'calibrated',
      score: scored.score,
      verdictKey: scored.verdictKey,
      calibration: scored.calibration,
      adapted: scored.calibration?.adapted ?? false,
      modelScore: scored.calibration?.modelScore ?? null,
      measuredError: scored.measuredError.source,
    }),
  );
  const { calibrations } = await client.calibrations();
  console.log(JSON.stringify({ step: 'profiles', ids: calibrations.map((c) => c.id) }));
  await client.deleteCalibration(profile.id);
  console.log(JSON.stringify({ step: 'deleted', id: profile.id }));
}

if (import.meta.main) await main();
