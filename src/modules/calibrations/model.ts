/**
 * The contract of /v1/calibrations (issue 34), in TypeBox: the JSON request that makes a profile,
 * and the profile as every route returns it (the profile less its samples: counts, thresholds and
 * the error measured on the profile's own texts). Also the OpenAPI components `Calibration` and
 * `CalibrationList`.
 */
import type { TInteger } from '@sinclair/typebox';
import { t, type Static } from 'elysia';
import { MODEL_LANGS, SENSITIVITIES, type ModelLang } from '../../contract';
import { NOT_ADAPTED_REASONS } from '../../detector/decide/adaptation';
import { FORMS } from '../../detector/decide/examples';
import { MIN_AI_TEXTS } from '../../detector/decide/profile';
import { DOC_TYPES, type DocType } from '../../detector/score/doctype';
import { compileSchema, Int, StringEnum } from '../../http/schema';
import { ErrorLineSchema } from '../batch/model';
import { OtherWritersSchema } from '../detect/other-writers';
import { ExamplesCheckSchema, FallbackSchema, GuardNoteSchema } from './guard-model';

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

/** Request body of POST /v1/calibrations as JSON. An unknown field is a 400 naming it and the field it most likely meant (fields.ts). */
export const CreateCalibrationSchema = t.Object(
  {
    name: NameSchema,
    texts: t.Array(t.String(), {
      maxItems: MAX_CALIBRATION_TEXTS,
      description: `Known-human texts of one population (at most ${MAX_CALIBRATION_TEXTS}). Texts under 20 words or longer than a detection accepts are skipped, not charged. Scored, then dropped: never stored or logged.`,
    }),
    aiTexts: t.Optional(
      t.Array(t.String(), {
        maxItems: MAX_CALIBRATION_TEXTS,
        description: `Optional AI examples of the same population (at most ${MAX_CALIBRATION_TEXTS} texts and AI examples in all): texts you had the models your writers use write for your own prompts. A language with ${MIN_AI_TEXTS}+ of them is adapted: the profile also learns from them (docs/calibration.md, "Adapting to your generators"); the bars are still set on the human texts. Charged like the human texts; never stored or logged.`,
      }),
    ),
  },
  {
    additionalProperties: false,
    description:
      'A calibration set (Content-Type: application/json). Any other field is refused: 400 invalid_request naming it and the field it most likely meant (`aitexts`, `ai_texts`: `aiTexts`).',
  },
);

