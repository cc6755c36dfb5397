/** Environment configuration, parsed once at start-up into a frozen, typed object. */
import { mkdirSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { DEFAULT_MAX_TEXT_CHARS, MAX_TEXT_CHARS_CEILING } from './contract/text-length';
import { coreCount } from './cores';

const MB = 1024 * 1024;

/** Everything the service reads from the environment (one place, documented in the README). */
export interface Config {
  /** TCP port to listen on (PORT, default 3000). */
  readonly port: number;
  /** Interface to bind (HOST, default 0.0.0.0). */
  readonly host: string;
  /** SQLite file (DATABASE_PATH, default ./data/detector.sqlite); ':memory:' for tests. Unused when databaseUrl is set. */
  readonly databasePath: string;
  /** PostgreSQL instead of SQLite (DATABASE_URL=postgres://user:password@host:port/db); null for SQLite. */
  readonly databaseUrl: string | null;
  /** Longest a request waits for a busy or unreachable store before 503 store_unavailable (STORE_TIMEOUT_MS, default 3000). */
  readonly storeTimeoutMs: number;
  /** Largest JSON body accepted by single mode (MAX_BODY_BYTES, default 1 MiB). */
  readonly maxBodyBytes: number;
  /** Create and print a free key on first start when the database has none (BOOTSTRAP_KEY, default on). */
  readonly bootstrapKey: boolean;
  /** Batch: most files per request (MAX_FILES, default 20). */
  readonly maxFiles: number;
  /** Batch: largest single file (MAX_FILE_BYTES, default 10 MiB). */
  readonly maxFileBytes: number;
  /** Batch: largest multipart request (MAX_BATCH_BYTES, default 50 MiB). */
  readonly maxBatchBytes: number;
  /** Batch: most pages read from one PDF (MAX_PDF_PAGES, default 300). */
  readonly maxPdfPages: number;
  /** Batch: largest declared uncompressed size of a DOCX, checked before inflating (MAX_DOCX_UNCOMPRESSED, default 50 MiB). */
  readonly maxDocxUncompressed: number;
  /** Batch: total bytes one PDF's streams may inflate to, counted while pdf.js reads it (MAX_PDF_INFLATED, default 256 MiB). */
  readonly maxPdfInflated: number;
  /**
   * Most characters (UTF-16 code units) of one text, as sent and once normalised: a detection's
   * (413 text_too_long), a batch file's of any format (extract_limit text_chars, counted while a PDF
   * or DOCX is read), a calibration text's (skipped) (MAX_TEXT_CHARS, default 512 Ki, at most 4 Mi):
   * what bounds how long one text holds the event loop (src/contract/text-length.ts).
   */
  readonly maxTextChars: number;
  /** Batch: time one PDF/DOCX may take in an extraction worker before it is stopped (EXTRACT_TIMEOUT_MS, default 30000). */
  readonly extractTimeoutMs: number;
  /** Batch: heap ceiling of each extraction worker thread, checked while it reads (EXTRACT_HEAP_MB, default 512). */
  readonly extractHeapMb: number;
  /** RSS one server process aims to stay under: garbage is collected above half of it, extraction stops above it (MEMORY_LIMIT_MB, default 1024). */
  readonly memoryLimitMb: number;
  /**
   * Megabytes of parsed calibration profiles one server process keeps cached, counted as their stored
   * JSON (src/store/calibration-cache.ts; CALIBRATION_CACHE_MB, default MEMORY_LIMIT_MB / CALIBRATION_CACHE_SHARE).
   */
  readonly calibrationCacheMb: number;
  /** Batch: wall-clock budget for one batch in ms (BATCH_TIME_BUDGET_MS, default 120000). */
  readonly batchTimeBudgetMs: number;
  /** Server processes sharing the port (WORKERS: a number, or `auto`, the default: one per core, at most AUTO_WORKERS_MAX). */
  readonly workers: number;
  /** Browser origins granted CORS (CORS_ORIGINS: a comma list of origins, or `*`); null (the default) grants none. */
  readonly corsOrigins: CorsOrigins | null;
  /** Bearer token GET /metrics requires (METRICS_TOKEN); null: /metrics is open. */
  readonly metricsToken: string | null;
  /** Per-key request rates of the plans (RATE_LIMITS, default on; off when a gateway in front limits rates). */
  readonly rateLimits: boolean;
  /**
   * Lease of a charge hold (HOLD_LEASE_MS, default 30000): a process renews its holds every third of
   * it; a hold not renewed for this long is given back and its process may deliver no more under it.
   */
  readonly holdLeaseMs: number;
  /**
   * Fault tests only (CLOCK_OFFSET_MS, default 0): added to this process's clock where the charge
   * holds read it, to simulate a machine whose clock is off (docs/faults.md).
   */
  readonly clockOffsetMs: number;
  /**
   * Longest a stopping process waits for its open connections (SHUTDOWN_GRACE_MS, default 30000):
   * batch streams stop scoring at the signal and their last lines have this long to reach their
   * clients; past it, what is still open is closed (logged `forced: true`).
   */
  readonly shutdownGraceMs: number;
  /**
   * Days a usage event is kept as a row (USAGE_RETENTION_DAYS, default 90; 0 keeps every row):
   * older ones are folded into per-key monthly totals and deleted (issue 33).
   */
  readonly usageRetentionDays: number;
  /** Answers kept for Idempotency-Key retries per API key (IDEMPOTENCY_MAX_PER_KEY, default 1000; 0: no bound); the oldest go first. */
  readonly idempotencyMaxPerKey: number;
}

/** Origins CORS grants: every origin, or exactly these (serialized origins, e.g. https://app.example.com). */
export type CorsOrigins = '*' | readonly string[];

/** Raised when an environment variable has a value the service cannot run with. */
export class ConfigError extends Error {
  override name = 'ConfigError';
}

type Env = Record<string, string | undefined>;

function readInt(env: Env, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name];
  if (raw === undefined || raw.trim() === '') return fallback;
  const value = Number(raw.trim());
  if (!Number.isInteger(value) || value < min || value > max) {
    throw new ConfigError(`${name} must be an integer between ${min} and ${max}, got "${raw}"`);
  }
  return value;
}

