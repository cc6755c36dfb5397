/** Idempotency module (issue 22): Idempotency-Key on POST /v1/detect and /api/detect, single and batch. */
export { jsonFingerprint, multipartFingerprint, recordId, recordKeys, seal, unseal, type RecordKeys } from './crypto';
export {
  createIdempotency,
  DEFAULT_IDEMPOTENCY_WAIT_MS,
  IDEMPOTENCY_KEY_HEADER,
  IDEMPOTENCY_KEY_PATTERN,
  IDEMPOTENCY_TTL_MS,
  idempotencyKeyOf,
  REPLAYED_HEADER,
  type Idempotency,
  type IdempotencyOptions,
  type IdempotentAnswer,
  type IdempotentCall,
  type RecordRef,
} from './service';
