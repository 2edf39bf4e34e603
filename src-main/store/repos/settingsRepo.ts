import type { Db } from '../db.js';

/** App settings as JSON values under string keys. */
export function createSettingsRepo(db: Db) {
  const get = db.prepare<[string], { value: string }>('SELECT value FROM settings WHERE key = ?');
  const set = db.prepare<[string, string]>(
    'INSERT INTO settings (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value',
  );
  const remove = db.prepare<[string]>('DELETE FROM settings WHERE key = ?');
  return {
    get(key: string): unknown {
      const row = get.get(key);
      return row ? (JSON.parse(row.value) as unknown) : undefined;
    },
    set(key: string, value: unknown): void {
      set.run(key, JSON.stringify(value));
    },
    delete(key: string): void {
      remove.run(key);
    },
  };
}
export type SettingsRepo = ReturnType<typeof createSettingsRepo>;
