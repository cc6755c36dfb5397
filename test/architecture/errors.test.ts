/**
 * One error hierarchy (issue 20): every error that reaches a client extends CodedError, with a stable
 * `code` and an HTTP `status`; other Error subclasses stay inside the process and are listed here.
 */
import { describe, expect, it, setDefaultTimeout } from 'bun:test';
import { SUITE_TIMEOUT_MS } from '../timeout';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CodedError } from '../../src/contract/errors';
import { ExtractError } from '../../src/extract/errors';
import { ApiError } from '../../src/http/errors';
import { StoreUnavailableError } from '../../src/store/errors';
import { ApiError as PlaygroundApiError } from '../../src/web/api';
import { ROOT, sourceFiles } from './graph';

setDefaultTimeout(SUITE_TIMEOUT_MS);

/** Error classes that never reach a client (start-up failures, control flow, the CLI), and why. */
const INTERNAL_ERRORS: Record<string, string> = {
  ConfigError: 'stops the start with a message naming the variable',
  PortTakenError: 'stops the start',
  StoreOpenError: 'stops the start',
  AmbiguousKeyError: 'keys CLI only',
  ClientGoneError: 'batch control flow: the client is gone, nobody to answer',
  OverQuotaError: 'batch control flow, answered as ApiError quota_exceeded',
  MetricsUnavailableError: 'answered by the metrics route as ApiError internal_error',
  CoreUnavailableError: 'the wasm core cannot score now (memory, a failed rebuild): answered as ApiError internal_error, /health degraded',
};

describe('error hierarchy', () => {
  it('gives every error a client can receive a code and a status from one base', () => {
    const errors = [
      new ApiError('text_too_short', { count: 3, min: 20 }),
      new ExtractError('encrypted_pdf', 'the PDF is encrypted'),
      new StoreUnavailableError('SQLITE_BUSY'),
      new PlaygroundApiError(429, 'quota_exceeded', 'Quota exceeded', new Headers()),
    ];
    expect(errors.map((e) => [e instanceof CodedError, e.name, e.code, e.status])).toEqual([
      [true, 'ApiError', 'text_too_short', 400],
      [true, 'ExtractError', 'encrypted_pdf', 422],
      [true, 'StoreUnavailableError', 'store_unavailable', 503],
      [true, 'ApiError', 'quota_exceeded', 429],
    ]);
  });

  it('has no other Error subclass in src/ than CodedError and the internal ones', () => {
    const direct = sourceFiles(['src']).flatMap((file) =>
      [...readFileSync(join(ROOT, file), 'utf8').matchAll(/class (\w+)(?:<[^>]*>)? extends Error\b/g)].map((m) => m[1]),
    );
    expect(direct.filter((name) => name !== 'CodedError' && !(name in INTERNAL_ERRORS))).toEqual([]);
  });
});
