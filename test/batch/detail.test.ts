import { afterAll, describe, expect, it, setDefaultTimeout } from 'bun:test';
import { SUITE_TIMEOUT_MS } from '../timeout';
import { detector, PROSE } from '../http/helpers';
import { batchForm, closeBatchPools, makeBatchApp, postBatch, readLines, sampleBatch } from './helpers';

setDefaultTimeout(SUITE_TIMEOUT_MS);

afterAll(closeBatchPools);

const EXPLANATION = ['text', 'dimensions', 'textAnnotations', 'bullets', 'segments', 'sentenceScores'];

describe('batch detail=full', () => {
  it('adds the single-mode explanation to each result line, offsets into the extracted text', async () => {
    const { app, newKey } = makeBatchApp();
    const { uploads, texts } = await sampleBatch();
    const response = await postBatch(app, (await newKey()).key, batchForm(uploads, { detail: 'full', lang: 'es' }));
    expect(response.status).toBe(200);
    const lines = await readLines(response);
    const results = lines.filter((l) => l.type === 'result');
    expect(results.length).toBeGreaterThan(0);
    for (const line of results) {
      const text = texts[line.index as number];
      const analysis = detector().analyze(text, { labelLang: 'es', sensitivity: 'conservative' });
      expect(line.dimensions).toEqual(analysis.dimensions);
      expect(line.textAnnotations).toEqual(analysis.textAnnotations);
      expect(line.bullets).toEqual(analysis.bullets);
      expect(line.segments).toEqual(analysis.segments);
      // Issue 28: each sentence's score too, offsets into the extracted text.
      expect(line.sentenceScores).toEqual(analysis.sentenceScores);
      expect((line.sentenceScores as unknown[]).length).toBeGreaterThan(0);
      expect(line.verdictKey).toBe(analysis.verdictKey);
      expect(line.aiShare).toBe(analysis.aiShare);
      expect(line.flagged).toBe(analysis.textAnnotations.length);
      // Issue 32: the line carries the extracted text itself (a PDF's or DOCX's is not the bytes
      // sent), and the offsets point into it: each bullet's example is that passage.
      expect(line.text).toBe(text);
      const received = line.text as string;
      for (const bullet of line.bullets as Array<{ start: number; end: number; example: string }>) {
        expect(received.slice(bullet.start, bullet.end)).toBe(bullet.example);
      }
      const last = (line.sentenceScores as Array<{ end: number }>).at(-1)!;
      expect(last.end).toBeLessThanOrEqual(received.length);
    }
  });

  it('keeps the short line shape without the field, and refuses another value', async () => {
    const { app, newKey } = makeBatchApp();
    const { key } = await newKey();
    const plain = await readLines(await postBatch(app, key, batchForm([['a.txt', PROSE]])));
    const result = plain.find((l) => l.type === 'result')!;
    for (const field of EXPLANATION) expect(result[field]).toBeUndefined();
    const bad = await postBatch(app, key, batchForm([['a.txt', PROSE]], { detail: 'everything' }));
    expect(bad.status).toBe(400);
    expect((await bad.json()).error.code).toBe('invalid_request');
  });

  it('honours ?detail=full in the query string too, and refuses another value there: never ignored (issue 39)', async () => {
    const { app, newKey } = makeBatchApp();
    const { key } = await newKey();
    const resultOf = async (query: string, fields: Record<string, string> = {}) => {
      const lines = await readLines(await postBatch(app, key, batchForm([['a.txt', PROSE]], fields), { query }));
      return lines.find((l) => l.type === 'result')!;
    };
    // In the query alone, as `?lang=` works there; with both, they agree (`full` is the only value).
    for (const [query, fields] of [
      ['?detail=full', {}],
      ['?detail=full&lang=es', {}],
      ['?detail=full', { detail: 'full' }],
    ] as const) {
      const line = await resultOf(query, fields);
      for (const field of EXPLANATION) expect([query, field, line[field] !== undefined]).toEqual([query, field, true]);
    }
    expect((await resultOf('?detail=full&lang=es')).verdict).toBe(detector().analyze(PROSE, { labelLang: 'es' }).verdict);
    // An empty value is absent, as in the form.
    expect((await resultOf('?detail=')).bullets).toBeUndefined();
    for (const query of ['?detail=everything', '?detail=full&detail=short']) {
      const bad = await postBatch(app, key, batchForm([['a.txt', PROSE]]), { query });
      expect([query, bad.status, (await bad.json()).error.code]).toEqual([query, 400, 'invalid_request']);
    }
    // A bad query value is refused even when the form field is right: neither place is ignored.
    const both = await postBatch(app, key, batchForm([['a.txt', PROSE]], { detail: 'full' }), { query: '?detail=brief' });
    expect(both.status).toBe(400);
  });

  it('documents the field and the optional explanation of a result line', async () => {
    const { app } = makeBatchApp();
    const spec = await (await app.handle(new Request('http://localhost/swagger/json'))).json();
    expect(spec.components.schemas.BatchForm.properties.detail.enum).toEqual(['full']);
    const line = spec.components.schemas.BatchResultLine;
    for (const field of EXPLANATION) {
      expect(line.properties[field].type).toBe(field === 'text' ? 'string' : 'array');
      expect(line.required).not.toContain(field);
    }
    expect(line.properties.text.description).toContain('MAX_TEXT_CHARS');
  });
});
