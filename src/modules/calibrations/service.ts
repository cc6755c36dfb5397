/**
 * Calibration profiles through the API (issues 34 and 38): make one from a key's known-human texts and,
 * optionally, its own AI examples, list, read and delete the key's profiles, and find one for a detection.
 *
 * Making a profile is charged like a detection of the same texts: the words of the usable distinct
 * texts (20+ words; human texts and AI examples alike; a duplicate or near-duplicate of another text
 * of the set, learn/distinct.ts, is not scored and not charged), one call, through the same held charge as a batch (quota/holds.ts), so a
 * profile that cannot be made (too few texts, the time budget, a store failure, a client that hung up)
 * is given back whole. The texts live only in this request's memory: they are scored one by one
 * (detector.profileSample) and dropped, with the evidence an adaptation reads once the profile is
 * fitted; the store receives the profile (scores, counts, thresholds, the adaptation's weights of
 * n-grams seen in 5+ texts), never a text, and nothing here logs one. Scoring and fitting run in
 * slices of SLICE_MS, so other requests are served meanwhile.
 */
import type { Config } from '../../config';
import { CodedError, type LabelLang, type ModelLang, modelLang } from '../../contract';
import {
  type Duplicates,
  isStale,
  MIN_PROFILE_TEXTS,
  MIN_PROFILE_WORDS,
  type PROFILE_ERROR_STATUS,
  type ProfileInput,
  profileWarnings,
  publicProfile,
  withDefaults,
} from '../../detector/decide/profile';
import { profileSteps } from '../../detector/learn/profile';
import type { CalibrationProfile, Detector } from '../../detector/types';
import type { ExtractPool } from '../../extract/pool';
import { ApiError } from '../../http/errors';
import type { Logger } from '../../http/logger';
import type { ApiKey, CalibrationRecord, CalibrationStore, InsertOutcome, NewCalibration, QuotaStore } from '../../store/types';
import { FILE_FIELDS, readUploadedFiles, textField } from '../batch/form';
import type { ExhaustedFiles } from '../batch/exhausted';
import { errorLine, type FileRef } from '../batch/lines';
import { ClientGoneError, type FileFailure, OverQuotaError, planBatch } from '../batch/plan';
import { extractLimitsOf } from '../batch/pool';
import { errorMessage } from '../../i18n';
import { checkFields } from './fields';
import { checkLanguages, confirmedReadings, countLanguages } from './languages';
import { CalibrationScreen } from './screen';
import { checkQuotaFirst, quotaError, type HeldCharge, type Holds, type QuotaState } from '../quota';
import {
  CALIBRATION_ID_PATTERN,
  checkCreateCalibration,
  MAX_CALIBRATION_NAME,
  MAX_CALIBRATION_TEXTS,
  MAX_CALIBRATIONS_PER_KEY,
  type CalibrationList,
  type CalibrationView,
  type SkippedFile,
} from './model';

const ID_PATTERN = new RegExp(CALIBRATION_ID_PATTERN);
const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
/** Random characters of an id: 22 base62 characters are 131 bits, unguessable. */
const ID_CHARS = 22;
/** Longest the scoring loop runs before letting other requests through (ms). */
const SLICE_MS = 20;

/** A new random profile id: `cal_` + 22 base62 characters (rejection sampling keeps them uniform). */
export function newCalibrationId(): string {
  let id = 'cal_';
  while (id.length < 4 + ID_CHARS) {
    for (const byte of crypto.getRandomValues(new Uint8Array(32))) {
      // 248 = 4 * 62: bytes past it would favour the first characters.
      if (byte < 248 && id.length < 4 + ID_CHARS) id += BASE62[byte % 62];
    }
  }
  return id;
}

/** Throws 400 invalid_calibration_id unless `id` has the shape of a profile id (checked before any query). */
export function checkCalibrationId(id: string): void {
  if (!ID_PATTERN.test(id)) throw new ApiError('invalid_calibration_id', { id: id.slice(0, 64) });
}

