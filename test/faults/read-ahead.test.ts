/**
 * Issue 33 item 3: a client that stops reading was charged for results it never read. The stream
 * scored ahead as far as the kernel's socket buffers absorbed (up to 4 MB): 12 x 4,340-word files,
 * a client that read 2 results and hung up was charged for all 12. Now a file is scored only once
 * everything written before it has been acknowledged by the client's TCP stack; a result is counted
 * on the hold as its line is handed over (issue 33 items 1-2), so the client pays for what reached
 * it and at most the one result on its way. A real server process and a client whose receive
 * buffer is as small as Linux allows (./slow-reader.ts), so the bound does not depend on kernel
 * autotuning.
 */
import { afterAll, beforeAll, describe, expect, it, setDefaultTimeout } from 'bun:test';
import { Database } from 'bun:sqlite';
import { join } from 'node:path';
import { SUITE_TIMEOUT_MS } from '../timeout';
import { PROSE } from '../http/helpers';
import { startFaultServer, type FaultServer } from './fault-server';
import { multipartRequest, SlowReader, wholeLines } from './slow-reader';

setDefaultTimeout(SUITE_TIMEOUT_MS);

/** 12 files of ~4,300 words, each different (numbered), as in the audit. */
const FILES = Array.from({ length: 12 }, (_, i) => `Part ${i + 1}. ${PROSE} `.repeat(70));

type Line = { type: string; index?: number; words?: number };

let fault: FaultServer;
beforeAll(async () => {
  fault = await startFaultServer('read-ahead');
});
afterAll(() => fault?.stop());

/** Words charged to the key so far (the database the server writes). */
function chargedWords(): number {
  const db = new Database(join(fault.dir, 'db.sqlite'), { readonly: true });
  try {
    return (db.query('SELECT COALESCE(SUM(words_used), 0) AS used FROM monthly_usage').get() as { used: number }).used;
  } finally {
    db.close();
  }
}

/** Waits until the charge stops moving (the hang-up's settlement is written). */
async function settledCharge(): Promise<number> {
  let last = -1;
  for (;;) {
    await Bun.sleep(300);
    const now = chargedWords();
    if (now === last) return now;
    last = now;
  }
}

/** Sends a 12-file batch from a client with a minimal receive buffer, reads `read` results, stops reading for 3 s and hangs up; what was read and charged. */
async function readThenHangUp(read: number, fields: Record<string, string>, headers = '') {
  const before = chargedWords();
  const form = new FormData();
  FILES.forEach((text, i) => form.append('files[]', new File([text], `f${i}.txt`)));
  for (const [name, value] of Object.entries(fields)) form.append(name, value);
  const client = new SlowReader(fault.server.port);
  client.send(await multipartRequest('/v1/detect', fault.key, form, headers));
  const results = (body: string) => wholeLines<Line>(body).filter((l) => l.type === 'result');
  // A fraction of a line at a time: the client takes from its kernel hardly more than the lines it reads.
  const chunk = fields.detail === 'full' ? 16_384 : 256;
  const answer = await client.readUntil((a) => results(a.body).length >= read, 20_000, Number.POSITIVE_INFINITY, chunk);
  expect(answer.head).toStartWith('HTTP/1.1 200');
  const lines = results(answer.body);
  expect(lines).toHaveLength(read);
  // Stops reading: the audit's client waited 5 s, then hung up.
  await Bun.sleep(3_000);
  client.close();
  const charged = (await settledCharge()) - before;
  const perFile = lines[0].words!;
  const readWords = lines.reduce((sum, l) => sum + l.words!, 0);
  const lineBytes = Buffer.byteLength(answer.body.split('\n').find((l) => l.includes('"type":"result"'))!);
  console.log(
    `${JSON.stringify(fields)}${headers ? ' keyed' : ''}: result lines of ${lineBytes} bytes; read ${lines.length} results (${readWords} words), charged ${charged} words (${charged / perFile} results of ${FILES.length})`,
  );
  return { charged, readWords, perFile, lineBytes };
}

describe('a client that stops reading (issue 33 item 3)', () => {
  it('is charged for at most one result beyond those it read, with detail=full lines', async () => {
    const { charged, readWords, perFile } = await readThenHangUp(2, { detail: 'full' });
    expect(charged).toBeGreaterThanOrEqual(readWords);
    expect(charged).toBeLessThanOrEqual(readWords + perFile);
  });

  it('holds the same bound for a keyed batch (its answer is captured for replays on the way out)', async () => {
    const { charged, readWords, perFile } = await readThenHangUp(2, { detail: 'full' }, `Idempotency-Key: ${crypto.randomUUID()}\r\n`);
    expect(charged).toBeGreaterThanOrEqual(readWords);
    expect(charged).toBeLessThanOrEqual(readWords + perFile);
  });

  it('with short lines, is charged at most for what its own receive buffer took beyond what it read, plus one', async () => {
    const { charged, readWords, perFile, lineBytes } = await readThenHangUp(2, {});
    // Linux doubles the 4,096 bytes asked for; the results whose lines fit in it reached the client's
    // machine (8 measured, 577-byte lines): charged, as they would be from any TCP client.
    const inBuffer = Math.floor(8192 / lineBytes);
    expect(charged).toBeGreaterThanOrEqual(readWords);
    expect(charged).toBeLessThanOrEqual(readWords + (inBuffer + 1) * perFile);
  });
});
