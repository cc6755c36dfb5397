/**
 * `calibrate --key-id KEY --name NAME [FILE|FOLDER|-]...`: the store side of the offline command
 * (issue 34). An operator with a large archive makes a profile on the server's machine and stores it
 * for a key in the configured database (DATABASE_PATH / DATABASE_URL), where the key's detections
 * find it by id. An admin command like `keys`: not charged, and not held to the API's limits (the
 * number of profiles a key keeps, the texts of one request, the time budget). The key is resolved
 * (id, prefix or the key itself, as `keys revoke` takes it) before any text is read.
 */
import { resolveKey } from '../modules/keys';
import { storeProfile } from '../modules/calibrations';
import type { Store } from '../store';
import { runCalibrateCli } from './calibrate';

/** The value of `--key-id` in `argv` (`--key-id X` or `--key-id=X`), or null. */
export function keyIdArg(argv: readonly string[]): string | null {
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--key-id') return argv[i + 1] ?? null;
    if (argv[i].startsWith('--key-id=')) return argv[i].slice('--key-id='.length);
  }
  return null;
}

/** Runs `calibrate`; with `--key-id`, against the store `open()` gives (opened only then, closed after). */
export async function runCalibrateWithStore(
  argv: string[],
  open: () => Promise<Pick<Store, 'keys' | 'calibrations' | 'close'>>,
  err: (line: string) => void = (line) => console.error(line),
): Promise<number> {
  const ref = keyIdArg(argv);
  if (ref === null || ref.startsWith('-')) return runCalibrateCli(argv);
  const store = await open();
  try {
    const key = await resolveKey(store.keys, ref).catch((error: Error) => {
      err(`calibrate: ${error.message}`);
      return undefined;
    });
    if (key === undefined) return 2;
    if (key?.status !== 'active') {
      err(`calibrate: no active API key "${ref}" in this database (see "keys list"); nothing was read or stored`);
      return 2;
    }
    return await runCalibrateCli(argv, {
      saveForKey: async (profile) => ({ id: (await storeProfile(store.calibrations, key.id, profile)).id }),
    });
  } finally {
    await store.close();
  }
}