/** The API's view of a stored profile: its summary, and whether the running model still matches it. */
export function calibrationView(record: CalibrationRecord, modelVersion: string): CalibrationView {
  // A summary stored before issue 38 has no adaptation fields: read as calibration-only.
  const summary = withDefaults(JSON.parse(record.summary) as Pick<CalibrationView, 'languages'> & { duplicates?: Duplicates });
  return {
    id: record.id,
    name: record.name,
    modelVersion: record.modelVersion,
    createdAt: new Date(record.createdAt).toISOString(),
    stale: isStale(record, modelVersion),
    duplicates: { human: summary.duplicates?.human ?? 0, ai: summary.duplicates?.ai ?? 0 },
    languages: summary.languages,
    warnings: profileWarnings(summary),
  };
}

/** What making a profile needs. */
export interface CalibrationDeps {
  calibrations: CalibrationStore;
  quota: QuotaStore;
  holds: Holds;
  detector: Detector;
  /** The running model's version: a profile records it, and is stale under another. */
  modelVersion: string;
  /** The batch limits a calibration upload shares (bytes, file size, time budget). */
  config: Config;
  /** Extraction of uploaded files (the batch pool), and the key's extraction throttle. */
  pool: ExtractPool;
  exhausted: ExhaustedFiles;
  logger: Logger;
}

/** The request's signals: the client hanging up, and the time budget. */
export interface CalibrationSignals {
  client: AbortSignal;
  budget: AbortSignal;
}

/** A made profile's answer and the words it was charged (for the request's log and usage event). */
export interface CalibrationOutcome {
  body: CalibrationView;
  words: number;
  state: QuotaState;
}

/**
 * Before a byte of the body is read: 409 when the key keeps MAX_CALIBRATIONS_PER_KEY profiles, and
 * the quota check a batch passes (429 when the key cannot pay for any text).
 */
export async function admitCalibration(deps: Pick<CalibrationDeps, 'calibrations' | 'quota'>, key: ApiKey): Promise<QuotaState> {
  if ((await deps.calibrations.count(key.id)) >= MAX_CALIBRATIONS_PER_KEY) {
    throw new ApiError('calibration_limit_reached', { limit: MAX_CALIBRATIONS_PER_KEY });
  }
  return checkQuotaFirst(deps.quota, key);
}

/** The `name` of a request, trimmed; 400 invalid_request when absent or empty, and another message when too long. */
function nameOf(value: unknown): string {
  const name = typeof value === 'string' ? value.trim() : '';
  const limit = MAX_CALIBRATION_NAME;
  if (name === '') {
    throw new ApiError('invalid_request', {
      variant: 'name_required',
      limit,
      detail: `the "name" field is required: 1 to ${limit} characters`,
    });
  }
  if (name.length > limit) {
    const length = name.length;
    throw new ApiError('invalid_request', {
      variant: 'name_too_long',
      length,
      limit,
      detail: `the "name" field is too long: ${length} characters`,
    });
  }
  return name;
}

/** Makes a profile from a JSON body `{ name, texts, aiTexts? }` (already parsed). */
export async function calibrateJson(
  deps: CalibrationDeps,
  key: ApiKey,
  body: unknown,
  signals: CalibrationSignals,
  lang: LabelLang,
): Promise<CalibrationOutcome> {
  const record = body !== null && typeof body === 'object' && !Array.isArray(body) ? (body as Record<string, unknown>) : null;
  // A misspelt field (`aitexts`, `ai_texts`) is named before anything else is said of the body (issue 45).
  if (record) checkFields(Object.keys(record), 'json');
  // Human texts and AI examples count together, as files do in a form.
  const count = (['texts', 'aiTexts'] as const).reduce((n, field) => {
    const list = record?.[field];
    return n + (Array.isArray(list) ? list.length : 0);
  }, 0);
  if (count > MAX_CALIBRATION_TEXTS) throw new ApiError('too_many_texts', { limit: MAX_CALIBRATION_TEXTS, count });
  const name = nameOf(record?.name);
  if (record && record.texts === undefined && Array.isArray(record.aiTexts)) {
    const ai = record.aiTexts.length;
    throw new ApiError('invalid_request', {
      variant: 'texts_required',
      ai,
      min: MIN_PROFILE_TEXTS,
      detail: `"texts" is required: ${ai} AI examples in "aiTexts" alone cannot make a profile, whose bars are set on known-human texts`,
    });
  }
  if (!checkCreateCalibration.Check(body)) {
    throw new ApiError('invalid_request', {
      detail: 'the body must be {"name": "...", "texts": ["...", ...], "aiTexts"?: ["...", ...]} with every text a string',
    });
  }
  const outcome = await calibrate(deps, key, name, { human: body.texts, ai: body.aiTexts ?? [] }, 0, signals, 'texts');
  const skippedTexts = outcome.unused.map(({ side, index, error }) => ({
    field: side === 'human' ? ('texts' as const) : ('aiTexts' as const),
    index,
    code: error.code,
    message: errorMessage(lang, error.code, error.params),
  }));
  return { body: { ...outcome.body, skippedTexts }, words: outcome.words, state: outcome.state };
}

