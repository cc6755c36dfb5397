/**
 * Issue 33 item 5: a client reading more slowly than the shutdown's grace period allows lost the
 * end of the stream. The audit (100 files x 17,000 words, `detail=full`, a client reading 32 KB/s):
 * 49 whole results, no `complete` line, one result charged and never received, and the server
 * exited saying `forced: false` while Bun still held buffered lines; a client stalled with a 4 KB
 * receive buffer that read at full speed after SIGTERM had its last line cut 99 s later. Now the
 * stream stops scoring at SIGTERM, its `complete` line follows what was already written and the
 * server waits for it to reach the client; the client pays for what reached it (and, if it is cut,
 * at most the one result on its way), and a process that has to cut a stream says `forced: true`. A real server process (SHUTDOWN_GRACE_MS shortened to keep the test short) and a
 * client with a minimal receive buffer (./slow-reader.ts).
 */
import { afterEach, describe, expect, it, setDefaultTimeout } from 'bun:test';
import { Database } from 'bun:sqlite';
import { join } from 'node:path';
import { SUITE_TIMEOUT_MS } from '../timeout';
import { PROSE } from '../http/helpers';
import { startFaultServer, type FaultServer } from './fault-server';
import { multipartRequest, SlowReader, wholeLines } from './slow-reader';

setDefaultTimeout(SUITE_TIMEOUT_MS);

/** 20 files of ~4,300 words: `detail=full` lines of ~135 KB. */
const FILES = Array.from({ length: 20 }, (_, i) => `Part ${i + 1}. ${PROSE} `.repeat(70));
const GRACE_MS = 6_000;

type Line = { type: string; index?: number; words?: number; total?: number; stopped?: string; unprocessed?: number[] };

let fault: FaultServer | undefined;
afterEach(async () => {
  await fault?.stop();
  fault = undefined;
});

/** Words charged to the key (the database the server wrote). */
function chargedWords(dir: string): number {
  const db = new Database(join(dir, 'db.sqlite'), { readonly: true });
  try {
    return (db.query('SELECT COALESCE(SUM(words_used), 0) AS used FROM monthly_usage').get() as { used: number }).used;
  } finally {
    db.close();
  }
}

/**
 * Streams the batch to a client with a minimal receive buffer, SIGTERMs the server once the first
 * result is read, stalls `stallMs`, then reads at `afterStall` bytes a second until the server
 * closes. Returns what the client received, the server's `stopped` log line and the charge.
 */
async function stopWhileReading(bytesPerSecond: number, stallMs: number, afterStall = bytesPerSecond) {
  fault = await startFaultServer('shutdown-slow-reader', { SHUTDOWN_GRACE_MS: String(GRACE_MS) });
  const form = new FormData();
  FILES.forEach((text, i) => form.append('files[]', new File([text], `f${i}.txt`)));
  form.append('detail', 'full');
  const client = new SlowReader(fault.server.port);
  client.send(await multipartRequest('/v1/detect', fault.key, form));
  const results = (body: string) => wholeLines<Line>(body).filter((l) => l.type === 'result');
  await client.readUntil((a) => results(a.body).length >= 1, 20_000, bytesPerSecond);
  // Time for the server to see the first result acknowledged and put the second on its way.
  await Bun.sleep(500);
  fault.server.proc.kill('SIGTERM');
  const signalledAt = performance.now();
  await Bun.sleep(stallMs);
  const answer = await client.readUntil(() => false, GRACE_MS + 10_000, afterStall);
  const endedMs = Math.round(performance.now() - signalledAt);
  client.close();
  const code = await Promise.race([fault.server.proc.exited, Bun.sleep(10_000).then(() => 'still running')]);
  const stopped = JSON.parse(await fault.server.waitFor(/"event":"stopped"/, 1_000)) as { forced?: boolean };
  const lines = wholeLines<Line>(answer.body);
  const received = lines.filter((l) => l.type === 'result');
  const charged = chargedWords(fault.dir);
  const last = lines.at(-1);
  console.log(
    `${bytesPerSecond} B/s after ${stallMs} ms: ${received.length} results, last ${JSON.stringify(last?.type === 'complete' ? last : last?.type)}, ` +
      `${answer.body.endsWith('\n') ? 'whole last line' : 'last line cut'}, connection closed ${endedMs} ms after SIGTERM, exit ${code}, forced ${stopped.forced}, ` +
      `charged ${charged} for ${received.reduce((sum, l) => sum + l.words!, 0)} received`,
  );
  return { lines, received, charged, stopped, code, endedMs, whole: answer.body.endsWith('\n') };
}

/** The final line says which files were not processed, and every file is answered or named once. */
function expectCompleteStop(lines: Line[]) {
  const last = lines.at(-1)!;
  expect(last).toMatchObject({ type: 'complete', total: FILES.length, stopped: 'shutting_down' });
  const answered = lines.filter((l) => l.type === 'result' || l.type === 'error').map((l) => l.index!);
  expect([...answered, ...last.unprocessed!].sort((a, b) => a - b)).toEqual(FILES.map((_, i) => i));
}

describe('SIGTERM while a slow client reads a batch (issue 33 item 5)', () => {
  it('a client reading 64 KB/s gets the complete line within the grace period, charged only for the results it received', async () => {
    const run = await stopWhileReading(64_000, 0);
    expect(run.whole).toBe(true);
    expectCompleteStop(run.lines);
    expect(run.endedMs).toBeLessThan(GRACE_MS);
    expect(run.code).toBe(0);
    expect(run.stopped.forced).toBe(false);
    expect(run.charged).toBe(run.received.reduce((sum, l) => sum + l.words!, 0));
  });

  it('a client stalled at SIGTERM that then reads at full speed gets the whole end of the stream at once', async () => {
    const run = await stopWhileReading(Number.POSITIVE_INFINITY, 3_000);
    expect(run.whole).toBe(true);
    expectCompleteStop(run.lines);
    expect(run.endedMs).toBeLessThan(3_000 + 2_000);
    expect(run.stopped.forced).toBe(false);
    expect(run.charged).toBe(run.received.reduce((sum, l) => sum + l.words!, 0));
  });

  it('a client that never reads again is cut at the grace period, logged forced, and charged what reached it and at most the one result on its way', async () => {
    const run = await stopWhileReading(64_000, GRACE_MS + 1_000, Number.POSITIVE_INFINITY);
    expect(run.stopped.forced).toBe(true);
    expect(run.code).toBe(0);
    // At most the result whose line was on its way when the connection was cut (it reached the client's kernel, not the client).
    expect(run.charged).toBeLessThanOrEqual(run.received.reduce((sum, l) => sum + l.words!, 0) + run.received[0].words!);
  });
});
