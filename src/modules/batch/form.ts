/** Reads a multipart/form-data batch request: files in upload order plus the optional form fields. */
import { sensitivityOrDefault, type LabelLang, type Sensitivity } from '../../contract';
import { ApiError } from '../../http/errors';
import { readBodyBytes } from '../../http/body';
import { matchLang } from '../../i18n';
import { safeFileName } from './file-name';

/** Part names accepted for files: PHP/Rails style `files[]` and plain `files`. */
export const FILE_FIELDS: ReadonlySet<string> = new Set(['files[]', 'files']);

/** One uploaded file, numbered in upload order. */
export interface UploadedFile {
  index: number;
  fileName: string;
  file: File;
  /** The part name it came in (one of the reader's `fields`). */
  field: string;
}

/** A parsed batch request. */
export interface BatchForm {
  files: UploadedFile[];
  sensitivity: Sensitivity;
  /** From the `lang` form field; null when absent or not a supported language. */
  lang: LabelLang | null;
  /** `detail=full`: each result line carries the explanation too. */
  full: boolean;
  /** The `calibration` field: a profile id (issue 34), or null when absent. */
  calibration: string | null;
}

/** The request-level limits the form reader enforces. */
export interface FormLimits {
  maxFiles: number;
  maxBatchBytes: number;
  /** Part names read as files (default FILE_FIELDS); every file counts towards maxFiles. */
  fields?: ReadonlySet<string>;
  /** Checks of the parts read, before "at least one file in files[]" (a calibration names a misspelt part first). */
  check?: (form: FormData, files: readonly UploadedFile[]) => void;
}

function parseSensitivity(value: FormDataEntryValue | null): Sensitivity {
  const mode = sensitivityOrDefault(typeof value === 'string' && value !== '' ? value.trim() || value : value);
  if (!mode) throw new ApiError('invalid_sensitivity');
  return mode;
}

/** A multipart body read within its limits: the form, and its files in upload order. */
export interface UploadedForm {
  form: FormData;
  files: UploadedFile[];
}

/**
 * Reads a multipart body within `limits` and collects its files (`files[]` or `files`, at least one);
 * throws ApiError 413 payload_too_large / too_many_files, 400 for a bad form. The batch form and
 * POST /v1/calibrations read their bodies this one way.
 */
export async function readUploadedFiles(request: Request, limits: FormLimits): Promise<UploadedForm> {
  const body = await readBodyBytes(request, limits.maxBatchBytes);
  let form: FormData;
  try {
    // Re-wrapped so the bounded bytes, not the original stream, are parsed.
    const contentType = request.headers.get('content-type') ?? '';
    form = await new Response(body, { headers: { 'content-type': contentType } }).formData();
  } catch {
    throw new ApiError('invalid_request', { detail: 'the multipart/form-data body could not be parsed' });
  }
  const files: UploadedFile[] = [];
  const fields = limits.fields ?? FILE_FIELDS;
  for (const [name, value] of form.entries() as Iterable<[string, unknown]>) {
    if (!fields.has(name)) continue;
    if (!(value instanceof File)) throw new ApiError('invalid_request', { detail: `every "${name}" part must be a file` });
    // Bun leaves `name` undefined for `filename=""` (a browser's empty file input) and a lone `"`.
    files.push({ index: files.length, fileName: safeFileName(value.name ?? '', `file-${files.length + 1}`), file: value, field: name });
  }
  limits.check?.(form, files);
  if (!files.some((f) => FILE_FIELDS.has(f.field)))
    throw new ApiError('invalid_request', { detail: 'send at least one file in "files[]"' });
  if (files.length > limits.maxFiles) throw new ApiError('too_many_files', { limit: limits.maxFiles, count: files.length });
  return { form, files };
}

/** A text form field, trimmed; null when absent or empty. */
export function textField(form: FormData, name: string): string | null {
  const value = form.get(name);
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : null;
}

/** Whether a `detail` value asks for `full` (absent or empty: no); 400 invalid_request for any other value. */
function wantsFull(value: FormDataEntryValue | null, where: string): boolean {
  if (value === null || value === '') return false;
  if (typeof value === 'string' && value.trim() === 'full') return true;
  throw new ApiError('invalid_request', { detail: `the "detail" ${where} may only be "full"` });
}

/**
 * `detail` as the query string gives it (`?detail=full`), like `?lang=` (issue 39: it was ignored
 * there). The form field and the query can only agree, `full` being the only value: either one turns
 * it on, and a wrong value in either is refused, so neither place is ever ignored.
 */
function queryWantsFull(url: string): boolean {
  const q = url.indexOf('?');
  if (q === -1) return false;
  return new URLSearchParams(url.slice(q + 1)).getAll('detail').reduce((full, value) => wantsFull(value, 'query parameter') || full, false);
}

/**
 * The `calibration` field: a profile id (its shape is checked when the profile is looked up), or null
 * when the field is absent. Sent but empty or blank: 400 invalid_calibration_id, as in single mode;
 * a file, or the field twice: 400 invalid_request (issue 40: either was ignored, and the batch scored
 * and charged without the profile its client asked for).
 */
function calibrationField(form: FormData): string | null {
  const values = form.getAll('calibration') as unknown[];
  if (values.length === 0) return null;
  const [value] = values;
  if (values.length > 1 || typeof value !== 'string') {
    throw new ApiError('invalid_request', { detail: 'the "calibration" field must be one profile id, sent as a text field (not a file)' });
  }
  const id = value.trim();
  if (id === '') throw new ApiError('invalid_calibration_id', { id: '' });
  return id;
}

/** Parses the multipart body; throws ApiError 413 payload_too_large / too_many_files, 400 for a bad form. */
export async function readBatchForm(request: Request, limits: FormLimits): Promise<BatchForm> {
  // A wrong query value is refused before the body is read.
  const queryFull = queryWantsFull(request.url);
  const { form, files } = await readUploadedFiles(request, limits);
  const lang = form.get('lang');
  const formFull = wantsFull(form.get('detail'), 'field');
  return {
    full: formFull || queryFull,
    files,
    sensitivity: parseSensitivity(form.get('sensitivity')),
    lang: typeof lang === 'string' ? matchLang(lang) : null,
    calibration: calibrationField(form),
  };
}
