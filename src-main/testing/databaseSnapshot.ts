import Database from 'better-sqlite3';

/**
 * Every row of every table of a Homebody database, read through a read-only connection of its own, so that a test
 * can prove a batch of calls wrote nothing (the store's repositories would only show what they choose to). Rows are
 * rendered as sorted JSON lines per table: two snapshots are equal exactly when no row was added, changed or removed.
 */
export type DatabaseSnapshot = Record<string, string[]>;

function rowText(row: unknown): string {
  return JSON.stringify(row, (_key, value: unknown) =>
    Buffer.isBuffer(value) ? `blob:${value.toString('hex')}` : typeof value === 'bigint' ? `${value}n` : value,
  );
}

function quoteName(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}

export function snapshotDatabase(file: string): DatabaseSnapshot {
  const db = new Database(file, { readonly: true, fileMustExist: true });
  try {
    const tables = db
      .prepare<[], { name: string }>("SELECT name FROM sqlite_schema WHERE type = 'table' ORDER BY name")
      .all()
      .map((t) => t.name);
    const snapshot: DatabaseSnapshot = {};
    for (const table of tables) {
      snapshot[table] = db
        .prepare(`SELECT * FROM ${quoteName(table)}`)
        .all()
        .map(rowText)
        .sort();
    }
    return snapshot;
  } finally {
    db.close();
  }
}
