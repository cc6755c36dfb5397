/** Rate module: per-key GCRA buckets in the store, for the request rate (requests.ts) and the extraction throttle (batch/exhausted.ts). */
export { available, msUntilNext, secondsUntilFull, stepMs, type RatePolicy } from './gcra';
export {
  admitRequest,
  bucketOf,
  rateHeaders,
  READS_PER_MINUTE_FLOOR,
  REQUEST_WINDOW_MS,
  requestPolicy,
  type RequestBucket,
} from './requests';
