import type { Migration } from './migration.js';

/** A reply's note that earlier turns of its task were left out to fit the model's context (null: nothing was). */
export const migration005: Migration = {
  version: 5,
  name: 'context-note',
  up: `ALTER TABLE messages ADD COLUMN context_note TEXT;`,
};
