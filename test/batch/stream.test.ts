import { afterAll, describe, expect, it, setDefaultTimeout } from 'bun:test';
import { SUITE_TIMEOUT_MS } from '../timeout';
import type { LabelLang, Sensitivity } from '../../src/contract';
import { extractText } from '../../src/extract';
import { t } from '../../src/i18n';
import { detector } from '../http/helpers';
import { modelVersion } from '../../src/model-version';
import { closeBatchPools, badBatch, batchForm, DOCX_TEXT, makeBatchApp, postBatch, readLines, sampleBatch, type Line } from './helpers';

setDefaultTimeout(SUITE_TIMEOUT_MS);

afterAll(closeBatchPools);

const RESULT_KEYS = [
  'type',
  'index',
  'fileName',
  'score',
  'verdict',
  'words',
  'flagged',
  'totalDims',
  'docType',
  'verdictKey',
  'docTypeKey',
  'activeDims',
  'probability',
  'ai',
  'aiShare',
  'measuredError',
  'language',
  'sensitivity',
  'format',
  'modelVersion',
];

/** The result line the stream must carry for `text`, computed with the detector directly. */
function expectedResult(
  index: number,
  fileName: string,
  text: string,
  format: string,
  opts: { lang?: LabelLang; sensitivity?: Sensitivity } = {},
) {
  const a = detector().analyze(text, { labelLang: opts.lang ?? 'en', sensitivity: opts.sensitivity ?? 'conservative' });
  return {
    type: 'result',
    index,
    fileName,
    score: a.score,
    verdict: a.verdict,
    words: a.words,
    flagged: a.textAnnotations.length,
    totalDims: a.totalDimensions,
    docType: a.docTypeLabel,
    verdictKey: a.verdictKey,
    docTypeKey: a.docType,
    activeDims: a.activeDimensions,
    probability: a.probability,
    ai: a.ai,
    aiShare: a.aiShare,
    measuredError: a.measuredError,
    language: a.language,
    sensitivity: a.sensitivity,
    format,
    modelVersion: modelVersion(),
  };
}

describe('batch mode: the NDJSON stream', () => {
  it('scores a DOCX (table, Spanish), a multi-page PDF, a UTF-16 TXT and an MD with code fences, in upload order', async () => {
    const { app, newKey } = makeBatchApp();
    const { uploads, texts } = await sampleBatch();
    const response = await postBatch(app, (await newKey()).key, batchForm(uploads));
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/x-ndjson; charset=utf-8');
    const lines = await readLines(response);
    const formats = ['docx', 'pdf', 'txt', 'md'];
    const expected: Line[] = [];
    uploads.forEach(([name], i) => {
      expected.push({ type: 'progress', index: i, fileName: name, total: 4 });
      expected.push(expectedResult(i, name, texts[i], formats[i]));
    });
    expected.push({ type: 'complete', total: 4 });
    expect(lines).toEqual(expected);
    for (const line of lines.filter((l) => l.type === 'result')) expect(Object.keys(line)).toEqual(RESULT_KEYS);
    // The texts above are what extraction gives (checked here so a mismatch points at the right place).
    expect((await extractText(uploads[0][1] as Uint8Array, 'informe.docx')).text).toBe(DOCX_TEXT);
    // The Spanish DOCX is recognised as Spanish; fenced code never reaches the scorer.
    expect(lines[1].language).toBe('es');
    expect(texts[3]).not.toContain('secret');
    for (const line of lines.filter((l) => l.type === 'result')) {
      expect(Number.isInteger(line.score) && (line.score as number) >= 0 && (line.score as number) <= 100).toBe(true);
      expect(line.words as number).toBeGreaterThanOrEqual(20);
    }
  });

  it('answers each unusable file with an error line in place of its result and goes on', async () => {
    const { app, newKey } = makeBatchApp();
    const { uploads, codes } = await badBatch();
    const all = [...uploads.slice(0, 3), ['good.txt', (await sampleBatch()).texts[2]] as [string, string], ...uploads.slice(3)];
    const allCodes = [...codes.slice(0, 3), 'ok', ...codes.slice(3)];
    const lines = await readLines(await postBatch(app, (await newKey()).key, batchForm(all)));
    expect(lines.length).toBe(all.length * 2 + 1);
    all.forEach(([name], i) => {
      expect(lines[2 * i]).toEqual({ type: 'progress', index: i, fileName: name, total: all.length });
      const line = lines[2 * i + 1];
      if (allCodes[i] === 'ok') return expect(line.type).toBe('result');
      expect(Object.keys(line)).toEqual(['type', 'index', 'fileName', 'code', 'message']);
      expect(line).toMatchObject({ type: 'error', index: i, fileName: name, code: allCodes[i] });
    });
    expect(lines.at(-1)).toEqual({ type: 'complete', total: all.length });
    const byCode = new Map(lines.filter((l) => l.type === 'error').map((l) => [l.fileName, l.message]));
    expect(byCode.get('short.txt')).toBe(t('en', 'errors.text_too_short', { count: 5, min: 20 }));
    // Issue 16 (8): the message quotes the inflated-size limit that was hit, not the 10 MiB byte limit.
    expect(byCode.get('bomb.docx')).toBe('The DOCX unpacks to more than 52428800 bytes.');
    expect(byCode.get('locked.pdf')).toBe(t('en', 'errors.encrypted_pdf'));
  });

  it('localizes labels and messages from the lang form field, and applies the sensitivity field', async () => {
    const { app, newKey } = makeBatchApp();
    const { uploads, texts } = await sampleBatch();
    const form = batchForm([uploads[2], ['short.txt', 'Muy pocas palabras.']], { lang: 'es', sensitivity: 'aggressive' });
    const response = await postBatch(app, (await newKey()).key, form);
    expect(response.headers.get('content-language')).toBe('es');
    const lines = await readLines(response);
    expect(lines[1]).toEqual(expectedResult(0, 'utf16.txt', texts[2], 'txt', { lang: 'es', sensitivity: 'aggressive' }));
    expect(lines[3]).toMatchObject({ code: 'text_too_short', message: t('es', 'errors.text_too_short', { count: 3, min: 20 }) });
  });

  it('takes the label language from Accept-Language when there is no lang field', async () => {
    const { app, newKey } = makeBatchApp();
    const lines = await readLines(
      await postBatch(
        app,
        (await newKey()).key,
        batchForm([['x.png', new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0])]]),
        {
          headers: { 'accept-language': 'es-ES,es;q=0.9' },
        },
      ),
    );
    expect(lines[1]).toMatchObject({ code: 'unsupported_format', message: t('es', 'errors.unsupported_format') });
  });

  it('accepts parts named "files" as well as "files[]"', async () => {
    const { app, newKey } = makeBatchApp();
    const { uploads } = await sampleBatch();
    const lines = await readLines(await postBatch(app, (await newKey()).key, batchForm([uploads[3]], {}, 'files')));
    expect(lines.map((l: Line) => l.type)).toEqual(['progress', 'result', 'complete']);
  });
});
