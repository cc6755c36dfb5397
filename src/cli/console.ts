/** Console output of the CLI and of the server's start (the banner and the first start's key). */
import { relative, sep } from 'node:path';
import { isCompiled } from '../cluster';
import type { CreatedKey } from '../modules/keys';
import type { CliIo } from './keys';

/** CLI output on stdout/stderr. */
export function keysIo(): CliIo {
  return { out: (line) => console.log(line), err: (line) => console.error(line) };
}

/** Hosts that mean "every interface": the banner shows localhost, where a browser on this machine reaches them. */
const ANY_HOST = new Set(['0.0.0.0', '::', '[::]']);

/** The base URL a person on this machine opens: http://localhost:PORT for every-interface hosts, IPv6 in brackets. */
export function serviceUrl(host: string, port: number): string {
  const shown = ANY_HOST.has(host) ? 'localhost' : host.includes(':') && !host.startsWith('[') ? `[${host}]` : host;
  return `http://${shown}:${port}`;
}

/**
 * How to run `keys` the way this server was started: `bun run keys` from the source tree, the
 * binary's own path when compiled (`./ai-detector keys` from its folder).
 */
export function keysCommandLine(
  compiled: boolean = isCompiled(),
  executable: string = process.execPath,
  cwd: string = process.cwd(),
): string {
  if (!compiled) return 'bun run keys';
  const path = relative(cwd, executable);
  const shown = path.startsWith('..') || path === '' ? executable : `.${sep}${path}`;
  return `${/\s/.test(shown) ? JSON.stringify(shown) : shown} keys`;
}

/** What the start banner names. */
export interface BannerInfo {
  version: string;
  url: string;
  host: string;
  workers: number;
  /** Dialect and location, e.g. "sqlite ./data/detector.sqlite". */
  store: string;
  keysCommand: string;
}

/** The lines of the start banner (stderr: stdout carries the JSON log). */
export function startBanner(info: BannerInfo): string[] {
  const where = ANY_HOST.has(info.host) ? ' (all interfaces)' : '';
  const processes = info.workers === 1 ? '1 process' : `${info.workers} processes`;
  return [
    `AI Text Detector ${info.version} listening on ${info.url}${where}: ${processes}, ${info.store}`,
    `  Playground:  ${info.url}/`,
    `  API docs:    ${info.url}/swagger`,
    `  Keys:        ${info.keysCommand} create --plan free   (list | revoke | usage)`,
  ];
}

/** Prints the start banner on stderr, for the person who started the server. */
export function printStartBanner(info: BannerInfo): void {
  console.error(startBanner(info).join('\n'));
}

/**
 * The text of the first-start "Try:" line and of the README's first request: 30 words, over the
 * 20-word minimum (the banner once sent "...", refused as too short). Plain ASCII but for ’, so
 * it needs no escaping inside the shell's single quotes or in JSON.
 */
export const TRY_TEXT =
  'In today’s fast-paced world, it is important to note that technology plays a crucial role in our daily lives. Moreover, it offers numerous benefits that enhance productivity and foster innovation.';

/** The "Try:" command of the first start: a request the server accepts, with the new key in it. */
export function tryCommand(url: string, key: string): string {
  return `curl -s ${url}/v1/detect -H "X-API-Key: ${key}" -H "Content-Type: application/json" -d '${JSON.stringify({ text: TRY_TEXT })}'`;
}

/**
 * Prints the bootstrap key once, on stderr with the banner: stdout is the JSON request log (one
 * object per line), which a log shipper forwards, and a secret must not travel with it.
 */
export function printBootstrapKey(created: CreatedKey, url: string, keysCommand: string): void {
  console.error(
    [
      '',
      '  No API keys yet: created a free key (10,000 words/month). It is shown only this once:',
      '',
      `    ${created.key}`,
      '',
      `  Try:  ${tryCommand(url, created.key)}`,
      `  Or open the playground: ${url}/`,
      `  Disable this with BOOTSTRAP_KEY=0; manage keys with \`${keysCommand}\`.`,
      '',
    ].join('\n'),
  );
}