function readBool(env: Env, name: string, fallback: boolean): boolean {
  const raw = env[name]?.trim().toLowerCase();
  if (raw === undefined || raw === '') return fallback;
  if (['1', 'true', 'yes', 'on'].includes(raw)) return true;
  if (['0', 'false', 'no', 'off'].includes(raw)) return false;
  throw new ConfigError(`${name} must be 1/0 (or true/false), got "${env[name]}"`);
}

function readHost(env: Env): string {
  const raw = env.HOST?.trim();
  if (raw === undefined || raw === '') return '0.0.0.0';
  if (/\s/.test(raw)) throw new ConfigError(`HOST must be a host name or IP address, got "${raw}"`);
  return raw;
}

/** Most server processes WORKERS accepts (each holds its own engine, ~65 MB idle). */
export const MAX_WORKERS = 64;
/**
 * What `auto` (the default) starts at most: past this, more processes mostly contend for SQLite's
 * write lock and memory; set a number to go beyond.
 */
export const AUTO_WORKERS_MAX = 8;

/** `auto`: one process per core on Linux, where SO_REUSEPORT spreads connections; elsewhere one. */
export function autoWorkers(platform: NodeJS.Platform = process.platform, cores: number = coreCount()): number {
  return platform === 'linux' ? Math.min(AUTO_WORKERS_MAX, cores) : 1;
}

function readWorkers(env: Env): number {
  const raw = env.WORKERS?.trim().toLowerCase();
  if (raw === undefined || raw === '' || raw === 'auto') return autoWorkers();
  return readInt(env, 'WORKERS', 1, 1, MAX_WORKERS);
}

function readDatabaseUrl(env: Env): string | null {
  const raw = env.DATABASE_URL?.trim();
  if (raw === undefined || raw === '') return null;
  if (!/^postgres(ql)?:\/\/[^/]/.test(raw)) {
    throw new ConfigError(
      'DATABASE_URL must be a PostgreSQL URL (postgres://user:password@host:port/database); leave it unset for SQLite (DATABASE_PATH)',
    );
  }
  return raw;
}

/**
 * CORS_ORIGINS: `*`, or origins as browsers send them in the Origin header (scheme://host[:port],
 * no path, no trailing slash): matching is exact, so a value that could never match is refused here.
 */
function readCorsOrigins(env: Env): CorsOrigins | null {
  const raw = env.CORS_ORIGINS?.trim();
  if (raw === undefined || raw === '') return null;
  if (raw === '*') return '*';
  const origins = raw
    .split(',')
    .map((part) => part.trim())
    .filter((part) => part !== '');
  for (const origin of origins) {
    let serialized: string | null = null;
    try {
      serialized = new URL(origin).origin;
    } catch {
      // reported below
    }
    if (serialized !== origin || serialized === 'null') {
      const hint = serialized && serialized !== 'null' ? ` (did you mean "${serialized}"?)` : '';
      throw new ConfigError(`CORS_ORIGINS must be * or a comma list of origins like https://app.example.com, got "${origin}"${hint}`);
    }
  }
  return Object.freeze([...new Set(origins)]);
}

