import type { Migration } from './migration.js';

/**
 * A call's result in one line for people ("Created /tmp/docs/hello.txt (20 bytes)."), from its tool's `summarize`,
 * written when the call finishes. Calls recorded before keep NULL: their card shows the result as it is.
 */
export const migration012: Migration = {
  version: 12,
  name: 'result_summary',
  up: `ALTER TABLE tool_calls ADD COLUMN result_summary TEXT;`,
};
