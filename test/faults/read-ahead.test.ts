/**
 * Issue 33 item 3: a client that stops reading was charged for results it never read. The stream
 * scored ahead as far as the kernel's socket buffers absorbed (up to 4 MB): 12 x 4,340-word files,
 * a client that read 2 results and hung up was charged for all 12. Now a file is scored only once
 * everything written before it has been acknowledged by the client's TCP stack, and a result is
 * charged only once its line has been. A real server process and a client whose receive buffer is
 * as small as Linux allows (./slow-reader.ts), so the bound does not depend on kernel autotuning.
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

describe('a client that stops reading (issue 33 item 3)', () => {
  it('is charged for at most one result beyond those it read, with detail=full lines', async () => {
    const before = chargedWords();
    const form = new FormData();
    FILES.forEach((text, i) => form.append('files[]', new File([text], `f${i}.txt`)));
    form.append('detail', 'full');
    const client = new SlowReader(fault.server.port);
    client.send(await multipartRequest('/v1/detect', fault.key, form));
    const results = (body: string) => wholeLines<Line>(body).filter((l) => l.type === 'result');
    const answer = await client.readUntil((a) => results(a.body).length >= 2, 20_000);
    expect(answer.head).toStartWith('HTTP/1.1 200');
    const read = results(answer.body);
    expect(read).toHaveLength(2);
    // Stops reading: the audit's client waited 5 s, then hung up.
    await Bun.sleep(3_000);
    client.close();
    const charged = (await settledCharge()) - before;
    const perFile = read[0].words!;
    const readWords = read.reduce((sum, l) => sum + l.words!, 0);
    console.log(`read ${read.length} results (${readWords} words), charged ${charged} words (${charged / perFile} results of ${FILES.length})`);
    expect(charged).toBeGreaterThanOrEqual(readWords);
    expect(charged).toBeLessThanOrEqual(readWords + perFile);
  });
});
