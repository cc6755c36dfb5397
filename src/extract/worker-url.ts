import { existsSync } from 'node:fs';

/**
 * Where the extraction worker lives. Checked with Bun 1.4.4 (see docs bundler/executables.mdx,
 * "Worker"): `bun build --compile` embeds a worker only when it is listed as an extra entrypoint,
 *   bun build --compile src/main.ts src/extract/worker.ts --outfile dist/app
 * and stores it as `/$bunfs/root/<path from the entrypoints' common folder>.js`, while
 * `import.meta.url` of bundled code becomes the binary's own `/$bunfs/root/<outfile>`. So
 * `new URL('./worker.ts', import.meta.url)` works under `bun run` only; in a binary we look the
 * embedded file up (src/main.ts + src/extract/worker.ts -> /$bunfs/root/extract/worker.js).
 */
const BUNFS_URL_PREFIX = 'file:///$bunfs/';
/** Embedded locations for the common entrypoint roots: the repo, src/, src/extract/. */
export const EMBEDDED_WORKER_PATHS: readonly string[] = [
  '/$bunfs/root/src/extract/worker.js',
  '/$bunfs/root/extract/worker.js',
  '/$bunfs/root/worker.js',
];

/** The worker entrypoint for this process; throws in a binary built without the worker entrypoint. */
export function resolveWorkerUrl(): string | URL {
  if (!import.meta.url.startsWith(BUNFS_URL_PREFIX)) return new URL('./worker.ts', import.meta.url);
  const embedded = EMBEDDED_WORKER_PATHS.find((path) => existsSync(path));
  if (embedded) return embedded;
  throw new Error('extraction worker not embedded: build with `bun build --compile src/main.ts src/extract/worker.ts`');
}