/** Part names of the AI examples of a multipart calibration (`aiFiles[]`, or `aiFiles`). */
export const AI_FILE_FIELDS: ReadonlySet<string> = new Set(['aiFiles[]', 'aiFiles']);
const CALIBRATION_FILE_FIELDS: ReadonlySet<string> = new Set([...FILE_FIELDS, ...AI_FILE_FIELDS]);

/**
 * Makes a profile from a multipart body: `name`, `files[]` (known-human) and optional `aiFiles[]` (AI
 * examples), TXT, MD, DOCX or PDF, read within the batch limits except the file count
 * (MAX_CALIBRATION_TEXTS in all: a profile needs 50+ texts a language). Files that cannot be read or
 * are under 20 words are skipped and not charged, and named in the answer's `skippedFiles` with the
 * code and message (in `lang`) a batch error line would give them.
 */
export async function calibrateForm(
  deps: CalibrationDeps,
  key: ApiKey,
  request: Request,
  initial: QuotaState,
  signals: CalibrationSignals,
  lang: LabelLang,
): Promise<CalibrationOutcome> {
  const { config } = deps;
  const { form, files } = await readUploadedFiles(request, {
    maxFiles: MAX_CALIBRATION_TEXTS,
    maxBatchBytes: config.maxBatchBytes,
    fields: CALIBRATION_FILE_FIELDS,
    // Before "send at least one file": a misspelt part (`AIFiles[]`, `ai_files[]`) is named, and AI files alone get their own answer (issue 45).
    check(read, found) {
      checkFields(new Set(read.keys()), 'form');
      if (!found.some((f) => FILE_FIELDS.has(f.field)) && found.length > 0) throw aiOnly(found.length, 'files[]');
    },
  });
  const name = nameOf(textField(form, 'name'));
  const owner = { key: String(key.id), request: `cal-${crypto.randomUUID()}` };
  const gate = await deps.exhausted.gate(owner.key);
  const planDeps = { pool: deps.pool, limits: extractLimitsOf(config), detector: deps.detector, logger: deps.logger, owner, gate };
  let plan: Awaited<ReturnType<typeof planBatch>>;
  try {
    plan = await planBatch(planDeps, files, signals, budgetSeconds(config), initial.remaining);
  } catch (error) {
    if (error instanceof OverQuotaError) throw quotaError('quota_exceeded', initial, error.words, 'calibration');
    if (error instanceof ClientGoneError) throw new ApiError('client_closed');
    throw error;
  }
  if (signals.budget.aborted) throw timeout(config);
  const texts: CalibrationTexts = { human: [], ai: [] };
  const skippedFiles: SkippedFile[] = [];
  plan.forEach((file, i) => {
    if (!file.ok) {
      skippedFiles.push(skippedFile(file, file.failure, lang));
      return;
    }
    (AI_FILE_FIELDS.has(files[i].field) ? texts.ai : texts.human).push(file.text);
    file.text = '';
  });
  const outcome = await calibrate(deps, key, name, texts, skippedFiles.length, signals, 'files[]');
  return { body: { ...outcome.body, skippedFiles }, words: outcome.words, state: outcome.state };
}

/** A file the profile could not use, named as a batch's error line names it (its type aside). */
function skippedFile(file: FileRef, failure: FileFailure, lang: LabelLang): SkippedFile {
  const { index, fileName, code, message } = errorLine(file, failure, lang);
  return { index, fileName, code, message };
}

