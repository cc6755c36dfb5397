/**
 * Preloaded before every test file (bunfig.toml): Bun 1.4 does not read a timeout from bunfig.toml,
 * and its 5 s default fails the tests that start servers, PostgreSQL clusters or browsers on a
 * loaded 2-core machine. Tests that need longer still say so themselves.
 */
import { setDefaultTimeout } from 'bun:test';

setDefaultTimeout(60_000);
