import { describe, expect, it, setDefaultTimeout } from 'bun:test';
import { SUITE_TIMEOUT_MS } from '../timeout';
import { documentXmlToText } from '../../src/extract/docx-xml.ts';
import { markdownToText } from '../../src/extract/md.ts';
import { XmlCursor } from '../../src/extract/xml-scan.ts';
import { billionLaughsXml, HOSTILE_MARKUP } from '../fixtures/hostile-docx.ts';
import { HOSTILE_MARKDOWN } from '../fixtures/hostile-md.ts';
import { documentXml } from '../fixtures/make.ts';

setDefaultTimeout(SUITE_TIMEOUT_MS);

/**
 * Input sizes compared: linear work grows 4x from SMALL to 4 * SMALL, quadratic work 16x. 256 KiB, not
 * 64: at 64 KiB the link and image cases measured 11-13x on an idle machine (warm-up and GC of the
 * small run), while 64 KiB -> 1 MiB grew 14x, i.e. linear.
 */
const SMALL = 256 * 1024;
/** Allowed growth for 4x the input: 4, plus room for allocator and GC noise (measured up to ~7; quadratic is 16). */
const MAX_GROWTH = 10;
/** A floor for the small input's time, so sub-millisecond noise cannot make a huge ratio. */
const MIN_SMALL_MS = 2;
const RUNS = 5;

/**
 * Best-of-RUNS milliseconds of `work`: the minimum filters out pauses caused by other processes,
 * and a collection before each run keeps the garbage of earlier tests (bun test runs every file
 * in one process) from being collected inside the timed run.
 */
function bestMs(work: () => void): number {
  let best = Number.POSITIVE_INFINITY;
  for (let i = 0; i < RUNS; i++) {
    Bun.gc(true);
    const started = performance.now();
    work();
    best = Math.min(best, performance.now() - started);
  }
  return best;
}

/** Asserts `parse` grows about linearly from `build(SMALL)` to `build(4 * SMALL)`. */
function expectLinear(parse: (input: string) => unknown, build: (bytes: number) => string): void {
  const small = build(SMALL);
  const large = build(4 * SMALL);
  parse(large); // warm the JIT on the same shapes
  const smallMs = Math.max(
    bestMs(() => parse(small)),
    MIN_SMALL_MS,
  );
  const largeMs = bestMs(() => parse(large));
  expect(largeMs / smallMs).toBeLessThan(MAX_GROWTH);
  // Issue 16: 10 KB of unclosed <mc:Fallback> took 30 s; 256 KB of anything takes milliseconds.
  expect(largeMs).toBeLessThan(1_000);
}

describe('DOCX XML parsing of hostile markup', () => {
  for (const [name, build] of Object.entries(HOSTILE_MARKUP)) {
    it(`stays linear on ${name} (n vs 4n)`, () => expectLinear(documentXmlToText, (bytes) => documentXml(build(bytes))));
  }

  it('never expands entities a DOCTYPE declares (billion laughs)', () => {
    expect(documentXmlToText(billionLaughsXml())).toBe('&lol9; laughs');
  });

  it('skips comments, processing instructions and DOCTYPE subsets, and reads CDATA literally', () => {
    const xml = documentXml(
      '<?pi x?><!-- <w:p><w:r><w:t>hidden</w:t></w:r></w:p> -->' +
        '<w:p><w:r><w:t a=">" b=\'>\'><![CDATA[a <b> &amp; c]]></w:t></w:r></w:p>',
    );
    expect(documentXmlToText(xml)).toBe('a <b> &amp; c');
  });

  it('keeps the text of paragraphs and tables that are never closed', () => {
    const xml = '<w:p><w:r><w:t>first</w:t></w:r><w:p><w:r><w:t>inner</w:t></w:r><w:tbl><w:tr><w:tc><w:p><w:r><w:t>cell</w:t></w:r></w:p>';
    expect(documentXmlToText(xml)).toBe('cell\n\nfirst\n\ninner');
  });

  it('ends quietly on an unclosed tag, comment or quote', () => {
    for (const tail of ['<w:t', '<!-- never closed', '<w:t a="open']) {
      expect(documentXmlToText(`<w:p><w:r><w:t>kept</w:t></w:r></w:p>${tail}`)).toBe('kept');
    }
  });

  it('drops everything inside mc:Fallback, nested ones included, and keeps what follows', () => {
    const t = (s: string) => `<w:p><w:r><w:t>${s}</w:t></w:r></w:p>`;
    const xml = `${t('one')}<mc:Fallback>${t('x')}<mc:Fallback>${t('y')}</mc:Fallback>${t('z')}</mc:Fallback>${t('two')}`;
    expect(documentXmlToText(xml)).toBe('one\n\ntwo');
  });

  it('tokenizes names with and without prefixes', () => {
    const cursor = new XmlCursor('<a:b c="1"/>text</d>');
    const seen: string[] = [];
    while (cursor.next())
      seen.push(
        cursor.kind === 'text' ? `text:${cursor.text}` : `${cursor.kind}:${cursor.prefix}${cursor.local}${cursor.selfClosing ? '/' : ''}`,
      );
    expect(seen).toEqual(['open:a:b/', 'text:text', 'close:d']);
  });
});

describe('Markdown parsing of hostile markup (read on the main thread)', () => {
  for (const [name, build] of Object.entries(HOSTILE_MARKDOWN)) {
    it(`stays linear on ${name} (n vs 4n)`, () => expectLinear(markdownToText, build));
  }

  it('still drops a badge inside a link, comments and script blocks, and keeps unclosed ones as the spec says', () => {
    expect(markdownToText('[![build](https://ci/badge.svg)](https://ci) Text <!-- note --> end')).toBe('Text end');
    expect(markdownToText('A <script>x()</script>B <SCRIPT>y</SCRIPT>C')).toBe('A B C');
    expect(markdownToText('kept <!-- never closed\n\nhidden')).toBe('kept');
    expect(markdownToText('<pre> never closed')).toBe('never closed');
  });
});
