/** One drizzle-kit migration embedded at build time (scripts/embed-migrations.ts writes the *.gen.ts lists). */
export interface EmbeddedMigration {
  tag: string;
  when: number;
  breakpoints: boolean;
  sql: string;
}
