import { afterAll, describe, expect, it, setDefaultTimeout } from 'bun:test';
import { SUITE_TIMEOUT_MS } from '../timeout';
import { t } from '../../src/i18n';
import { PROSE } from '../http/helpers';
import { closeBatchPools, batchForm, makeBatchApp, postBatch, readLines, wordsUsed } from './helpers';

setDefaultTimeout(SUITE_TIMEOUT_MS);

afterAll(closeBatchPools);

async function errorCode(response: Response): Promise<string> {
  const body = await response.json();
  expect(body.success).toBe(false);
  return body.error.code;
}

describe('batch mode: limits', () => {
  it('answers 413 too_many_files past MAX_FILES (default 20) and charges nothing', async () => {
    const { app, db, newKey, config } = makeBatchApp();
    expect(config.maxFiles).toBe(20);
    const key = await newKey();
    const uploads = Array.from({ length: 21 }, (_, i) => [`f${i}.txt`, PROSE] as [string, string]);
    const response = await postBatch(app, key.key, batchForm(uploads));
    expect(response.status).toBe(413);
    expect(await errorCode(response)).toBe('too_many_files');
    expect(wordsUsed(db, key.id)).toBe(0);
    expect((await postBatch(app, key.key, batchForm(uploads.slice(0, 20)))).status).toBe(200);
  });

  it('answers 413 payload_too_large past MAX_BATCH_BYTES, declared or streamed', async () => {
    const { app, newKey } = makeBatchApp({ MAX_BATCH_BYTES: String(64 * 1024) });
    const key = (await newKey()).key;
    const big = batchForm([['a.txt', PROSE.repeat(200)]]);
    const declared = await postBatch(app, key, big);
    expect(declared.status).toBe(413);
    const body = await declared.json();
    expect(body.error).toEqual({ code: 'payload_too_large', message: t('en', 'errors.payload_too_large', { limit: 65536 }) });
    // Same body without Content-Length (chunked): counted while it streams.
    const encoded = new Response(big);
    const type = encoded.headers.get('content-type')!;
    const bytes = new Uint8Array(await encoded.arrayBuffer());
    const stream = new ReadableStream({
      start(controller) {
        for (let at = 0; at < bytes.length; at += 8192) controller.enqueue(bytes.slice(at, at + 8192));
        controller.close();
      },
    });
    const chunked = await postBatch(app, key, stream, { headers: { 'content-type': type } });
    expect(chunked.status).toBe(413);
    expect(await errorCode(chunked)).toBe('payload_too_large');
  });

  it('answers file_too_large for one file past MAX_FILE_BYTES and scores the others', async () => {
    const { app, newKey } = makeBatchApp({ MAX_FILE_BYTES: '2000' });
    const lines = await readLines(
      await postBatch(
        app,
        (await newKey()).key,
        batchForm([
          ['big.txt', PROSE.repeat(10)],
          ['ok.txt', PROSE],
        ]),
      ),
    );
    expect(lines[1]).toEqual({
      type: 'error',
      index: 0,
      fileName: 'big.txt',
      code: 'file_too_large',
      message: t('en', 'errors.file_too_large', { limit: 2000 }),
    });
    expect(lines[3].type).toBe('result');
  });

  it('applies MAX_DOCX_UNCOMPRESSED and MAX_PDF_PAGES per file, quoting the limit that was hit', async () => {
    const { makeDocx, makePdf } = await import('../fixtures/make');
    const { app, newKey } = makeBatchApp({ MAX_PDF_PAGES: '2', MAX_DOCX_UNCOMPRESSED: '2048' });
    const docx = await makeDocx([PROSE.repeat(10)]);
    const pdf = makePdf(['page one has words', 'page two', 'page three']);
    const form = batchForm(
      [
        ['long.docx', docx],
        ['long.pdf', pdf],
      ],
      { lang: 'es' },
    );
    const errors = (await readLines(await postBatch(app, (await newKey()).key, form))).filter((l) => l.type === 'error');
    expect(errors.map((l) => l.code)).toEqual(['extract_limit', 'extract_limit']);
    // Issue 16 (8): each message names its own limit (it used to quote the 10 MiB byte limit).
    expect(errors[0].message).toMatch(/^El DOCX ocupa más de 2048 bytes al descomprimirlo\.$/);
    expect(errors[1].message).toBe('El PDF tiene 3 páginas, más que el límite de 2.');
  });

  it('rejects a bad sensitivity, a form without files and a form with text in files[]', async () => {
    const { app, newKey } = makeBatchApp();
    const key = (await newKey()).key;
    const bad = await postBatch(app, key, batchForm([['a.txt', PROSE]], { sensitivity: 'paranoid' }));
    expect(bad.status).toBe(400);
    expect(await errorCode(bad)).toBe('invalid_sensitivity');
    const none = new FormData();
    none.append('sensitivity', 'balanced');
    const empty = await postBatch(app, key, none);
    expect(empty.status).toBe(400);
    expect(await errorCode(empty)).toBe('invalid_request');
    const textPart = new FormData();
    textPart.append('files[]', 'not a file');
    const notFile = await postBatch(app, key, textPart);
    expect(notFile.status).toBe(400);
    expect(await errorCode(notFile)).toBe('invalid_request');
  });

  it('still asks for the key first (401) and answers a broken multipart body with 400', async () => {
    const { app, newKey } = makeBatchApp();
    const noKey = await app.handle(new Request('http://localhost/api/detect', { method: 'POST', body: batchForm([['a.txt', PROSE]]) }));
    expect(noKey.status).toBe(401);
    const broken = await postBatch(app, (await newKey()).key, '--nope\r\ngarbage', {
      headers: { 'content-type': 'multipart/form-data; boundary=xyz' },
    });
    expect(broken.status).toBe(400);
    expect(await errorCode(broken)).toBe('invalid_request');
  });

  it('gives files still being read when the time budget runs out a batch_timeout line', async () => {
    const { makePdf } = await import('../fixtures/make');
    const { app, newKey } = makeBatchApp({ BATCH_TIME_BUDGET_MS: '100' });
    const page = Array.from({ length: 45 }, () => 'The committee reviewed every line of the report before approving it today').join('\n');
    const heavy = makePdf(Array.from({ length: 150 }, () => page));
    const uploads = Array.from({ length: 4 }, (_, i) => [`heavy${i}.pdf`, heavy] as [string, Uint8Array]);
    const lines = await readLines(await postBatch(app, (await newKey()).key, batchForm(uploads)));
    const errors = lines.filter((l) => l.type === 'error');
    expect(errors.length).toBeGreaterThan(0);
    expect(errors[0]).toMatchObject({ code: 'batch_timeout', message: t('en', 'errors.batch_timeout', { seconds: 0.1 }) });
    expect(lines.at(-1)).toEqual({ type: 'complete', total: 4 });
  });
});