function budgetSeconds(config: Config): number {
  return Math.round(config.batchTimeBudgetMs / 100) / 10;
}

function timeout(config: Config): ApiError {
  return new ApiError('calibration_timeout', { seconds: budgetSeconds(config) });
}

/** Longest pause between two slices of a calibration (ms). */
const MAX_PAUSE_MS = 20;

/**
 * Resolves after a pause of a twentieth of the `heldMs` the last slice held the event loop (1 to
 * MAX_PAUSE_MS): other requests are served between slices. A detection needs several turns of the
 * loop (its charge's commit and its hold's finish are setImmediate steps; on PostgreSQL, round
 * trips); with one setImmediate per slice it took one step per text, and waited two or three texts
 * at the limit (1.0-1.1 s here, issue 40 item 6). A timer lets every ready turn run first.
 */
function pauseAfter(heldMs: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, Math.min(MAX_PAUSE_MS, Math.max(1, heldMs / 20))));
}

/** The errors of buildProfile() a client can cause with its texts (`calibration_invalid` is a file's). */
const SET_ERRORS: ReadonlySet<string> = new Set<keyof typeof PROFILE_ERROR_STATUS>(['calibration_too_small', 'calibration_empty']);

/** A profile error of the detector (too small, empty) as the API's error, with its params. */
function profileError(error: unknown): unknown {
  if (error instanceof CodedError && SET_ERRORS.has(error.code)) return new ApiError(error.code as 'calibration_too_small', error.params);
  return error;
}

/** The row of `profile` for `keyId` under its id (a new one when it has none): its record, and the whole profile as JSON. */
function profileRow(keyId: number, profile: CalibrationProfile): NewCalibration {
  const stored = { ...profile, id: profile.id ?? newCalibrationId() };
  return {
    id: stored.id,
    keyId,
    name: stored.name,
    modelVersion: stored.modelVersion,
    createdAt: Date.parse(stored.createdAt),
    summary: JSON.stringify(publicProfile(stored)),
    profile: JSON.stringify(stored),
  };
}

/** A row's record: what the API shows of it (everything but the profile itself). */
function recordOf({ profile: _, ...record }: NewCalibration): CalibrationRecord {
  return record;
}

/** The texts of a calibration request: known-human texts and AI examples. */
interface CalibrationTexts {
  human: string[];
  ai: string[];
}

/** Scoring and fitting in slices: other requests get a turn every SLICE_MS, and the work stops on the request's signals. */
class Slicer {
  private start = performance.now();
  constructor(
    private readonly signals: CalibrationSignals,
    private readonly config: Config,
  ) {}

  /** After a piece of work: a pause for other requests when the slice is used up (pauseAfter); throws when the client left or the budget ran out. */
  async tick(): Promise<void> {
    const held = performance.now() - this.start;
    if (held > SLICE_MS) {
      await pauseAfter(held);
      this.start = performance.now();
    }
    if (this.signals.client.aborted) throw new ApiError('client_closed');
    if (this.signals.budget.aborted) throw timeout(this.config);
  }
}

/**
 * Stores `profile` for `keyId` under its id (a new one when it has none) and returns the record:
 * the way an operator's profile enters the store (`calibrate --key-id`: not charged, no limit).
 */
export async function storeProfile(calibrations: CalibrationStore, keyId: number, profile: CalibrationProfile): Promise<CalibrationRecord> {
  const row = profileRow(keyId, profile);
  await calibrations.insert(row);
  return recordOf(row);
}

/**
 * Stores a profile the API made, only while `hold` still holds its charge and the key keeps fewer
 * than MAX_CALIBRATIONS_PER_KEY profiles, both checked in the insert's transaction (issue 40: a
 * process that stalled past its lease stored a profile whose charge had been given back, and
 * concurrent requests passed the limit). The hold is finished with the insert; on any refusal or
 * failure it is settled here (charge and call given back): 503 hold_expired, 409
 * calibration_limit_reached, or the store's error. A failed insert whose transaction may still
 * commit is settled first: the settlement and the insert take the same row lock, so afterwards the
 * profile exists exactly when its charge was kept, and it is answered as made.
 */
