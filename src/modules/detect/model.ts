/** JSON Schemas (TypeBox) of single mode, used for the OpenAPI document. */
import { t } from 'elysia';
import { ERROR_STATUS } from '../../http/errors';

/** Request body of single mode. */
export const DetectRequestSchema = t.Object(
  {
    text: t.String({
      description: 'The text to analyze, at least 20 words. Never stored or logged.',
      examples: ['Paste at least twenty words of prose here…'],
    }),
    sensitivity: t.Optional(
      t.Union([t.Literal('conservative'), t.Literal('balanced'), t.Literal('aggressive')], {
        description:
          'How readily the verdict calls a text AI. The score does not change, only the thresholds. Default conservative.',
        default: 'conservative',
      }),
    ),
  },
  { description: 'Single-text request (Content-Type: application/json).' },
);

const Dimension = t.Object({
  id: t.String({ description: 'Stable dimension id.', examples: ['uniform_sentences'] }),
  label: t.String({ description: 'Localized name of the dimension.' }),
  detected: t.Boolean({ description: 'True when this signal is present in the text.' }),
});

const DimensionRef = t.Object({ id: t.String(), label: t.String({ description: 'Localized name.' }) });

const TextAnnotation = t.Object({
  sentence: t.String({ description: 'The sentence (at most 200 characters, "…" when shortened).' }),
  start: t.Integer({ description: 'Start offset in UTF-16 code units of the submitted text (inclusive).' }),
  end: t.Integer({ description: 'End offset in UTF-16 code units (exclusive).' }),
  dims: t.Array(DimensionRef, { description: 'Dimensions flagged in this sentence.' }),
});

const Bullet = t.Object({
  text: t.String({ description: 'Localized explanation of one finding.' }),
  example: t.String({ description: 'A passage of the submitted text: text.slice(start, end).' }),
  start: t.Integer({ description: 'Start offset (UTF-16, inclusive).' }),
  end: t.Integer({ description: 'End offset (UTF-16, exclusive).' }),
});

/** 200 body of single mode. */
export const DetectResponseSchema = t.Object({
  success: t.Literal(true),
  score: t.Integer({
    minimum: 0,
    maximum: 100,
    description: 'Calibrated AI likelihood, 0 (human) to 100 (AI). Independent of sensitivity.',
  }),
  verdict: t.String({ description: 'Localized verdict label.', examples: ['Likely AI'] }),
  docTypeLabel: t.String({ description: 'Localized document type (e.g. essay, email).' }),
  totalDimensions: t.Integer({ description: 'Number of dimensions evaluated.' }),
  activeDimensions: t.Integer({ description: 'Number of dimensions detected.' }),
  ms_cost: t.Number({ description: 'Processing time of the analysis in milliseconds (decimal).' }),
  rate_limit: t.Integer({ description: "Words per month of the key's plan." }),
  rate_remaining: t.Integer({ description: 'Words left this month after this request.' }),
  dimensions: t.Array(Dimension),
  textAnnotations: t.Array(TextAnnotation),
  bullets: t.Array(Bullet),
  verdictKey: t.String({ description: 'Stable verdict id: human, likely_human, mixed, likely_ai, ai.' }),
  docType: t.String({ description: 'Stable document type id.' }),
  language: t.String({ description: 'Detected language of the text: en, es or other.' }),
  sensitivity: t.String({ description: 'Sensitivity used.' }),
  probability: t.Number({ description: 'Calibrated probability (0-1) that the text is AI-generated.' }),
  words: t.Integer({ description: 'Words counted and charged (the one word definition).' }),
});

/** Body of every error response. */
export const ErrorBodySchema = t.Object({
  success: t.Literal(false),
  error: t.Object({
    code: t.Union(
      Object.keys(ERROR_STATUS).map((code) => t.Literal(code)),
      { description: 'Stable snake_case code: branch on this, never on the message.' },
    ),
    message: t.String({ description: 'Human-readable message in the negotiated language.' }),
  }),
});
