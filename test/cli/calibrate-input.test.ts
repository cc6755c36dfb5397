/**
 * What `calibrate` refuses of its input, through the real command line (issues 44 item 7 and 45
 * items 1, 3, 4 and 5): an unknown key on a JSON line and a missing `--ai` path stop it as a wrong
 * label does (exit 1, nothing written); AI examples alone, or of a language without human texts,
 * are refused saying what was read and what to do; and a line too long for any text is refused while
 * it is read, its memory bounded, the other lines still making the profile.
 */
import { afterAll, beforeAll, describe, expect, it, setDefaultTimeout } from 'bun:test';
import { existsSync, readFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { aiNotes, humanNotes } from '../../scripts/lib/calibration-texts';
import { DEFAULT_MAX_TEXT_CHARS } from '../../src/contract/text-length';
import { spanishAiNotes } from '../../scripts/lib/spanish-notes';
import { SUITE_TIMEOUT_MS } from '../timeout';

setDefaultTimeout(SUITE_TIMEOUT_MS);

const ROOT = join(import.meta.dir, '..', '..');
let dir = '';
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'calibrate-input-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const lines = (texts: string[], extra: Record<string, unknown> = {}) => texts.map((text) => JSON.stringify({ text, ...extra }));

/** Runs `bun run src/main.ts calibrate ...args` with `stdin` (text, or a file); exit code, output and peak RSS. */
async function calibrate(args: string[], stdin: string | ReturnType<typeof Bun.file>) {
  const proc = Bun.spawn(['bun', 'run', 'src/main.ts', 'calibrate', ...args], {
    cwd: ROOT,
    stdin: typeof stdin === 'string' ? new Blob([stdin]) : stdin,
    stdout: 'pipe',
    stderr: 'pipe',
  });
  // The child's own high-water mark (VmHWM), read while it runs: resourceUsage() after the exit read 142-400+ MB
  // for the same run inside the whole suite, as if other children's peaks were counted.
  let maxRss = 0;
  const watch = setInterval(() => {
    try {
      const kb = /VmHWM:\s+(\d+)/.exec(readFileSync(`/proc/${proc.pid}/status`, 'utf8'))?.[1];
      if (kb) maxRss = Math.max(maxRss, Number(kb) * 1024);
    } catch {
      // Gone already: the last reading stands.
    }
  }, 10);
  const [stdout, stderr, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
  clearInterval(watch);
  return { code, stdout, stderr, maxRss };
}

describe('calibrate refuses what it cannot use, writing nothing', () => {
  it('stops at a line with an unknown key ({"text", "ai": true}), naming the line, as it does a wrong label', async () => {
    const out = join(dir, 'unknown-key.json');
    const input = [...lines(humanNotes(60)), JSON.stringify({ text: aiNotes(1)[0], ai: true }), ...lines(aiNotes(3), { label: 'ai' })];
    const { code, stderr } = await calibrate(['--out', out], input.join('\n'));
    expect(code).toBe(1);
    expect(stderr.trim()).toBe(
      'calibrate: stdin:61: unknown key "ai"; a line has "text" and optionally "label" ("human" or "ai") and "id" (did you mean "label": "ai"?); nothing was written',
    );
    expect(existsSync(out)).toBe(false);
  });

  it('stops at an --ai path that does not exist', async () => {
    const out = join(dir, 'missing-ai.json');
    const missing = join(dir, 'no-such-folder');
    const { code, stderr } = await calibrate(['--out', out, '--ai', missing, '-'], lines(humanNotes(60)).join('\n'));
    expect(code).toBe(1);
    expect(stderr.trim()).toBe(`calibrate: --ai ${missing}: no such file or folder; nothing was written`);
    expect(existsSync(out)).toBe(false);
  });

  it('says what was read and what is missing when every line is an AI example', async () => {
    const out = join(dir, 'all-ai.json');
    const { code, stderr } = await calibrate(['--out', out], lines(aiNotes(100), { label: 'ai' }).join('\n'));
    expect(code).toBe(1);
    expect(stderr.trim()).toBe(
      "calibrate: no known-human text: 0 human texts and 100 AI examples read (100 usable); a profile's bars are set on known-human texts: give at least 50 human texts of 20+ words per language with them (JSON lines without a label, or files and folders as arguments)",
    );
    expect(existsSync(out)).toBe(false);
  });

  it('refuses AI examples of a language with no human text, naming it and the count (never "no AI examples")', async () => {
    const out = join(dir, 'stray.json');
    const input = [...lines(humanNotes(150)), ...lines(spanishAiNotes(60), { label: 'ai' })];
    const { code, stdout, stderr } = await calibrate(['--out', out], input.join('\n'));
    expect(code).toBe(1);
    expect(stdout).toBe('');
    expect(stderr.trim()).toBe(
      'calibrate: 60 AI examples are in "es" and no known-human text is: a language\'s bars are set on its human texts. Add at least 50 human texts in "es", or leave those examples out; nothing was written',
    );
    expect(existsSync(out)).toBe(false);
  });
});

describe('calibrate reads a line too long for any text with bounded memory', () => {
  it('refuses a 64 MB line while reading it, names the line, and makes the profile of the others', async () => {
    const out = join(dir, 'long-line.json');
    const input = join(dir, 'long-line.jsonl');
    const big = 64 * 1024 * 1024;
    const notes = lines(humanNotes(60));
    // Written in pieces: the test holds no 64 MB string either.
    const writer = Bun.file(input).writer();
    writer.write(`${notes.slice(0, 30).join('\n')}\n{"text": "`);
    const piece = 'word '.repeat(200_000);
    for (let written = 0; written < big; written += piece.length) writer.write(piece);
    writer.write(`"}\n${notes.slice(30).join('\n')}\n`);
    await writer.end();
    const t0 = performance.now();
    const { code, stdout, stderr, maxRss } = await calibrate(['--out', out], Bun.file(input));
    const seconds = (performance.now() - t0) / 1000;
    expect(code).toBe(0);
    const [line, ...rest] = stderr.trim().split('\n');
    expect(rest).toEqual([]);
    expect(line).toStartWith('stdin:31\terror\ttext_too_long\tThe text has ');
    expect(line).toContain(`the limit is ${DEFAULT_MAX_TEXT_CHARS} per text`);
    expect(JSON.parse(stdout).inputs).toMatchObject({ read: 61, usable: 60, failed: 1 });
    // Bounded: the line's first 6 x MAX_TEXT_CHARS characters at most are held (bounded-lines.ts), never the
    // 64 MB (a whole line held as a string is 128 MB of UTF-16 at least, 2.5 GB RSS for 256 MB before).
    console.log(`calibrate with a 64 MB line: peak RSS ${Math.round(maxRss / 2 ** 20)} MB, ${seconds.toFixed(1)} s`);
    expect(maxRss).toBeLessThan(400 * 2 ** 20);
  });
});