/** METRICS_TOKEN: any non-blank value without whitespace (it travels in an Authorization header). */
function readMetricsToken(env: Env): string | null {
  const raw = env.METRICS_TOKEN?.trim();
  if (raw === undefined || raw === '') return null;
  if (/\s/.test(raw)) throw new ConfigError('METRICS_TOKEN must not contain whitespace');
  return raw;
}

/**
 * The calibration cache's default share of MEMORY_LIMIT_MB: an eighth (128 MB of JSON of the default
 * 1024). A parsed profile's heap is 0.80-0.85x its JSON on Bun (two adapted profiles of dev data, 435
 * and 523 KB: docs/faults.md, "Issue 44"), so a full cache holds about the budget: the rest of
 * the aim is left to scoring and batches (887 MB RSS with 300 large profiles before the bound).
 */
export const CALIBRATION_CACHE_SHARE = 8;

/** Parses and validates the environment; throws ConfigError with a clear message on bad values. */
export function loadConfig(env: Env = process.env): Config {
  const databasePath = env.DATABASE_PATH?.trim() || './data/detector.sqlite';
  const memoryLimitMb = readInt(env, 'MEMORY_LIMIT_MB', 1024, 128, 1_048_576);
  return Object.freeze({
    port: readInt(env, 'PORT', 3000, 0, 65535),
    host: readHost(env),
    databasePath,
    databaseUrl: readDatabaseUrl(env),
    storeTimeoutMs: readInt(env, 'STORE_TIMEOUT_MS', 3000, 100, 60_000),
    maxBodyBytes: readInt(env, 'MAX_BODY_BYTES', 1 * MB, 1024, 1024 * MB),
    bootstrapKey: readBool(env, 'BOOTSTRAP_KEY', true),
    maxFiles: readInt(env, 'MAX_FILES', 20, 1, 10_000),
    maxFileBytes: readInt(env, 'MAX_FILE_BYTES', 10 * MB, 1, 1024 * MB),
    maxBatchBytes: readInt(env, 'MAX_BATCH_BYTES', 50 * MB, 1, 4096 * MB),
    maxPdfPages: readInt(env, 'MAX_PDF_PAGES', 300, 1, 100_000),
    maxDocxUncompressed: readInt(env, 'MAX_DOCX_UNCOMPRESSED', 50 * MB, 1, 4096 * MB),
    maxPdfInflated: readInt(env, 'MAX_PDF_INFLATED', 256 * MB, 1 * MB, 16384 * MB),
    maxTextChars: readInt(env, 'MAX_TEXT_CHARS', DEFAULT_MAX_TEXT_CHARS, 1000, MAX_TEXT_CHARS_CEILING),
    extractTimeoutMs: readInt(env, 'EXTRACT_TIMEOUT_MS', 30_000, 100, 3_600_000),
    extractHeapMb: readInt(env, 'EXTRACT_HEAP_MB', 512, 64, 65_536),
    memoryLimitMb,
    calibrationCacheMb: readInt(env, 'CALIBRATION_CACHE_MB', Math.floor(memoryLimitMb / CALIBRATION_CACHE_SHARE), 1, 1_048_576),
    batchTimeBudgetMs: readInt(env, 'BATCH_TIME_BUDGET_MS', 120_000, 100, 3_600_000),
    workers: readWorkers(env),
    corsOrigins: readCorsOrigins(env),
    metricsToken: readMetricsToken(env),
    rateLimits: readBool(env, 'RATE_LIMITS', true),
    holdLeaseMs: readInt(env, 'HOLD_LEASE_MS', 30_000, 300, 3_600_000),
    clockOffsetMs: readInt(env, 'CLOCK_OFFSET_MS', 0, -86_400_000, 86_400_000),
    shutdownGraceMs: readInt(env, 'SHUTDOWN_GRACE_MS', 30_000, 1_000, 3_600_000),
    usageRetentionDays: readInt(env, 'USAGE_RETENTION_DAYS', 90, 0, 36_500),
    idempotencyMaxPerKey: readInt(env, 'IDEMPOTENCY_MAX_PER_KEY', 1_000, 0, 10_000_000),
  });
}

/** Creates the database file's directory when missing (no-op for ':memory:'). */
export function ensureDatabaseDir(databasePath: string): void {
  if (databasePath === ':memory:' || databasePath.startsWith('file:')) return;
  mkdirSync(dirname(resolve(databasePath)), { recursive: true });
}

/** Bytes Bun itself accepts per request: the batch limit plus room for multipart framing. */
export function serverBodyLimit(config: Config): number {
  return Math.max(config.maxBatchBytes, config.maxBodyBytes) + 1 * MB;
}
