import type { Migration } from './migration.js';

/**
 * Two things the user decides per MCP server: whether to trust its annotations (off until switched on: a tool that
 * claims to be read-only is then a read), and the stdio command they confirmed, as a digest of its command,
 * arguments and environment names (the values are secrets and may be entered again). A server stored before this
 * has no confirmed command: it starts again only after the user has seen and confirmed it.
 */
export const migration010: Migration = {
  version: 10,
  name: 'mcp_trust',
  up: `
    ALTER TABLE mcp_servers ADD COLUMN trust_annotations INTEGER NOT NULL DEFAULT 0
      CHECK (trust_annotations IN (0, 1));
    ALTER TABLE mcp_servers ADD COLUMN confirmed_command TEXT
      CHECK (confirmed_command IS NULL OR length(confirmed_command) = 64);
  `,
};
