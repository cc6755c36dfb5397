/** drizzle-kit configuration for SQLite: `bun run db:generate` writes its migrations into drizzle/sqlite/. */
import { defineConfig } from 'drizzle-kit';

export default defineConfig({
  dialect: 'sqlite',
  schema: './src/store/sqlite/schema.ts',
  out: './drizzle/sqlite',
});
