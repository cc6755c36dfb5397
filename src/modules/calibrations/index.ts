/** Calibrations module (issue 34): POST/GET /v1/calibrations, GET/DELETE /v1/calibrations/{id}; a profile belongs to its key. */
import { Elysia } from 'elysia';
import type { LabelLang } from '../../contract';
import {
  ApiError,
  isJsonType,
  isMultipartType,
  observeRequest,
  parseJson,
  readBodyText,
  requireKey,
  type Logger,
  type RequestFacts,
} from '../../http';
import type { ServiceMetrics } from '../../metrics/types';
import type { ApiKey, UsageSink } from '../../store/types';
import { rateLimitHeaders } from '../quota';
import {
  admitCalibration,
  calibrateForm,
  calibrateJson,
  deleteCalibration,
  getCalibration,
  listCalibrations,
  type CalibrationDeps,
} from './service';
import { CalibrationFormSchema, CalibrationListSchema, CalibrationSchema, CreateCalibrationSchema } from './model';

export { findProfile, storeProfile } from './service';
export {
  CALIBRATION_ID_PATTERN,
  CalibrationListSchema,
  CalibrationSchema,
  CreateCalibrationSchema,
  MAX_CALIBRATION_NAME,
  MAX_CALIBRATION_TEXTS,
  MAX_CALIBRATIONS_PER_KEY,
  type CalibrationView,
} from './model';

/** The collection of a key's profiles. */
export const CALIBRATIONS_PATH = '/v1/calibrations';
/** One profile. */
export const CALIBRATION_PATH = `${CALIBRATIONS_PATH}/:id`;
/** Route keys the auth plugin protects: every calibration route needs a key. */
export const CALIBRATION_ROUTES = [
  `POST ${CALIBRATIONS_PATH}`,
  `GET ${CALIBRATIONS_PATH}`,
  `GET ${CALIBRATION_PATH}`,
  `DELETE ${CALIBRATION_PATH}`,
] as const;
/** The route whose handler observes itself (it charges words). */
export const CALIBRATION_CREATE_ROUTE = `POST ${CALIBRATIONS_PATH}`;
/**
 * The routes that manage a key's profiles without scoring anything: they take from the key's `reads`
 * budget, as /v1/usage does (issue 40: 700 GETs spent the detections' budget and the next one was 429).
 * Making a profile scores texts: it stays on `requests`.
 */
export const CALIBRATION_READ_ROUTES = [`GET ${CALIBRATIONS_PATH}`, `GET ${CALIBRATION_PATH}`, `DELETE ${CALIBRATION_PATH}`] as const;

/** Component schemas of the module, by name (the docs module adds them to the document). */
export const CALIBRATION_SCHEMAS = {
  CreateCalibration: CreateCalibrationSchema,
  CalibrationForm: CalibrationFormSchema,
  Calibration: CalibrationSchema,
  CalibrationList: CalibrationListSchema,
};

/** Dependencies of the calibration routes. */
export interface CalibrationsModuleOptions extends CalibrationDeps {
  usage: UsageSink;
  logger: Logger;
  metrics?: ServiceMetrics;
  /** How each route appears in the OpenAPI document (src/modules/docs/openapi.ts, given by app.ts). */
  operations?: { create?: object; list?: object; get?: object; remove?: object };
}

type Context = RequestFacts & {
  lang: LabelLang;
  set: { status?: number | string; headers: Record<string, unknown> };
  params: { id: string };
  words: number;
};

/** Elysia plugin mounting the calibration routes. The key was already checked by the auth plugin. */
export function calibrationsModule(deps: CalibrationsModuleOptions) {
  const { calibrations, modelVersion, config, operations = {} } = deps;
  const observe = { usage: deps.usage, logger: deps.logger, metrics: deps.metrics };

  const create = async function createCalibration(context: unknown) {
    const ctx = context as Context;
    const { request } = ctx;
    const key = requireKey(ctx.key);
    const contentType = request.headers.get('content-type');
    const json = isJsonType(contentType);
    // The calibration wording: a name and texts or files, not detection's "one text" (issue 39).
    if (!json && !isMultipartType(contentType)) throw new ApiError('unsupported_media_type', { variant: 'calibration' });
    // Refused before the body is read: a key that cannot keep or pay for a profile uploads nothing.
    const initial = await admitCalibration(deps, key);
    const signals = { client: request.signal, budget: AbortSignal.timeout(config.batchTimeBudgetMs) };
    const outcome = json
      ? await calibrateJson(deps, key, parseJson(await readBodyText(request, config.maxBatchBytes)), signals, ctx.lang)
      : await calibrateForm(deps, key, request, initial, signals, ctx.lang);
    ctx.words = outcome.words;
    ctx.set.status = 201;
    Object.assign(ctx.set.headers, rateLimitHeaders(outcome.state), { location: `${CALIBRATIONS_PATH}/${outcome.body.id}` });
    observeRequest(observe, ctx, { status: 201, mode: 'batch', words: outcome.words });
    return outcome.body;
  };

  const keyOf = (context: unknown): ApiKey => requireKey((context as Context).key);
  const noStore = (context: unknown) => Object.assign((context as Context).set.headers, { 'cache-control': 'no-store' });

  return new Elysia({ name: 'calibrations' })
    .post(CALIBRATIONS_PATH, create, { parse: 'none', detail: operations.create as never })
    .get(
      CALIBRATIONS_PATH,
      async function listKeyCalibrations(context) {
        noStore(context);
        return listCalibrations(calibrations, keyOf(context), modelVersion);
      },
      { detail: operations.list as never },
    )
    .get(
      CALIBRATION_PATH,
      async function getKeyCalibration(context) {
        noStore(context);
        return getCalibration(calibrations, keyOf(context), (context as unknown as Context).params.id, modelVersion);
      },
      { detail: operations.get as never },
    )
    .delete(
      CALIBRATION_PATH,
      async function deleteKeyCalibration(context) {
        await deleteCalibration(calibrations, keyOf(context), (context as unknown as Context).params.id);
        return new Response(null, { status: 204 });
      },
      { parse: 'none', detail: operations.remove as never },
    );
}
