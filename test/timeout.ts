/**
 * The per-test timeout every test file sets with `setDefaultTimeout(SUITE_TIMEOUT_MS)`: Bun's default
 * is 5 s, too short for tests that start servers, PostgreSQL clusters or browsers on a loaded 2-core
 * machine. It must be set in each file: `setDefaultTimeout` applies to the file that calls it only
 * (a preload sets it for the first file alone), and Bun reads no timeout from bunfig.toml.
 * test/architecture/test-timeouts.test.ts checks that every test file does.
 */
export const SUITE_TIMEOUT_MS = 60_000;
