import { migration001 } from './001_initial.js';
import { migration002 } from './002_tools.js';
import { migration003 } from './003_search.js';
import { migration004 } from './004_models.js';
import { migration005 } from './005_context_note.js';
import { migration006 } from './006_mcp.js';
import { migration007 } from './007_egress.js';
import { migration008 } from './008_eval.js';
import { migration009 } from './009_decisions.js';
import { migration010 } from './010_mcp_trust.js';
import { migration011 } from './011_reasoning_tokens.js';
import { migration012 } from './012_result_summary.js';
import { migration013 } from './013_search_text.js';
import { migration014 } from './014_remote_models.js';
import { migration015 } from './015_remote_consent.js';
import type { Migration } from './migration.js';

/** Every migration, in order. A new schema change is a new file appended here, never an edit of an old one. */
export const MIGRATIONS: readonly Migration[] = [
  migration001,
  migration002,
  migration003,
  migration004,
  migration005,
  migration006,
  migration007,
  migration008,
  migration009,
  migration010,
  migration011,
  migration012,
  migration013,
  migration014,
  migration015,
];

export const LATEST_SCHEMA_VERSION = MIGRATIONS.at(-1)?.version ?? 0;