async function storeUnderHold(
  calibrations: CalibrationStore,
  keyId: number,
  profile: CalibrationProfile,
  hold: HeldCharge,
): Promise<CalibrationRecord> {
  const row = profileRow(keyId, profile);
  let outcome: InsertOutcome;
  try {
    outcome = await calibrations.insert(row, { limit: MAX_CALIBRATIONS_PER_KEY, hold: hold.fence });
  } catch (error) {
    await hold.settle({ calls: 1 });
    if (await calibrations.exists(keyId, row.id).catch(() => false)) return recordOf(row);
    throw error;
  }
  if (outcome === 'stored') return recordOf(row);
  await hold.settle({ calls: 1 });
  if (outcome === 'limit_reached') throw new ApiError('calibration_limit_reached', { limit: MAX_CALIBRATIONS_PER_KEY });
  throw new ApiError('hold_expired', {}, { 'retry-after': '1' });
}

/** A text of the set not used (under 20 words, or one a detection refuses), by its side and index there: named in a JSON answer's `skippedTexts`. */
interface UnusedText {
  side: 'human' | 'ai';
  index: number;
  error: Pick<CodedError, 'code' | 'params'>;
}

/** 422 calibration_empty for a set of AI examples only: what was sent, what is missing, where to put it (issue 45). */
function aiOnly(ai: number, field: 'texts' | 'files[]'): ApiError {
  return new ApiError('calibration_empty', { variant: 'ai_only', ai, field, min: MIN_PROFILE_TEXTS, minWords: MIN_PROFILE_WORDS });
}

/**
 * Charges the usable distinct texts' words under a hold, scores them one by one and fits the profile
 * (in slices), stores it under the hold; anything failing after the charge gives it back whole, but
 * a refusal of the set's languages that only scoring could see (languages.ts), which keeps it.
 */
async function calibrate(
  deps: CalibrationDeps,
  key: ApiKey,
  name: string,
  texts: CalibrationTexts,
  skippedBefore: number,
  signals: CalibrationSignals,
  humanField: 'texts' | 'files[]',
): Promise<CalibrationOutcome & { unused: UnusedText[] }> {
  const { detector } = deps;
  const screen = new CalibrationScreen((text) => detector.countWords(text), deps.config.maxTextChars);
  const usable: CalibrationTexts = { human: [], ai: [] };
  const unused: UnusedText[] = [];
  const firstReading = { human: [] as ModelLang[], ai: [] as ModelLang[] };
  let words = 0;
  const slicer = new Slicer(signals, deps.config);
  for (const side of ['human', 'ai'] as const) {
    const list = texts[side];
    for (let index = 0; index < list.length; index++) {
      // Counting is ~15 ms a MB: a 50 MB body is counted in slices too (issue 40).
      await slicer.tick();
      const text = list[index];
      // A text a detection would refuse, or too short, is skipped (and named); the same text again, or a
      // near-copy, is not more evidence (counted by the screen; human texts come first: a conflict is an AI
      // example left out for being one of them).
      const screened = screen.screen(text, side);
      if (screened.use) {
        usable[side].push(text);
        words += screened.words;
        // Its language at a glance (no scoring): the set's languages are checked before it is charged (languages.ts).
        if (detector.language) firstReading[side].push(detector.language(text));
      } else if (screened.why === 'refused') unused.push({ side, index, error: screened.error });
      else if (screened.why !== 'duplicate')
        unused.push({
          side,
          index,
          error: { code: 'text_too_short', params: { min: MIN_PROFILE_WORDS, count: detector.countWords(text) } },
        });
    }
    // The request's own arrays are emptied too: nothing keeps a text longer than its scoring.
    texts[side].length = 0;
  }
  const skipped = skippedBefore + unused.length;
  if (usable.human.length === 0) {
    if (usable.ai.length > 0) throw aiOnly(usable.ai.length, humanField);
    throw new ApiError('calibration_empty', { min: MIN_PROFILE_TEXTS, minWords: MIN_PROFILE_WORDS });
  }
  if (detector.language) {
    // A first reading can take a text's opening for another language: what a refusal would be about is read in full first.
    const read = confirmedReadings(usable, firstReading, (text) => modelLang(detector.analyze(text).language));
    checkLanguages(countLanguages(read.human), countLanguages(read.ai));
  }
  if (signals.client.aborted) throw new ApiError('client_closed');
  const now = Date.now();
  const charge = await deps.holds.charge(key, words, { now });
  if (!charge.ok) throw quotaError(charge.code, charge.state, words, 'calibration');
  const { hold } = charge;
  try {
    const samples: { human: ProfileInput[]; ai: ProfileInput[] } = { human: [], ai: [] };
    for (const side of ['human', 'ai'] as const) {
      const list = usable[side];
      for (let i = 0; i < list.length; i++) {
        const sample = detector.profileSample(list[i]);
        list[i] = '';
        if (sample) samples[side].push(sample);
        await slicer.tick();
      }
    }
    try {
      checkLanguages(countLanguages(samples.human.map((s) => s.lang)), countLanguages(samples.ai.map((s) => s.lang)), true);
    } catch (error) {
      // Seen only once the texts were scored: the work was done, and is charged (docs/calibration.md).
      await hold.complete();
      throw error;
    }
    // The reference writers (decoded once per process) in slices too, before the build reads them.
    await detector.loadReference?.(() => slicer.tick());
    const id = newCalibrationId();
    const steps = profileSteps(
      samples.human,
      {
        id,
        name,
        modelVersion: deps.modelVersion,
        createdAt: new Date(now).toISOString(),
        ...detector.facts,
        duplicates: screen.duplicates(),
      },
      samples.ai,
    );
    let step: IteratorResult<void, CalibrationProfile>;
    try {
      while (!(step = steps.next()).done) await slicer.tick();
    } catch (error) {
      throw profileError(error);
    }
    const record = await storeUnderHold(deps.calibrations, key.id, step.value, hold);
    return { body: { ...calibrationView(record, deps.modelVersion), skipped }, words, state: charge.state, unused };
  } catch (error) {
    if (!(error instanceof ApiError && error.params.variant === 'scored')) await hold.settle({ calls: 1 });
    throw error;
  }
}

