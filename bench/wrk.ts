/**
 * The load generator: wrk (Debian package, C, one thread is enough for one server on 2 cores and
 * leaves the most CPU to the server). Installed with apt-get when missing. A Lua `done()` hook
 * prints the summary as JSON, so nothing is scraped from wrk's human-readable output.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** One wrk run's numbers (latency in ms). */
export interface LoadResult {
  connections: number;
  requests: number;
  rps: number;
  p50: number;
  p99: number;
  /** Socket errors plus non-2xx/3xx responses: must be 0 for the numbers to mean anything. */
  errors: number;
}

/** One POST request of a load: its body (ASCII: escape the JSON) and all its headers. */
export interface WrkRequest {
  body: string;
  headers: Record<string, string>;
}

/** Options of runWrk. */
export interface LoadOptions {
  url: string;
  /** The requests, sent in turn. */
  requests: readonly WrkRequest[];
  connections: number;
  seconds: number;
}

/** Makes sure `wrk` is on PATH, installing the Debian package if it is not. */
export function ensureWrk(): string {
  const found = Bun.which('wrk');
  if (found) return found;
  console.error('wrk not found: apt-get install -y wrk');
  const install = (args: string[]) => Bun.spawnSync(['apt-get', ...args], { stdout: 'ignore', stderr: 'inherit' }).exitCode;
  if (install(['install', '-y', 'wrk']) !== 0 && (install(['update']) !== 0 || install(['install', '-y', 'wrk']) !== 0)) {
    throw new Error('could not install wrk (apt-get install -y wrk); install it and run the bench again');
  }
  const installed = Bun.which('wrk');
  if (!installed) throw new Error('wrk is still not on PATH after apt-get install');
  return installed;
}

const luaString = (s: string) => JSON.stringify(s); // a JSON string literal is a valid Lua string here (no \u escapes in our inputs)

function luaTable(headers: Record<string, string>): string {
  return `{ ${Object.entries(headers)
    .map(([name, value]) => `[${luaString(name)}] = ${luaString(value)}`)
    .join(', ')} }`;
}

function script({ requests }: Pick<LoadOptions, 'requests'>): string {
  const lines = [
    'wrk.method = "POST"',
    `local sources = { ${requests.map((r) => `{ body = ${luaString(r.body)}, headers = ${luaTable(r.headers)} }`).join(', ')} }`,
    // Requests are formatted once, in init; request() only picks the next one.
    'local prepared = {}',
    'local n = 0',
    'function init(args)',
    '  for i, r in ipairs(sources) do prepared[i] = wrk.format("POST", nil, r.headers, r.body) end',
    'end',
    'function request()',
    '  n = n + 1',
    '  return prepared[(n % #prepared) + 1]',
    'end',
    'function done(summary, latency, requests)',
    '  local e = summary.errors',
    '  io.write(string.format(\'WRK_JSON {"requests":%d,"duration_us":%d,"p50_us":%d,"p99_us":%d,"errors":%d}\\n\',',
    '    summary.requests, summary.duration, latency:percentile(50), latency:percentile(99),',
    '    e.connect + e.read + e.write + e.timeout + e.status))',
    'end',
  ];
  return lines.join('\n');
}

/** Runs wrk with one thread against a POST endpoint and returns its summary. */
export async function runWrk(options: LoadOptions): Promise<LoadResult> {
  if (options.requests.length === 0) throw new Error('wrk needs at least one request');
  if (options.requests.some((r) => /[^\x20-\x7e\n]/.test(r.body))) throw new Error('wrk bodies must be ASCII (escape the JSON)');
  const dir = mkdtempSync(join(tmpdir(), 'bench-wrk-'));
  const lua = join(dir, 'post.lua');
  writeFileSync(lua, script(options));
  try {
    const proc = Bun.spawn(
      [ensureWrk(), '-t1', `-c${options.connections}`, `-d${options.seconds}s`, '--timeout', '10s', '-s', lua, options.url],
      { stdout: 'pipe', stderr: 'pipe' },
    );
    const [out, err, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
    const line = out.split('\n').find((l) => l.startsWith('WRK_JSON '));
    if (code !== 0 || !line) throw new Error(`wrk failed (${code}): ${err}${out}`);
    const s = JSON.parse(line.slice('WRK_JSON '.length));
    return {
      connections: options.connections,
      requests: s.requests,
      rps: s.requests / (s.duration_us / 1e6),
      p50: s.p50_us / 1000,
      p99: s.p99_us / 1000,
      errors: s.errors,
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