/** The multipart body of POST /v1/calibrations (documentation only: read by service.ts). */
export const CalibrationFormSchema = t.Object(
  {
    name: NameSchema,
    'files[]': t.Array(t.String({ format: 'binary' }), {
      maxItems: MAX_CALIBRATION_TEXTS,
      description: `Known-human files, one text each: TXT, MD, DOCX or PDF (the part may also be named \`files\`), at most ${MAX_CALIBRATION_TEXTS} files in all. Read like a batch's files, then dropped.`,
    }),
    'aiFiles[]': t.Optional(
      t.Array(t.String({ format: 'binary' }), {
        description: `Optional AI examples as files, one text each (the part may also be named \`aiFiles\`), like \`aiTexts\` in JSON; they count towards the ${MAX_CALIBRATION_TEXTS} files.`,
      }),
    ),
  },
  {
    additionalProperties: false,
    description:
      'A calibration set as files (Content-Type: multipart/form-data). Any other part is refused: 400 invalid_request naming it and the part it most likely meant (`AIFiles[]`, `aiFile[]`, `ai_files[]`: `aiFiles[]`).',
  },
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
    mixed: t.Optional(
      Int({
        minimum: 1,
        description:
          "Of `flagged`, the texts read as mixed at this mode: a detection flags them whatever the bar, so this mode may flag more of the profile's texts than its rule allows, and show the same bar as a laxer mode. Absent when none.",
      }),
    ),
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

/** A mode of `languages.<lang>.modes`: the calibration-only bar, and what the bar a covered detection applies flags of other writers. */
const LanguageModeSchema = t.Composite([
  ModeSchema,
  t.Object({
    otherWriters: t.Optional(
      t.Composite([OtherWritersSchema], {
        description:
          'What the bar a covered detection applies at this mode (the adapted one where the language is adapted, else this one) flags of reference human writers unlike the profile’s, per population (docs/calibration.md, "Writers outside your texts"). Absent in a profile made without the reference set.',
      }),
    ),
  }),
]);

const AucSchema = t.Object(
  {
    adapted: t.Number({
      minimum: 0,
      maximum: 1,
      description: 'Cross-validated AUROC of your AI examples against your human texts, adapted.',
    }),
    model: t.Number({ minimum: 0, maximum: 1, description: 'The same for the model alone.' }),
  },
  { description: 'How well the scores tell your AI examples from your human texts (1: always; 0.5: chance).' },
);

const AdaptedModeSchema = t.Composite([
  ModeSchema,
  t.Object({
    caught: Int({
      minimum: 0,
      description: 'Your AI examples this bar catches, each scored by a fit that never saw it (cross-validated).',
    }),
    catchRate: t.Number({ minimum: 0, maximum: 1, description: 'caught / aiTexts.' }),
    modelCaught: Int({
      minimum: 0,
      description: "The same examples caught by the model's own score with this profile's calibration-only bar (`modes`).",
    }),
    modelCatchRate: t.Number({ minimum: 0, maximum: 1, description: 'modelCaught / aiTexts.' }),
    fallback: t.Optional(FallbackSchema),
  }),
]);

const AdaptationSchema = t.Object(
  {
    aiTexts: Int({ minimum: 0, description: 'Distinct AI examples of this language (20+ words) the adaptation learned from.' }),
    docTypes: t.Partial(t.Object(Object.fromEntries(DOC_TYPES.map((type) => [type, Int({ minimum: 1 })])) as Record<DocType, TInteger>), {
      description: 'How many of the AI examples the document-type classifier puts in each type (types with none left out).',
    }),
    auroc: AucSchema,
    features: Int({ minimum: 0, description: 'Word patterns (n-grams seen in 5+ of your texts) that carry a weight.' }),
    modes: t.Object(
      Object.fromEntries(SENSITIVITIES.map((mode) => [mode, AdaptedModeSchema])) as Record<
        (typeof SENSITIVITIES)[number],
        typeof AdaptedModeSchema
      >,
      {
        description:
          "Per sensitivity: the bar on the adapted score (set on your human texts' cross-fitted scores), what it flags of them, and what it catches of your AI examples beside the model alone.",
      },
    ),
  },
  {
    description:
      'What the profile learned from your AI examples. A covered text of this language is decided on its adapted score (`calibration.adapted: true`).',
  },
);

const NotAdaptedSchema = t.Object(
  {
    reason: StringEnum(NOT_ADAPTED_REASONS),
    aiTexts: Int({ minimum: 0, description: 'Distinct AI examples of this language given.' }),
    minAiTexts: Int({ minimum: 1, description: 'The AI examples a language needs to be adapted.' }),
    auroc: t.Union([AucSchema, t.Null()], { description: 'When a fit was tried: how it separated your examples; else null.' }),
  },
  {
    description:
      '`no_ai_texts`: none given; `too_few_ai_texts`: fewer than `minAiTexts`; `not_separable`: the examples cannot be told from the human texts (cross-validated AUROC under 0.6); `no_gain`: adapting caught no more of them (cross-validated, over the three modes) than the model’s own score with the calibration-only bars. The language uses the calibration-only bars.',
  },
);

const WarningSchema = t.Object(
  {
    code: StringEnum([
      'mode_not_covered',
      'not_adapted',
      'labelling_conflict',
      'examples_rank_below_human',
      'examples_differ_in_form',
      'mode_fell_back',
    ] as const),
    language: t.Optional(StringEnum(MODEL_LANGS, { description: 'The language (every code but labelling_conflict).' })),
    mode: t.Optional(StringEnum(SENSITIVITIES)),
    texts: t.Optional(Int({ minimum: 0, description: 'mode_not_covered: the usable human texts of the language.' })),
    needed: t.Optional(
      Int({
        minimum: 1,
        description: 'The texts the mode needs (mode_not_covered), or the AI examples a language needs (not_adapted).',
      }),
    ),
    count: t.Optional(
      Int({ minimum: 1, description: 'labelling_conflict: the AI examples that were also given as human texts (or near-copies of one).' }),
    ),
    reason: t.Optional(StringEnum(NOT_ADAPTED_REASONS)),
    aiTexts: t.Optional(Int({ minimum: 0 })),
    auroc: t.Optional(
      t.Number({
        minimum: 0,
        maximum: 1,
        description: "examples_rank_below_human: the model's AUROC of the examples against the human texts.",
      }),
    ),
    form: t.Optional(StringEnum(FORMS, { description: 'examples_differ_in_form: the form the two sides differ in.' })),
    human: t.Optional(
      t.Number({ minimum: 0, maximum: 1, description: 'examples_differ_in_form: the share of the human texts in that form.' }),
    ),
    ai: t.Optional(
      t.Number({ minimum: 0, maximum: 1, description: 'examples_differ_in_form: the share of the AI examples in that form.' }),
    ),
    word: t.Optional(t.String({ description: 'examples_differ_in_form, form `opening`: the opening word most texts of one side share.' })),
    caught: t.Optional(Int({ minimum: 0, description: "mode_fell_back: the examples the mode's adapted bar caught (cross-validated)." })),
    modelCaught: t.Optional(Int({ minimum: 0, description: 'mode_fell_back: the examples the calibration-only bar caught.' })),
  },
  {
    description:
      "`mode_not_covered`: too few texts for this mode's promise: detections at it use the model's own bar (`applied: false, reason: too_few_texts`); `not_adapted`: AI examples were given but the language is calibration-only (`reason`); `labelling_conflict`: `count` texts were given both as human and as AI (the same text or a near-copy): each was used as a human text only, left out of the AI examples (counted in `duplicates.ai`).",
  },
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
      Object.fromEntries(SENSITIVITIES.map((mode) => [mode, LanguageModeSchema])) as Record<
        (typeof SENSITIVITIES)[number],
        typeof LanguageModeSchema
      >,
      {
        description:
          "Per sensitivity: the threshold on the model's own score (calibration-only), the error measured on the texts, and what the mode's bar flags of other writers (`otherWriters`).",
      },
    ),
    adaptation: t.Union([AdaptationSchema, t.Null()], {
      description: 'What the AI examples taught, or null: the language is calibration-only (see `notAdapted`).',
    }),
    notAdapted: t.Union([NotAdaptedSchema, t.Null()], { description: 'Why the language was not adapted; null when it was.' }),
    guard: t.Optional(GuardNoteSchema),
    examples: t.Optional(ExamplesCheckSchema),
  },
  { description: 'One language of the profile.' },
);

