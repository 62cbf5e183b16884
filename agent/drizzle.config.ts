import { defineConfig } from 'drizzle-kit';

export default defineConfig({
  dialect: 'sqlite',
  schema: './agent/src/db/schema.ts',
  out: './agent/drizzle',
});
