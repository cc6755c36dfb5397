import { describe, expect, it, setDefaultTimeout } from 'bun:test';
import { SUITE_TIMEOUT_MS } from '../timeout';
import { markdownToText } from '../../src/extract/md.ts';
import { SAMPLE_MARKDOWN, SAMPLE_MARKDOWN_TEXT } from '../fixtures/make.ts';

setDefaultTimeout(SUITE_TIMEOUT_MS);

describe('markdownToText', () => {
  it('keeps the prose a reader sees in the sample document', () => {
    expect(markdownToText(SAMPLE_MARKDOWN)).toBe(SAMPLE_MARKDOWN_TEXT);
  });

  it('removes YAML and TOML front matter', () => {
    expect(markdownToText('---\ntitle: x\n---\nBody text.')).toBe('Body text.');
    expect(markdownToText('+++\ntitle = "x"\n+++\nBody text.')).toBe('Body text.');
  });

  it('drops fenced code blocks with backticks and tildes, however long the fence', () => {
    expect(markdownToText('Before.\n\n````md\n```\ninner\n```\n````\n\nAfter.')).toBe('Before.\n\nAfter.');
    expect(markdownToText('Before.\n~~~\ncode\n~~~\nAfter.')).toBe('Before.\n\nAfter.');
  });

  it('drops indented code after a blank line but keeps indented list continuations', () => {
    expect(markdownToText('Text.\n\n    code();\n\nMore.')).toBe('Text.\n\nMore.');
    expect(markdownToText('- item\n\n    continued item text')).toBe('item\n\ncontinued item text');
  });

  it('keeps link text, drops images and URLs, keeps autolinked addresses', () => {
    expect(markdownToText('See [the docs](http://x.y/a_(b)) and ![logo](l.png) or <https://x.y>.')).toBe(
      'See the docs and or https://x.y.',
    );
  });

  it('removes emphasis marks but not intraword underscores or escaped stars', () => {
    expect(markdownToText('***both*** __strong__ *em* ~~gone~~ file_name_here \\*literal\\*')).toBe(
      'both strong em gone file_name_here *literal*',
    );
  });

  it('removes HTML tags, comments and script blocks, decoding entities', () => {
    expect(markdownToText('<div align="center">Hi &amp; bye</div>\n<script>alert(1)</script>\n<!-- x -->')).toBe('Hi & bye');
  });

  it('removes nested blockquote marks and footnote markers, keeps ordered-list and footnote text', () => {
    expect(markdownToText('> > nested quote\n> still quote')).toBe('nested quote still quote');
    expect(markdownToText('1) first\n2. second\n\nSee note[^1].\n\n[^1]: The note.')).toBe('first\nsecond\n\nSee note.\n\nThe note.');
  });

  it('turns a hard line break into a newline and soft breaks into spaces', () => {
    expect(markdownToText('one  \ntwo\nthree')).toBe('one\ntwo three');
  });
});
