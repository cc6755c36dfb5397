/**
 * Real request/response examples of POST /api/detect for the OpenAPI document. examples.json is
 * written by `bun run docs:examples` (scripts/docs-examples.ts), which sends each request through
 * the app with the real detector; test/docs/examples.test.ts re-runs it and fails when a committed
 * example no longer matches (regenerate after retraining the model or changing a message).
 */
import type { ErrorBody, ErrorCode } from '../../http/errors';
import type { BatchLine } from '../batch/model';
import type { CalibrationView } from '../calibrations/model';
import type { DetectResponse } from '../detect/model';
import type { Limits } from '../limits/model';
import type { Usage } from '../usage/model';
import generated from './examples.json';

/** One error response as the app answered it. */
export interface ErrorExample {
  /** What was sent, for readers: "POST /api/detect {}". */
  request: string;
  status: number;
  body: ErrorBody;
}

/** Everything scripts/docs-examples.ts records. */
export interface DetectExamples {
  $comment: string;
  single: { request: { text: string; sensitivity: string }; response: DetectResponse };
  /** The README's first request (the bootstrap banner's "Try:" text), with the default sensitivity. */
  readme: { request: { text: string }; response: DetectResponse };
  /** GET /v1/usage of a trial key after that request. */
  usage: Usage;
  /** GET /v1/limits of a free key. */
  limits: Limits;
  batch: { files: string[]; lines: BatchLine[] };
  errors: Partial<Record<ErrorCode, ErrorExample>>;
  /** POST /v1/calibrations of the examples' calibration set (issue 34); absent until generated. */
  calibration?: CalibrationView;
}

/** The committed examples. */
export const EXAMPLES = generated as unknown as DetectExamples;
