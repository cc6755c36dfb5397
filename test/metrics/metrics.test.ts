/**
 * Issue 15 item 5: GET /metrics, one view across the WORKERS processes. A real server with
 * WORKERS=2 serves detections, a batch and a refusal from both processes; every scrape, whichever
 * process answers it, shows all of them; counters never go down when a worker dies.
 */
import { afterAll, beforeAll, describe, expect, it, setDefaultTimeout } from 'bun:test';
import { SUITE_TIMEOUT_MS } from '../timeout';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { childrenOf, startServerProcess, until, type ServerProcess, bootstrapKeyOf } from '../fixtures/server-process';

setDefaultTimeout(SUITE_TIMEOUT_MS);

const ROOT = join(import.meta.dir, '../..');
const TOKEN = 'scrape-token-123';
/** 60 words (test/http/helpers' PROSE, which would load the engine into this test process). */
const PROSE =
  'In today’s fast-paced world, it is important to note that technology plays a crucial role in our daily lives. ' +
  'Moreover, it offers numerous benefits that enhance productivity and foster innovation across many industries. ' +
  'Furthermore, by leveraging these tools, organizations can streamline their operations and unlock new opportunities. ' +
  'Ultimately, embracing this transformation is essential for long-term success in a competitive landscape.';
const dir = mkdtempSync(join(tmpdir(), 'detector-metrics-'));
let server: ServerProcess;
let key = '';

beforeAll(async () => {
  server = await startServerProcess(['bun', 'src/main.ts', 'serve'], {
    cwd: ROOT,
    env: { DATABASE_PATH: join(dir, 'metrics.sqlite'), WORKERS: '2', METRICS_TOKEN: TOKEN },
  });
  await server.waitFor(/"event":"worker_listening"/);
  key = await bootstrapKeyOf(server);
}, 30_000);
afterAll(async () => {
  await server?.stop();
  rmSync(dir, { recursive: true, force: true });
});

/** A request on a new TCP connection: SO_REUSEPORT spreads connections over the processes, not requests. */
function send(path: string, init: RequestInit = {}): Promise<Response> {
  return fetch(`${server.base}${path}`, {
    ...init,
    headers: { ...(init.headers as Record<string, string>), connection: 'close' },
    keepalive: false,
  });
}

/** The value of one sample line (`name{labels} value`), or undefined. */
function sample(text: string, series: string): number | undefined {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

async function scrape(): Promise<string> {
  const response = await send('/metrics', { headers: { authorization: `Bearer ${TOKEN}` } });
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toStartWith('text/plain; version=0.0.4');
  return response.text();
}

/** Pids of the processes that logged a request for `path`. */
function servedBy(path: string): Set<number> {
  return new Set(
    server.lines.filter((l) => l.includes('"event":"request"') && l.includes(`"path":"${path}"`)).map((l) => JSON.parse(l).pid),
  );
}

describe('GET /metrics with WORKERS=2', () => {
  it('asks for the Bearer token when METRICS_TOKEN is set', async () => {
    const none = await send('/metrics');
    expect(none.status).toBe(401);
    expect(none.headers.get('www-authenticate')).toBe('Bearer realm="metrics"');
    const wrong = await send('/metrics', { headers: { authorization: 'Bearer nope' } });
    expect(wrong.status).toBe(401);
    expect(wrong.headers.get('www-authenticate')).toContain('error="invalid_token"');
    expect(await wrong.text()).not.toContain('ai_detector_');
  });

  it('shows the requests, words, refusals and batch files of both processes in every scrape', async () => {
    const json = (text: string) => ({
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': key },
      body: JSON.stringify({ text }),
    });
    const detections = await Promise.all(Array.from({ length: 12 }, () => send('/api/detect', json(PROSE))));
    expect(detections.map((r) => r.status)).toEqual(Array(12).fill(200));
    // More words than the free month holds: refused (413 exceeds_plan, issue 28), nothing analysed.
    const refused = await send('/api/detect', json('word '.repeat(10_001)));
    expect(refused.status).toBe(413);
    const form = new FormData();
    form.append('files[]', new File([PROSE], 'essay.txt'));
    form.append('files[]', new File([new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])], 'image.png'));
    const batch = await send('/api/detect', { method: 'POST', headers: { 'x-api-key': key }, body: form });
    expect(batch.status).toBe(200);
    expect(await batch.text()).toContain('"type":"complete"');
    expect(servedBy('/api/detect').size).toBe(2);

    const scrapes = [];
    for (let i = 0; i < 10; i++) scrapes.push(await scrape());
    // Whichever process answered, each scrape counts everything both did.
    for (const text of scrapes) {
      expect(sample(text, 'ai_detector_http_requests_total{route="/api/detect",method="POST",status="200"}')).toBe(13);
      expect(sample(text, 'ai_detector_http_requests_total{route="/api/detect",method="POST",status="413"}')).toBe(1);
      expect(sample(text, 'ai_detector_words_analysed_total{mode="single"}')).toBe(12 * 60);
      expect(sample(text, 'ai_detector_words_analysed_total{mode="batch"}')).toBe(60);
      expect(sample(text, 'ai_detector_quota_rejections_total{code="exceeds_plan"}')).toBe(1);
      expect(sample(text, 'ai_detector_batch_files_total{outcome="result"}')).toBe(1);
      expect(sample(text, 'ai_detector_batch_files_total{outcome="unsupported_format"}')).toBe(1);
      expect(sample(text, 'ai_detector_http_request_duration_seconds_count{route="/api/detect",mode="single"}')).toBe(12);
      expect(sample(text, 'ai_detector_http_request_duration_seconds_count{route="/api/detect",mode="batch"}')).toBe(1);
      expect(sample(text, 'ai_detector_extraction_queue_depth')).toBe(0);
      expect(sample(text, 'ai_detector_processes')).toBe(2);
    }
    // Both processes answered scrapes (all 10 on one: a 1-in-512 event).
    expect(servedBy('/metrics').size).toBe(2);
  }, 30_000);

  it('never counts less after a worker dies: its last counts stay', async () => {
    const before = await scrape();
    const total = (text: string) => sample(text, 'ai_detector_http_requests_total{route="/api/detect",method="POST",status="200"}')!;
    const [worker] = childrenOf(server.pid);
    expect(worker).toBeGreaterThan(0);
    const count = (event: string) => server.lines.filter((l) => l.includes(`"event":"${event}"`)).length;
    const listening = count('worker_listening');
    process.kill(worker, 'SIGKILL');
    await until(() => count('worker_exited') === 1);
    const after = await scrape();
    expect(total(after)).toBe(total(before));
    expect(sample(after, 'ai_detector_processes')).toBe(1);
    expect(await until(() => count('worker_listening') === listening + 1)).toBe(true);
    // The replacement starts from zero; the dead worker's share is still counted.
    const restarted = await scrape();
    expect(total(restarted)).toBe(total(before));
    expect(sample(restarted, 'ai_detector_processes')).toBe(2);
  }, 30_000);
});
