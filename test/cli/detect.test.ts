import { afterAll, beforeAll, describe, expect, it, setDefaultTimeout } from 'bun:test';
import { SUITE_TIMEOUT_MS } from '../timeout';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runJsonl } from '../../src/cli/detect-jsonl';
import { flateBombPdf } from '../fixtures/hostile-pdf';
import { makeDocx, makePdf, makePng, SAMPLE_MARKDOWN, SAMPLE_MARKDOWN_TEXT, SAMPLE_PDF_PAGES, SAMPLE_PDF_TEXT } from '../fixtures/make';
import { DOCX_PARAGRAPHS, DOCX_TABLE, DOCX_TEXT } from '../batch/helpers';
import { modelVersion } from '../../src/model-version';
import { detector, PROSE } from '../http/helpers';
import { aiSharePercent, isAiVerdict, MIN_WORDS, VERDICT_KEYS } from '../../src/contract';
import { errorMessage } from '../../src/i18n';

setDefaultTimeout(SUITE_TIMEOUT_MS);

const ROOT = join(import.meta.dir, '..', '..');
let dir = '';

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'detect-cli-'));
  writeFileSync(join(dir, 'essay.txt'), PROSE);
  writeFileSync(join(dir, 'notes.md'), SAMPLE_MARKDOWN);
  writeFileSync(join(dir, 'informe.docx'), await makeDocx(DOCX_PARAGRAPHS, DOCX_TABLE));
  writeFileSync(join(dir, 'pages.pdf'), makePdf(SAMPLE_PDF_PAGES));
  writeFileSync(join(dir, 'picture.pdf'), makePng());
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Runs `bun run src/main.ts detect ...args` with `stdin` (and extra `env`); returns exit code, output and peak RSS. */
async function detect(args: string[], stdin?: string | Uint8Array, env: Record<string, string> = {}) {
  const proc = Bun.spawn(['bun', 'run', 'src/main.ts', 'detect', ...args], {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdin: stdin === undefined ? 'ignore' : new Blob([stdin as BlobPart]),
    stdout: 'pipe',
    stderr: 'pipe',
  });
  // The process's own peak (VmHWM, reset at exec), read while it runs: rusage's maxRSS of a child also
  // counted the test runner's pages it was forked from (1.17 GB late in the full suite, 0.2 GB alone).
  let peak = 0;
  const sampler = setInterval(() => {
    try {
      const hwm = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${proc.pid}/status`, 'utf8'));
      if (hwm) peak = Math.max(peak, Number(hwm[1]) * 1024);
    } catch {
      // Exited, or no /proc (not Linux): rusage below.
    }
  }, 10);
  const [stdout, stderr, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
  clearInterval(sampler);
  return { code, stdout, stderr, maxRssBytes: peak || (proc.resourceUsage()?.maxRSS ?? 0) };
}

describe('detect FILE...', () => {
  it('quotes the limit that was hit in its error lines (issue 16: it printed a literal {limit})', async () => {
    const { code, stderr } = await detect([join(dir, 'essay.txt'), join(dir, 'pages.pdf')], undefined, {
      MAX_FILE_BYTES: '100',
      MAX_PDF_PAGES: '1',
    });
    expect(code).toBe(1);
    expect(stderr).not.toContain('{');
    expect(stderr).toContain(`${join(dir, 'essay.txt')}\terror\tfile_too_large\tThe file is larger than the limit of 100 bytes.`);
    expect(stderr).toContain(`${join(dir, 'pages.pdf')}\terror\tfile_too_large\t`);
    const pages = await detect([join(dir, 'pages.pdf')], undefined, { MAX_PDF_PAGES: '1' });
    expect(pages.stderr).toContain(`\terror\textract_limit\tThe PDF has ${SAMPLE_PDF_PAGES.length} pages, more than the limit of 1.`);
  });

  it('reads PDFs with the budgets and heap ceiling of the server: a decompression bomb fails fast in bounded memory', async () => {
    // Issue 16: a 1.5 MB bomb took the CLI to 19 GB (the CLI read PDFs in its own thread, without limits).
    writeFileSync(join(dir, 'bomb.pdf'), flateBombPdf());
    const started = performance.now();
    const { code, stderr, maxRssBytes } = await detect([join(dir, 'bomb.pdf'), join(dir, 'essay.txt')]);
    expect(code).toBe(1);
    expect(stderr).toContain('\terror\textract_limit\tA compressed stream in the PDF unpacks to more than 33554432 bytes.');
    expect(performance.now() - started).toBeLessThan(15_000);
    // The bomb once took the CLI to 19 GB; bounded is under the server's MEMORY_LIMIT_MB default (1 GiB).
    expect(maxRssBytes).toBeLessThan(1024 * 1024 * 1024);
  });

  it('prints score and verdict per file for txt, md, docx and pdf, in argument order', async () => {
    const names = ['essay.txt', 'notes.md', 'informe.docx', 'pages.pdf'];
    const texts = [PROSE, SAMPLE_MARKDOWN_TEXT, DOCX_TEXT, SAMPLE_PDF_TEXT];
    const formats = ['txt', 'md', 'docx', 'pdf'];
    const { code, stdout, stderr } = await detect(names.map((n) => join(dir, n)));
    expect(stderr).toBe('');
    expect(code).toBe(0);
    const lines = stdout.trimEnd().split('\n');
    expect(lines.length).toBe(4);
    lines.forEach((line, i) => {
      const a = detector().analyze(texts[i]);
      expect(line).toBe(
        `${join(dir, names[i])}\t${a.score}\t${a.verdictKey}\t${a.verdict}\t${formats[i]}, ${a.words} words, lang ${a.language}, AI share ${aiSharePercent(a.aiShare)}%`,
      );
    });
  });

  it('reports unreadable and missing files on stderr with exit code 1, and still scores the rest', async () => {
    const { code, stdout, stderr } = await detect([join(dir, 'picture.pdf'), join(dir, 'missing.txt'), dir, join(dir, 'essay.txt')]);
    expect(code).toBe(1);
    expect(stdout.trimEnd().split('\n').length).toBe(1);
    expect(stdout.startsWith(`${join(dir, 'essay.txt')}\t`)).toBe(true);
    expect(stderr).toContain(`${dir}\terror\tunreadable\t`);
    expect(stderr).toContain(`${join(dir, 'picture.pdf')}\terror\tunsupported_format\t`);
    expect(stderr).toContain(`${join(dir, 'missing.txt')}\terror\tnot_found\t`);
  });

  it('refuses a 5-word file as the API refuses a 5-word text: text_too_short with the API message, exit 1 (issue 28)', async () => {
    writeFileSync(join(dir, 'five.txt'), 'Five words are too few.');
    const out = await detect([join(dir, 'five.txt'), join(dir, 'essay.txt')]);
    expect(out.code).toBe(1);
    expect(out.stderr.trim()).toBe(
      `${join(dir, 'five.txt')}\terror\ttext_too_short\t${errorMessage('en', 'text_too_short', { count: 5, min: MIN_WORDS })}`,
    );
    // The other file is still scored, and no line says "unreliable" any more.
    expect(out.stdout.trimEnd().split('\n')).toHaveLength(1);
    expect(out.stdout).toStartWith(`${join(dir, 'essay.txt')}\t`);
    expect(out.stdout).not.toContain('unreliable');
  });

  it('exits 2 with usage on no files, a bad flag or a bad sensitivity', async () => {
    expect((await detect([])).code).toBe(2);
    expect((await detect(['--bogus', 'x'])).code).toBe(2);
    const bad = await detect(['--sensitivity', 'paranoid', join(dir, 'essay.txt')]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--sensitivity must be one of conservative, balanced, aggressive');
  });
});

describe('detect --jsonl', () => {
  it('adds each sentence’s score with --sentences, the same as the API’s sentenceScores, and only then (issue 28)', async () => {
    const input = JSON.stringify({ text: PROSE });
    const plain = JSON.parse((await detect(['--jsonl'], input)).stdout);
    expect(plain.sentenceScores).toBeUndefined();
    const { code, stdout } = await detect(['--jsonl', '--sentences'], input);
    expect(code).toBe(0);
    const line = JSON.parse(stdout);
    const a = detector().analyze(PROSE);
    expect(line.sentenceScores).toEqual(a.sentenceScores);
    expect(line.sentenceScores.length).toBeGreaterThan(1);
    for (const s of line.sentenceScores) expect(PROSE.slice(s.start, s.end).trim().length).toBeGreaterThan(0);
    expect((await detect(['--sentences', join(dir, 'essay.txt')])).code).toBe(2);
  });

  it('writes one JSON line per non-blank input line, in order, with score, probability, verdict, ai and lang; bad lines get an error line', async () => {
    const spanish = 'El comité revisó los resultados del estudio el lunes por la mañana y aprobó el presupuesto del año que viene.';
    const input = [
      JSON.stringify({ text: PROSE, id: 'a' }),
      'not json',
      '',
      JSON.stringify({ nope: 1 }),
      JSON.stringify([1, 2]),
      JSON.stringify({ text: spanish }),
    ].join('\n');
    const { code, stdout, stderr } = await detect(['--jsonl', '--sensitivity', 'aggressive'], input);
    expect(stderr).toBe('');
    expect(code).toBe(0);
    const out = stdout
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(out.length).toBe(5);
    const a = detector().analyze(PROSE, { sensitivity: 'aggressive' });
    expect(out[0]).toEqual({
      line: 1,
      id: 'a',
      score: a.score,
      probability: a.probability,
      verdict: a.verdictKey,
      ai: a.ai,
      lang: a.language,
      words: a.words,
      aiShare: a.aiShare,
      measuredError: a.measuredError,
      modelVersion: modelVersion(),
    });
    expect(out[0].measuredError.humanTexts).toBeGreaterThanOrEqual(100);
    // docs/batch.md lists exactly these fields, in this order, and says which verdicts set `ai` (issue 32).
    const doc = readFileSync(join(ROOT, 'docs', 'batch.md'), 'utf8');
    const listed = /`\{("line","id"\?[^`]*)\}`/.exec(doc)?.[1] ?? '';
    expect(JSON.parse(`[${listed.replace('"id"?', '"id"')}]`)).toEqual(Object.keys(out[0]));
    const said = /`ai` is true for (.*?) at the chosen/.exec(doc.replace(/\s+/g, ' '))?.[1] ?? '';
    expect([...said.matchAll(/`(\w+)`/g)].map((m) => m[1]).sort()).toEqual(VERDICT_KEYS.filter(isAiVerdict).sort());
    // The blank line 3 is skipped; every answer names its input line.
    expect(out.slice(1, 4).map((o) => o.error.code)).toEqual(['invalid_json', 'text_required', 'text_required']);
    expect(out.slice(1, 4).map((o) => o.line)).toEqual([2, 4, 5]);
    const es = detector().analyze(spanish, { sensitivity: 'aggressive' });
    expect(out[4]).toMatchObject({ line: 6, score: es.score, verdict: es.verdictKey, ai: es.ai, lang: 'es' });
  });

  it('refuses what the API refuses, with its codes and messages (in the --lang language)', async () => {
    const input = [
      JSON.stringify({ text: 'Two words', id: 1 }),
      JSON.stringify({ text: '', id: 2 }),
      JSON.stringify({ text: '   ', id: 3 }),
      JSON.stringify({ text: 42, id: 4 }),
      JSON.stringify({ text: PROSE, sensitivity: 'paranoid', id: 5 }),
      '   ',
      JSON.stringify({ text: PROSE, sensitivity: 'balanced', id: 7 }),
    ].join('\n');
    const { code, stdout } = await detect(['--jsonl'], input);
    expect(code).toBe(0);
    const out = stdout
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(out.slice(0, 5)).toEqual([
      { line: 1, id: 1, error: { code: 'text_too_short', message: 'The text is too short: at least 20 words are needed, 2 found.' } },
      { line: 2, id: 2, error: { code: 'text_too_short', message: 'The text is too short: at least 20 words are needed, 0 found.' } },
      { line: 3, id: 3, error: { code: 'text_too_short', message: 'The text is too short: at least 20 words are needed, 0 found.' } },
      { line: 4, id: 4, error: { code: 'text_required', message: 'The field "text" is required and must be a string.' } },
      {
        line: 5,
        id: 5,
        error: { code: 'invalid_sensitivity', message: 'The field "sensitivity" must be one of: conservative, balanced, aggressive.' },
      },
    ]);
    // A line's own sensitivity is used, as the API's body field would be.
    const balanced = detector().analyze(PROSE, { sensitivity: 'balanced' });
    expect(out[5]).toMatchObject({ line: 7, id: 7, verdict: balanced.verdictKey, ai: balanced.ai });
    expect(out.length).toBe(6);
    // Issue 23: too many tiny sentences, refused before scoring as by the API.
    const tiny = await detect(['--jsonl'], JSON.stringify({ text: 'Go. '.repeat(30_000) }));
    expect(JSON.parse(tiny.stdout).error).toEqual({
      code: 'too_many_sentences',
      message: 'The text has more than the 20000 sentences a text of its length may have.',
    });
    const spanish = await detect(['--jsonl', '--lang', 'es'], JSON.stringify({ text: 'dos palabras' }));
    expect(JSON.parse(spanish.stdout).error).toEqual({
      code: 'text_too_short',
      message: 'El texto es demasiado corto: se necesitan al menos 20 palabras y se han encontrado 2.',
    });
  });

  it('streams tens of thousands of lines through the real process, CRLF and a missing final newline included', async () => {
    const n = 20_000;
    const texts = Array.from({ length: 50 }, (_, i) => `${PROSE} Variant ${i}.`);
    const body = Array.from({ length: n }, (_, i) => JSON.stringify({ text: texts[i % 50], id: i })).join('\r\n');
    const { code, stdout } = await detect(['--jsonl'], body);
    expect(code).toBe(0);
    const lines = stdout.trimEnd().split('\n');
    expect(lines.length).toBe(n);
    const expected = texts.map((t) => detector().analyze(t).score);
    for (const i of [0, 1, 49, 50, 12_345, n - 1]) {
      const o = JSON.parse(lines[i]);
      expect(o.id).toBe(i);
      expect(o.line).toBe(i + 1);
      expect(o.score).toBe(expected[i % 50]);
    }
  }, 60_000);

  it('reads its input chunk by chunk and writes output before the input ends', async () => {
    const writes: string[] = [];
    const writtenBeforeRead: number[] = [];
    async function* input() {
      for (let i = 0; i < 3; i++) {
        writtenBeforeRead.push(writes.length);
        yield new TextEncoder().encode(`${JSON.stringify({ text: PROSE })}\n`);
      }
    }
    await runJsonl({
      detector: detector(),
      modelVersion: 'test',
      sensitivity: 'conservative',
      lang: 'en',
      input: input(),
      write: (c) => void writes.push(c),
    });
    // The answer to chunk i was written before chunk i+1 was even asked for.
    expect(writtenBeforeRead).toEqual([0, 1, 2]);
    expect(writes.length).toBe(3);
  });
});
