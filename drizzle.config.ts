/** drizzle-kit configuration: `bunx drizzle-kit generate` writes SQL migrations into drizzle/. */
import { defineConfig } from 'drizzle-kit';

export default defineConfig({
  dialect: 'sqlite',
  schema: './src/db/schema.ts',
  out: './drizzle',
});
