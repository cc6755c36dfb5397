import { describe, expect, it, setDefaultTimeout } from 'bun:test';
import { SUITE_TIMEOUT_MS } from '../timeout';
import { AUTO_WORKERS_MAX, autoWorkers, ConfigError, loadConfig } from '../../src/config';
import { coreCount } from '../../src/cores';
import { extractWorkersPerProcess } from '../../src/modules/batch/pool';

setDefaultTimeout(SUITE_TIMEOUT_MS);

describe('config', () => {
  it('has documented defaults and is frozen', () => {
    const config = loadConfig({});
    expect(config).toEqual({
      port: 3000,
      host: '0.0.0.0',
      databasePath: './data/detector.sqlite',
      databaseUrl: null,
      storeTimeoutMs: 3000,
      maxBodyBytes: 1_048_576,
      bootstrapKey: true,
      maxFiles: 20,
      maxFileBytes: 10 * 1024 * 1024,
      maxBatchBytes: 50 * 1024 * 1024,
      maxPdfPages: 300,
      maxDocxUncompressed: 50 * 1024 * 1024,
      maxPdfInflated: 256 * 1024 * 1024,
      maxTextChars: 524_288,
      extractTimeoutMs: 30_000,
      extractHeapMb: 512,
      memoryLimitMb: 1024,
      calibrationCacheMb: 128,
      batchTimeBudgetMs: 120_000,
      workers: autoWorkers(),
      corsOrigins: null,
      metricsToken: null,
      rateLimits: true,
      holdLeaseMs: 30_000,
      clockOffsetMs: 0,
      shutdownGraceMs: 30_000,
      usageRetentionDays: 90,
      idempotencyMaxPerKey: 1_000,
    });
    expect(Object.isFrozen(config)).toBe(true);
  });

  it('reads the environment', () => {
    const config = loadConfig({
      PORT: '8080',
      HOST: '127.0.0.1',
      DATABASE_PATH: '/tmp/x.sqlite',
      MAX_BODY_BYTES: '4096',
      BOOTSTRAP_KEY: '0',
      MAX_FILES: '3',
      WORKERS: '4',
    });
    expect(config).toMatchObject({
      port: 8080,
      host: '127.0.0.1',
      databasePath: '/tmp/x.sqlite',
      maxBodyBytes: 4096,
      bootstrapKey: false,
      maxFiles: 3,
      workers: 4,
    });
  });

  it('reads WORKERS=auto (the default) as one process per core up to 8, and sizes the extraction pool to share the rest', () => {
    expect(loadConfig({ WORKERS: 'auto' }).workers).toBe(autoWorkers());
    expect(loadConfig({ WORKERS: ' AUTO ' }).workers).toBe(autoWorkers());
    expect(autoWorkers('linux', 2)).toBe(2);
    expect(autoWorkers('linux', 32)).toBe(AUTO_WORKERS_MAX);
    expect(autoWorkers('darwin', 8)).toBe(1); // no SO_REUSEPORT balancing there
    if (process.platform === 'linux') expect(autoWorkers()).toBe(Math.min(AUTO_WORKERS_MAX, coreCount()));
    expect(loadConfig({ WORKERS: '12' }).workers).toBe(12);
    expect(extractWorkersPerProcess(1, 8)).toBe(7);
    expect(extractWorkersPerProcess(8, 8)).toBe(1);
    expect(extractWorkersPerProcess(2, 2)).toBe(1);
    expect(extractWorkersPerProcess(3, 8)).toBe(3);
  });

  it('reads CORS_ORIGINS as * or an exact list of origins, and METRICS_TOKEN', () => {
    expect(loadConfig({ CORS_ORIGINS: ' * ' }).corsOrigins).toBe('*');
    expect(loadConfig({ CORS_ORIGINS: 'https://app.example.com, http://localhost:5173,https://app.example.com' }).corsOrigins).toEqual([
      'https://app.example.com',
      'http://localhost:5173',
    ]);
    expect(loadConfig({ CORS_ORIGINS: '' }).corsOrigins).toBeNull();
    expect(loadConfig({ METRICS_TOKEN: ' s3cret ' }).metricsToken).toBe('s3cret');
    // An origin the browser never sends could never match: refused, with the spelling that would.
    expect(() => loadConfig({ CORS_ORIGINS: 'https://app.example.com/' })).toThrow('did you mean "https://app.example.com"');
    expect(() => loadConfig({ CORS_ORIGINS: 'HTTPS://App.Example.com' })).toThrow('did you mean "https://app.example.com"');
  });

  for (const [name, value] of [
    ['CORS_ORIGINS', 'app.example.com'],
    ['CORS_ORIGINS', 'https://app.example.com/api'],
    ['CORS_ORIGINS', '*, https://app.example.com'],
    ['CORS_ORIGINS', 'file:///tmp'],
    ['METRICS_TOKEN', 'two words'],
    ['PORT', 'abc'],
    ['PORT', '70000'],
    ['PORT', '80.5'],
    ['MAX_BODY_BYTES', '-1'],
    ['BOOTSTRAP_KEY', 'maybe'],
    ['MAX_FILES', '0'],
    ['HOST', 'two words'],
    ['WORKERS', '0'],
    ['WORKERS', 'many'],
    ['WORKERS', '65'],
  ]) {
    it(`rejects ${name}=${value} with a message naming the variable`, () => {
      expect(() => loadConfig({ [name]: value })).toThrow(ConfigError);
      expect(() => loadConfig({ [name]: value })).toThrow(name);
    });
  }
});
