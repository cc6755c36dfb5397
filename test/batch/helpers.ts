/** Batch test helpers: multipart bodies, NDJSON reading, the sample batch and its expected texts. */
import { createApp } from '../../src/app';
import { loadConfig, type Config } from '../../src/config';
import type { Analysis, AnalyzeOptions, Detector } from '../../src/detector/types';
import { createJsonLogger } from '../../src/http/logger';
import { extractPoolFor } from '../../src/modules/batch';
import type { PlanId } from '../../src/plans';
import {
  makeDocx,
  makeEmptyFile,
  makePdf,
  makePng,
  makeTruncatedPdf,
  makeUtf16,
  makeZipBombDocx,
  SAMPLE_MARKDOWN,
  SAMPLE_MARKDOWN_TEXT,
  SAMPLE_PDF_PAGES,
  SAMPLE_PDF_TEXT,
} from '../fixtures/make';
import { detector as realDetector, freshStore, IN_PROCESS_MEMORY_LIMIT_MB, keyOn, PROSE } from '../http/helpers';

const configs: Config[] = [];

/** Terminates the extraction workers of every app made so far (call in afterAll). */
export function closeBatchPools(): void {
  for (const config of configs.splice(0)) extractPoolFor(config).close();
}

/** An app on a fresh in-memory database with an optional detector (default: the real one). */
export function makeBatchApp(env: Record<string, string> = {}, detector: Detector = realDetector()) {
  const config = loadConfig({ DATABASE_PATH: ':memory:', BOOTSTRAP_KEY: '0', MEMORY_LIMIT_MB: IN_PROCESS_MEMORY_LIMIT_MB, ...env });
  configs.push(config);
  const store = freshStore();
  const logs: string[] = [];
  const app = createApp({ config, store, detector, logger: createJsonLogger((line) => logs.push(line)) });
  const newKey = (plan: PlanId = 'free') => keyOn(store, plan);
  return { app, store, db: store.db, config, logs, newKey };
}

/** A file to upload: name and bytes (or text). */
export type Upload = [name: string, content: Uint8Array | string];

/** A multipart body with every upload under `field` plus optional text fields. */
export function batchForm(uploads: readonly Upload[], fields: Record<string, string> = {}, field = 'files[]'): FormData {
  const form = new FormData();
  for (const [name, content] of uploads) form.append(field, new File([content as BlobPart], name));
  for (const [name, value] of Object.entries(fields)) form.append(name, value);
  return form;
}

/** POST /api/detect with a multipart body through app.handle. */
export function postBatch(
  app: { handle(r: Request): Promise<Response> },
  key: string,
  body: FormData | BodyInit,
  init: { headers?: Record<string, string>; signal?: AbortSignal; query?: string } = {},
): Promise<Response> {
  return app.handle(
    new Request(`http://localhost/api/detect${init.query ?? ''}`, {
      method: 'POST',
      headers: { 'x-api-key': key, ...init.headers },
      body,
      signal: init.signal,
    }),
  );
}

/** Any NDJSON line, loosely typed for assertions. */
export type Line = Record<string, unknown> & { type: string };

/** Parses a whole NDJSON body; every line must end with `\n`. */
export async function readLines(response: Response): Promise<Line[]> {
  const text = await response.text();
  if (!text.endsWith('\n')) throw new Error(`NDJSON body does not end with a newline: ${JSON.stringify(text.slice(-40))}`);
  return text
    .slice(0, -1)
    .split('\n')
    .map((line) => JSON.parse(line) as Line);
}

/**
 * Reads an NDJSON stream line by line as it arrives, calling `onLine` after each (it may pause, hang
 * up or kill the server); resolves to the lines received, including when the connection dies.
 */
export async function streamLines<L = Line>(
  response: Response,
  onLine: (line: L, lines: L[]) => Promise<void> | void = () => {},
): Promise<L[]> {
  const reader = response.body!.getReader();
  const decoder = new TextDecoder();
  const lines: L[] = [];
  let buffer = '';
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      buffer += decoder.decode(value, { stream: true });
      let nl: number;
      while ((nl = buffer.indexOf('\n')) !== -1) {
        const line = JSON.parse(buffer.slice(0, nl)) as L;
        buffer = buffer.slice(nl + 1);
        lines.push(line);
        await onLine(line, lines);
      }
    }
  } catch {
    // Hung up on, or the connection died: what was read is what was received.
  }
  return lines;
}

