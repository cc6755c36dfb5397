import { afterAll } from 'bun:test';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openSqliteStore } from '../../src/store/sqlite';
import { storeContract } from './contract';

const dir = mkdtempSync(join(tmpdir(), 'store-sqlite-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let databases = 0;

storeContract({
  dialect: 'sqlite',
  async fresh() {
    const path = join(dir, `contract-${++databases}.sqlite`);
    openSqliteStore(path, { timeoutMs: 3000 }).db.$client.close(); // migrated once, like the primary does
    return { open: async () => openSqliteStore(path, { timeoutMs: 3000, migrate: false }) };
  },
});
