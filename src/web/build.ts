/** Bundles the playground's app.ts into one browser script; `bun run build:web` writes it to bundle/app.js. */
import { join } from 'node:path';

/** Folder of the page's sources. */
const WEB_DIR = import.meta.dir;
/** The committed bundle the server embeds (outside any `dist/`, which .gitignore excludes). */
export const BUNDLE_PATH = join(WEB_DIR, 'bundle', 'app.js');

/** Builds app.ts in memory and returns the script text (identical whatever the current directory). */
export async function buildWebBundle(): Promise<string> {
  const result = await Bun.build({
    entrypoints: [join(WEB_DIR, 'app.ts')],
    target: 'browser',
    format: 'esm',
    minify: false,
    sourcemap: 'none',
  });
  if (!result.success || result.outputs.length !== 1) {
    throw new AggregateError(result.logs, 'building the playground bundle failed');
  }
  // Bun labels each module with a path relative to the current directory: normalise it so the
  // output is the same wherever the build runs (the freshness test compares byte for byte).
  return (await result.outputs[0].text()).replace(/^\/\/ \S*?(src\/\S+\.ts)$/gm, '// $1');
}

if (import.meta.main) {
  const text = await buildWebBundle();
  await Bun.write(BUNDLE_PATH, text);
  console.log(`wrote ${BUNDLE_PATH} (${text.length} bytes)`);
}
