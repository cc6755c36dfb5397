/** drizzle-kit configuration for PostgreSQL: `bun run db:generate` writes its migrations into drizzle/postgres/. */
import { defineConfig } from 'drizzle-kit';

export default defineConfig({
  dialect: 'postgresql',
  schema: './src/store/postgres/schema.ts',
  out: './drizzle/postgres',
});
