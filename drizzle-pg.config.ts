import { defineConfig } from "drizzle-kit";

// The PostgreSQL twin of drizzle.config.ts: `npm run db:generate` runs both (see src/db/pg/schema.ts).
export default defineConfig({
  dialect: "postgresql",
  schema: "./src/db/pg/schema.ts",
  out: "./drizzle-pg",
});
