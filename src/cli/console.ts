/** Console output of the CLI and of the server's first start. */
import type { CreatedKey } from '../modules/keys';
import type { CliIo } from './keys';

/** CLI output on stdout/stderr. */
export function keysIo(): CliIo {
  return { out: (line) => console.log(line), err: (line) => console.error(line) };
}

/** Prints the bootstrap key once, on the console (not the JSON log), so a new user can try the API. */
export function printBootstrapKey(created: CreatedKey): void {
  console.log(
    [
      '',
      '  No API keys yet: created a free key (10,000 words/month). It is shown only this once:',
      '',
      `    ${created.key}`,
      '',
      '  Try:  curl -s localhost:3000/api/detect -H "X-API-Key: <key>" -H "Content-Type: application/json" -d \'{"text":"..."}\'',
      '  Disable this with BOOTSTRAP_KEY=0; manage keys with `bun run keys`.',
      '',
    ].join('\n'),
  );
}
