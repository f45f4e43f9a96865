/** The SQLite and PostgreSQL schemas must describe the same tables with the same columns (src/db/pg/schema.ts). */
import { describe, expect, it } from "bun:test";
import { PgTable, getTableConfig as pgTable } from "drizzle-orm/pg-core";
import { SQLiteTable, getTableConfig as sqliteTable } from "drizzle-orm/sqlite-core";
import * as pg from "../../src/db/pg/schema.ts";
import * as sqlite from "../../src/db/schema.ts";

function sqliteTables() {
  return Object.values(sqlite)
    .filter((value) => value instanceof SQLiteTable)
    .map((table) => sqliteTable(table as SQLiteTable));
}

function pgTables() {
  return Object.values(pg)
    .filter((value) => value instanceof PgTable)
    .map((table) => pgTable(table as PgTable));
}

describe("the two schemas", () => {
  it("have the same tables", () => {
    expect(
      pgTables()
        .map((t) => t.name)
        .sort(),
    ).toEqual(
      sqliteTables()
        .map((t) => t.name)
        .sort(),
    );
  });

  it("give every table the same columns, nullability, indexes and foreign keys", () => {
    const shape = (t: { name: string; columns: { name: string; notNull: boolean; primary: boolean }[]; indexes: unknown[]; foreignKeys: unknown[] }) => ({
      table: t.name,
      columns: t.columns.map((c) => `${c.name}${c.notNull ? " not null" : ""}${c.primary ? " primary" : ""}`).sort(),
      indexes: t.indexes.length,
      foreignKeys: t.foreignKeys.length,
    });
    const byName = <T extends { table: string }>(list: T[]) => list.sort((a, b) => a.table.localeCompare(b.table));
    expect(byName(pgTables().map(shape))).toEqual(byName(sqliteTables().map(shape)));
  });
});
