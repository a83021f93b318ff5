import { statSync } from 'node:fs';
import SqliteDatabase from 'better-sqlite3';
import { sql } from 'kysely';
import type { Db } from '../server/db/schema';

/**
 * Size on disk of bench/search's databases, and the search index's share of it: on SQLite the
 * file and its WAL, with dbstat's pages per table and index (the FTS5 tables' shadow tables and
 * the passages tables are the index); on PostgreSQL the database's size, with the GIN indexes,
 * the search tables and the tsvector columns' bytes.
 */

export type DiskSize = {
  /** Everything on disk: SQLite's file + WAL; PostgreSQL's database. */
  bytes: number;
  /** The search index: FTS tables, passages, GIN indexes, tsvector columns. */
  searchBytes: number;
  /** The biggest parts of the search index, name -> bytes. */
  searchParts: Array<[string, number]>;
  /** The documents table (with its own indexes), for scale. */
  documentsBytes: number;
  note: string;
};

const SEARCH_NAME = /search|passage|fts|vocab/i;

const fileSize = (path: string) => {
  try {
    return statSync(path).size;
  } catch {
    return 0;
  }
};

export function sqliteSize(file: string): DiskSize {
  const db = new SqliteDatabase(file, { readonly: true });
  try {
    const virtual = db
      .prepare(`SELECT name FROM sqlite_master WHERE type = 'table' AND sql LIKE '%fts5%'`)
      .all() as Array<{ name: string }>;
    const objects = db.prepare(`SELECT name, type, tbl_name FROM sqlite_master`).all() as Array<{
      name: string;
      type: string;
      tbl_name: string;
    }>;
    const tableOf = new Map(objects.map((o) => [o.name, o.tbl_name]));
    const pages = db
      .prepare(`SELECT name, SUM(pgsize) AS bytes FROM dbstat GROUP BY name`)
      .all() as Array<{ name: string; bytes: number }>;
    const isSearch = (name: string) => {
      const table = tableOf.get(name) ?? name;
      return (
        SEARCH_NAME.test(table) ||
        virtual.some((v) => table === v.name || table.startsWith(`${v.name}_`))
      );
    };
    const parts = pages.filter((p) => isSearch(p.name)).map((p) => [p.name, p.bytes] as const);
    const documentsBytes = pages
      .filter((p) => (tableOf.get(p.name) ?? p.name) === 'documents')
      .reduce((s, p) => s + p.bytes, 0);
    const wal = fileSize(`${file}-wal`);
    return {
      bytes: fileSize(file) + wal,
      searchBytes: parts.reduce((s, [, b]) => s + b, 0),
      searchParts: parts.map(([n, b]): [string, number] => [n, b]).sort((a, b) => b[1] - a[1]),
      documentsBytes,
      note: `database file ${mb(fileSize(file))} + WAL ${mb(wal)}`,
    };
  } finally {
    db.close();
  }
}

export async function postgresSize(db: Db): Promise<DiskSize> {
  const { rows } = await sql<{
    name: string;
    table_name: string | null;
    am: string | null;
    kind: string;
    bytes: string;
  }>`
    SELECT c.relname AS name, t.relname AS table_name, am.amname AS am, c.relkind AS kind,
      pg_total_relation_size(c.oid) AS bytes
    FROM pg_class c
    JOIN pg_namespace n ON n.oid = c.relnamespace
    LEFT JOIN pg_am am ON am.oid = c.relam
    LEFT JOIN pg_index i ON i.indexrelid = c.oid
    LEFT JOIN pg_class t ON t.oid = i.indrelid
    WHERE n.nspname = 'public' AND c.relkind IN ('r', 'i')`.execute(db);
  const parts: Array<[string, number]> = [];
  for (const r of rows) {
    const table = r.table_name ?? r.name;
    // A search table's total size holds its indexes: count them once, with the table.
    if (r.kind === 'r' && SEARCH_NAME.test(r.name)) parts.push([r.name, Number(r.bytes)]);
    else if (r.kind === 'i' && r.am === 'gin' && !SEARCH_NAME.test(table)) {
      parts.push([r.name, Number(r.bytes)]);
    }
  }
  const columns = await sql<{ table_name: string; column_name: string }>`
    SELECT table_name, column_name FROM information_schema.columns
    WHERE table_schema = 'public' AND data_type = 'tsvector'`.execute(db);
  for (const c of columns.rows) {
    if (SEARCH_NAME.test(c.table_name)) continue;
    const { rows: sum } = await sql<{ bytes: string | null }>`
      SELECT SUM(pg_column_size(${sql.ref(c.column_name)})) AS bytes
      FROM ${sql.table(c.table_name)}`.execute(db);
    parts.push([`${c.table_name}.${c.column_name}`, Number(sum[0]?.bytes ?? 0)]);
  }
  const { rows: total } = await sql<{ bytes: string }>`
    SELECT pg_database_size(current_database()) AS bytes`.execute(db);
  const documents = rows.find((r) => r.name === 'documents' && r.kind === 'r');
  return {
    bytes: Number(total[0].bytes),
    searchBytes: parts.reduce((s, [, b]) => s + b, 0),
    searchParts: parts.sort((a, b) => b[1] - a[1]),
    documentsBytes: Number(documents?.bytes ?? 0),
    note: 'pg_database_size',
  };
}

export const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;
