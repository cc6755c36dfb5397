/**
 * The contract of /v1/calibrations (issue 34), in TypeBox: the JSON request that makes a profile,
 * and the profile as every route returns it (the profile less its samples: counts, thresholds and
 * the error measured on the profile's own texts). Also the OpenAPI components `Calibration` and
 * `CalibrationList`.
 */
import { t, type Static } from 'elysia';
import { MODEL_LANGS, SENSITIVITIES, type ModelLang } from '../../contract';
import { DOC_TYPES } from '../../detector/score/doctype';
import { compileSchema, Int, StringEnum } from '../../http/schema';

/** Profiles one key may keep: enough for several populations (courses, imprints), few enough that a list is small. */
export const MAX_CALIBRATIONS_PER_KEY = 20;
/** Most texts (JSON) or files (multipart) one profile is made from: thousands of scores, still one request's work. */
export const MAX_CALIBRATION_TEXTS = 5000;
/** Longest profile name, in characters. */
export const MAX_CALIBRATION_NAME = 100;
/** A profile id: `cal_` and 22 base62 characters (131 random bits). */
export const CALIBRATION_ID_PATTERN = '^cal_[0-9A-Za-z]{22}$';

const NameSchema = t.String({
  minLength: 1,
  maxLength: MAX_CALIBRATION_NAME,
  description: `A name for the profile (1-${MAX_CALIBRATION_NAME} characters after trimming), e.g. the population its texts come from.`,
});

/** Request body of POST /v1/calibrations as JSON. Unknown fields are ignored. */
export const CreateCalibrationSchema = t.Object(
  {
    name: NameSchema,
    texts: t.Array(t.String(), {
      maxItems: MAX_CALIBRATION_TEXTS,
      description: `Known-human texts of one population (at most ${MAX_CALIBRATION_TEXTS}). Texts under 20 words or longer than a detection accepts are skipped, not charged. Scored, then dropped: never stored or logged.`,
    }),
  },
  { description: 'A calibration set (Content-Type: application/json).' },
);

/** The multipart body of POST /v1/calibrations (documentation only: read by service.ts). */
export const CalibrationFormSchema = t.Object(
  {
    name: NameSchema,
    'files[]': t.Array(t.String({ format: 'binary' }), {
      maxItems: MAX_CALIBRATION_TEXTS,
      description: `Known-human files, one text each: TXT, MD, DOCX or PDF (the part may also be named \`files\`), at most ${MAX_CALIBRATION_TEXTS}. Read like a batch's files, then dropped.`,
    }),
  },
  { description: 'A calibration set as files (Content-Type: multipart/form-data).' },
);

/** A validated calibration request. */
export type CreateCalibrationInput = Static<typeof CreateCalibrationSchema>;

const ModeSchema = t.Object(
  {
    thresholdLogit: t.Union([t.Number(), t.Null()], {
      description:
        "The logit from which this mode calls a covered text AI; null when the profile's texts are too few to keep the mode's promise (the model's own threshold applies, `reason: too_few_texts`).",
    }),
    flagged: Int({ minimum: 0, description: "The profile's texts at or above the threshold." }),
    texts: Int({ minimum: 0, description: 'The texts the threshold was set on.' }),
    rate: t.Number({ minimum: 0, maximum: 1, description: 'flagged / texts.' }),
    upperBound: t.Number({
      minimum: 0,
      maximum: 1,
      description: "One-sided 95% upper bound (exact binomial) on the share of this population's human texts the threshold flags.",
    }),
    thresholdScore: t.Optional(
      t.Union([Int({ minimum: 50, maximum: 100 }), t.Null()], {
        description:
          'The same threshold on the 0-100 `score` scale, for a text in the middle of the covered length (a score depends on length: exact there, close elsewhere), never below 50 (even odds); null with no threshold.',
      }),
    ),
  },
  { description: "One mode's threshold in one language, and what it did to the profile's own texts." },
);

const LanguageSchema = t.Object(
  {
    texts: Int({ minimum: 0, description: 'Usable texts (20+ words) of this language the thresholds were set on.' }),
    docTypes: t.Array(StringEnum(DOC_TYPES as readonly string[] as [string, ...string[]]), {
      description: 'Document types with enough texts to be covered; a text of another type uses the stricter threshold (`applied: false`).',
    }),
    words: t.Union(
      [
        t.Object({ min: Int({ minimum: 0 }), max: t.Union([Int({ minimum: 0 }), t.Null()], { description: 'null: no upper bound.' }) }),
        t.Null(),
      ],
      { description: 'The covered length range in scored words; outside it, `applied: false`. null: no length has enough texts.' },
    ),
    modes: t.Object(
      Object.fromEntries(SENSITIVITIES.map((mode) => [mode, ModeSchema])) as Record<(typeof SENSITIVITIES)[number], typeof ModeSchema>,
      {
        description: 'Per sensitivity: the threshold and the error measured on the texts.',
      },
    ),
  },
  { description: 'One language of the profile.' },
);

const OptionalLanguage = t.Optional(LanguageSchema);

/** A profile as the routes return it: never a text, never the individual scores. */
export const CalibrationSchema = t.Object(
  {
    id: t.String({
      pattern: CALIBRATION_ID_PATTERN,
      description: 'The profile id: pass it as `calibration` to POST /v1/detect or a batch.',
    }),
    name: t.String({ description: 'The name it was given.' }),
    modelVersion: t.String({ description: 'The model that scored its texts.' }),
    createdAt: t.String({ format: 'date-time', description: 'When it was made.' }),
    stale: t.Boolean({
      description:
        "True when `modelVersion` is not the running model's: detections naming it use the model's own thresholds (`applied: false, reason: model_changed`). Make a new profile from the same texts.",
    }),
    languages: t.Object(
      Object.fromEntries(MODEL_LANGS.map((lang) => [lang, OptionalLanguage])) as Record<ModelLang, typeof OptionalLanguage>,
      { description: 'Per model language with enough texts (at least 50 usable ones).' },
    ),
    skipped: t.Optional(
      Int({
        minimum: 0,
        description:
          'Only in the answer that made it: texts or files not used (under 20 words, longer than a detection accepts (MAX_TEXT_CHARS, GET /v1/limits), more sentences than a detection accepts, or a file that could not be read). Not charged.',
      }),
    ),
  },
  {
    description:
      'A calibration profile: per language, the thresholds set on one population’s known-human texts and the error measured on them.',
  },
);

/** The body of every profile answer. */
export type CalibrationView = Static<typeof CalibrationSchema>;

/** The 200 body of GET /v1/calibrations. */
export const CalibrationListSchema = t.Object(
  {
    calibrations: t.Array(CalibrationSchema, { description: 'The key’s profiles, newest first.' }),
    limit: Int({ minimum: 1, description: 'Most profiles a key may keep; POST answers 409 calibration_limit_reached past it.' }),
  },
  { description: 'The calibration profiles of the key.' },
);

/** The 200 body of GET /v1/calibrations. */
export type CalibrationList = Static<typeof CalibrationListSchema>;

/** The compiled request check (the route reports which field is wrong). */
export const checkCreateCalibration = compileSchema(CreateCalibrationSchema);
