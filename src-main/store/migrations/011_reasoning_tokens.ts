import type { Migration } from './migration.js';

/**
 * How many of a reply's completion tokens the model spent thinking. Replies recorded before it was counted keep NULL:
 * their count is unknown, which is not the same as none.
 */
export const migration011: Migration = {
  version: 11,
  name: 'reasoning_tokens',
  up: `ALTER TABLE messages ADD COLUMN reasoning_tokens INTEGER CHECK (reasoning_tokens IS NULL OR reasoning_tokens >= 0);`,
};