/** The key's profiles, newest first. */
export async function listCalibrations(calibrations: CalibrationStore, key: ApiKey, modelVersion: string): Promise<CalibrationList> {
  const records = await calibrations.list(key.id);
  return { calibrations: records.map((record) => calibrationView(record, modelVersion)), limit: MAX_CALIBRATIONS_PER_KEY };
}

/** The key's profile `id`; 400 for a malformed id, 404 calibration_not_found for an unknown or foreign one. */
export async function getCalibration(
  calibrations: CalibrationStore,
  key: ApiKey,
  id: string,
  modelVersion: string,
): Promise<CalibrationView> {
  checkCalibrationId(id);
  const record = await calibrations.get(key.id, id);
  if (!record) throw new ApiError('calibration_not_found', { id });
  return calibrationView(record, modelVersion);
}

/** Deletes the key's profile `id` (detections on every instance stop using it within CALIBRATION_CACHE_TTL_MS). */
export async function deleteCalibration(calibrations: CalibrationStore, key: ApiKey, id: string): Promise<void> {
  checkCalibrationId(id);
  if (!(await calibrations.remove(key.id, id))) throw new ApiError('calibration_not_found', { id });
}

/**
 * The profile a detection names (the `calibration` field), looked up once per request through the
 * store's cache; 400 for a malformed id, 404 for an unknown or foreign one: before anything is charged.
 */
export async function findProfile(calibrations: CalibrationStore, key: ApiKey, id: string): Promise<CalibrationProfile> {
  checkCalibrationId(id);
  let profile: CalibrationProfile | null;
  try {
    profile = await calibrations.lookup(key.id, id);
  } catch (error) {
    // A stored row that fails parseProfile (issue 44): never applied, never a 200 with a broken score.
    if (error instanceof CodedError && error.code === 'calibration_invalid')
      throw new ApiError('calibration_invalid', { id, reason: error.params.reason });
    throw error;
  }
  if (profile === null) throw new ApiError('calibration_not_found', { id });
  // The id the answers name is the store's, whatever the stored JSON says.
  return { ...profile, id };
}
