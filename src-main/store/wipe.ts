import type { Db } from './db.js';

/** What a wipe emptied, for the caller's report. */
export interface WipeResult {
  /** The tables emptied (every table of the schema but those kept). */
  readonly tables: readonly string[];
}

interface TableRow {
  readonly name: string;
  readonly type: string;
}

/**
 * Deletes every row of every table except `keep`, so that a table added by a later migration is wiped too without
 * anyone remembering to list it. One transaction: all of it or nothing. Full-text indexes are emptied with FTS5's
 * own `delete-all` (their shadow tables belong to them and are never touched directly); row-by-row secure-delete of
 * their entries would cost ~40 ms a task for nothing, since everything goes. Then VACUUM rebuilds the file without
 * the freed pages and the WAL is checkpointed and truncated, so no deleted byte stays in either file.
 */
export function wipeDatabase(db: Db, keep: ReadonlySet<string>): WipeResult {
  const all = db
    .prepare<[], TableRow>(`SELECT name, type FROM pragma_table_list WHERE schema = 'main'`)
    .all()
    .filter((t) => !t.name.startsWith('sqlite_'));
  const tables = all.filter((t) => t.type === 'table' && !keep.has(t.name)).map((t) => t.name);
  const fullText = all
    .filter((t) => t.type === 'virtual' && isFts5(db, t.name))
    .map((t) => t.name)
    .filter((name) => !keep.has(name));

  db.pragma('secure_delete = ON');
  db.transaction(() => {
    // The triggers that keep an index in step with its content table only leave tombstones while the rows go;
    // `delete-all` below drops the whole index, tombstones included.
    const secureDelete = new Map(fullText.map((index) => [index, ftsSecureDelete(db, index)]));
    for (const index of fullText) setFtsSecureDelete(db, index, 0);
    for (const table of tables) db.prepare(`DELETE FROM ${quoteIdentifier(table)}`).run();
    for (const index of fullText) {
      db.prepare(`INSERT INTO ${quoteIdentifier(index)} (${quoteIdentifier(index)}) VALUES ('delete-all')`).run();
      setFtsSecureDelete(db, index, secureDelete.get(index) ?? 0);
    }
    // AUTOINCREMENT counters of the emptied tables start again, as in a new database.
    if (hasSequenceTable(db)) {
      db.prepare(`DELETE FROM sqlite_sequence WHERE name IN (SELECT value FROM json_each(?))`).run(
        JSON.stringify(tables),
      );
    }
  })();
  db.exec('VACUUM');
  db.pragma('wal_checkpoint(TRUNCATE)');
  return { tables };
}

/** How many rows each table holds (FTS5's own tables aside): what a wipe is checked against. */
export function rowCounts(db: Db): Record<string, number> {
  const tables = db
    .prepare<[], TableRow>(`SELECT name, type FROM pragma_table_list WHERE schema = 'main' AND type = 'table'`)
    .all()
    .filter((t) => !t.name.startsWith('sqlite_'));
  return Object.fromEntries(
    tables.map((t) => [
      t.name,
      db.prepare<[], { n: number }>(`SELECT count(*) AS n FROM ${quoteIdentifier(t.name)}`).get()!.n,
    ]),
  );
}

function isFts5(db: Db, name: string): boolean {
  const row = db.prepare<[string], { sql: string | null }>(`SELECT sql FROM sqlite_schema WHERE name = ?`).get(name);
  return /\busing\s+fts5\b/i.test(row?.sql ?? '');
}

function hasSequenceTable(db: Db): boolean {
  return db.prepare(`SELECT 1 FROM sqlite_schema WHERE name = 'sqlite_sequence'`).get() !== undefined;
}

/** The index's own secure-delete setting (0 unless it was turned on), read from its config table. */
function ftsSecureDelete(db: Db, index: string): 0 | 1 {
  const row = db
    .prepare<[], { v: unknown }>(`SELECT v FROM ${quoteIdentifier(`${index}_config`)} WHERE k = 'secure-delete'`)
    .get();
  return Number(row?.v) === 1 ? 1 : 0;
}

function setFtsSecureDelete(db: Db, index: string, value: 0 | 1): void {
  const name = quoteIdentifier(index);
  // A literal: FTS5 takes only an integer here, and a bound JS number arrives as a REAL.
  db.exec(`INSERT INTO ${name} (${name}, rank) VALUES ('secure-delete', ${value})`);
}

/** Table names come from the schema, not from a caller; quoted all the same. */
function quoteIdentifier(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}