/** The words of the result lines among `lines`. */
export function resultWords(lines: readonly { type: string; words?: number }[]): number {
  return lines.reduce((sum, l) => sum + (l.type === 'result' ? (l.words ?? 0) : 0), 0);
}

/** Reads one chunk from a body reader as text. */
export async function readChunk(reader: ReadableStreamDefaultReader<Uint8Array>): Promise<string> {
  const { value, done } = await reader.read();
  if (done) throw new Error('stream ended');
  return new TextDecoder().decode(value);
}

/** Spanish paragraphs and a table: the DOCX of the sample batch. */
export const DOCX_PARAGRAPHS = [
  'El comité revisó los resultados del estudio el lunes por la mañana, después de una larga reunión.',
  'Los profesores aprobaron el presupuesto del próximo año escolar y pidieron más recursos para la biblioteca.',
];
/** The DOCX's table (header row and one data row). */
export const DOCX_TABLE = [
  ['Alumno', 'Nota'],
  ['Íñigo', 'Sobresaliente'],
];
/** What extraction must give for the DOCX: paragraphs, then table rows (cells tab-separated). */
export const DOCX_TEXT = `${DOCX_PARAGRAPHS.join('\n\n')}\n\nAlumno\tNota\nÍñigo\tSobresaliente`;

/** The four good files of issue 5's test list, and the text each must be scored on. */
export async function sampleBatch(): Promise<{ uploads: Upload[]; texts: string[] }> {
  return {
    uploads: [
      ['informe.docx', await makeDocx(DOCX_PARAGRAPHS, DOCX_TABLE)],
      ['paginas.pdf', makePdf(SAMPLE_PDF_PAGES)],
      ['utf16.txt', makeUtf16(PROSE, 'le')],
      ['notes.md', SAMPLE_MARKDOWN],
    ],
    texts: [DOCX_TEXT, SAMPLE_PDF_TEXT, PROSE, SAMPLE_MARKDOWN_TEXT],
  };
}

/** Hostile or unusable files, each with the error code its line must carry. */
export async function badBatch(): Promise<{ uploads: Upload[]; codes: string[] }> {
  const pdf = makePdf(SAMPLE_PDF_PAGES);
  return {
    uploads: [
      ['cut.pdf', makeTruncatedPdf(pdf)],
      ['locked.pdf', makePdf(['secret text'], { encrypted: true })],
      ['bomb.docx', await makeZipBombDocx()],
      ['picture.pdf', makePng()],
      ['empty.txt', makeEmptyFile()],
      ['short.txt', 'Only a few words here.'],
      ['scan.pdf', makePdf([''])],
    ],
    codes: ['corrupt_file', 'encrypted_pdf', 'extract_limit', 'unsupported_format', 'no_text', 'text_too_short', 'no_text'],
  };
}

/** A detector that records every analyze call and can stall each one (busy wait: analyze is synchronous). */
export function recordingDetector(base: Detector, stallMs = 0) {
  const calls: { text: string; at: number }[] = [];
  const detector: Detector = {
    countWords: (text) => base.countWords(text),
    profileSample: (text) => base.profileSample(text),
    analyze(text: string, options?: AnalyzeOptions): Analysis {
      calls.push({ text, at: performance.now() });
      const until = performance.now() + stallMs;
      while (performance.now() < until) {
        // Stall on purpose: stands in for a long document.
      }
      return base.analyze(text, options);
    },
  };
  return { detector, calls };
}

/** Words charged this month to a key, read straight from the table. */
export function wordsUsed(db: { $client: { query(sql: string): { get(...args: unknown[]): unknown } } }, keyId: number): number {
  const row = db.$client.query('SELECT COALESCE(SUM(words_used), 0) AS used FROM monthly_usage WHERE key_id = ?').get(keyId) as {
    used: number;
  };
  return row.used;
}