const OptionalLanguage = t.Optional(LanguageSchema);

const { index, fileName, code, message } = ErrorLineSchema.properties;

/** A file a calibration did not use, named as a batch names a file it could not score (its error line). */
export const SkippedFileSchema = t.Object(
  { index, fileName, code, message },
  { title: 'SkippedCalibrationFile', description: 'An uploaded file the profile does not use, and why. Not charged.' },
);

/** A JSON calibration text not used, by its field and index there (issue 45: a text over the size limit was only `skipped: 1`). */
export const SkippedTextSchema = t.Object(
  {
    field: StringEnum(['texts', 'aiTexts'] as const, { description: 'The array it was sent in.' }),
    index: Int({ minimum: 0, description: 'Its 0-based position in that array.' }),
    code: t.String({ description: '`text_too_short`, `text_too_long` or `too_many_sentences`: the code a detection of it would answer.' }),
    message: t.String({ description: 'The same in a sentence, in the negotiated language.' }),
  },
  { title: 'SkippedCalibrationText', description: 'A sent text the profile does not use, and why. Not charged.' },
);

/** A skipped text of a calibration made from JSON. */
export type SkippedText = Static<typeof SkippedTextSchema>;

/** A skipped file of a calibration made from files. */
export type SkippedFile = Static<typeof SkippedFileSchema>;

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
    duplicates: t.Object(
      {
        human: Int({ minimum: 0 }),
        ai: Int({ minimum: 0 }),
      },
      {
        description:
          'Texts left out as duplicates of another text of the set: the same after Unicode NFKC normalisation and collapsing whitespace, or a near-copy (a word dropped, re-spaced, a counter or a signature changed: Jaccard similarity of their word triples 0.85 or more). One text counts once, in the texts, the bars and the catch rates. Not scored, not charged.',
      },
    ),
    warnings: t.Array(WarningSchema, {
      description: 'What the profile does not cover that you may have expected it to (empty when nothing).',
    }),
    skipped: t.Optional(
      Int({
        minimum: 0,
        description:
          'Only in the answer that made it: texts or files not used (under 20 words, longer than a detection accepts (MAX_TEXT_CHARS, GET /v1/limits), more sentences than a detection accepts, or a file that could not be read). Not charged.',
      }),
    ),
    skippedTexts: t.Optional(
      t.Array(SkippedTextSchema, {
        description:
          'Only in the answer that made it from JSON: each text not used (under 20 words, or one a detection refuses), with its field, index, `code` and `message`; empty when every text was used (duplicates are counted in `duplicates`). Not charged.',
      }),
    ),
    skippedFiles: t.Optional(
      t.Array(SkippedFileSchema, {
        description:
          'Only in the answer that made it from files (multipart/form-data): each file not used, in upload order, with the `code` and `message` a batch `error` line gives (`text_too_short`, `corrupt_file`, `unsupported_format`...); empty when every file was used. Not charged.',
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
