import type { Migration } from './migration.js';

/**
 * MCP servers the user added: the configuration (which may hold secrets in env or headers, so it never leaves the
 * Host), whether the user enabled it, the tool definitions the user trusted (a digest each, plus the definition to
 * show beside a changed one), and per-tool risk overrides. A server's rows go with it.
 */
export const migration006: Migration = {
  version: 6,
  name: 'mcp',
  up: `
    CREATE TABLE mcp_servers (
      name TEXT PRIMARY KEY,
      config TEXT NOT NULL CHECK (json_valid(config)),
      enabled INTEGER NOT NULL DEFAULT 0 CHECK (enabled IN (0, 1)),
      trusted_at INTEGER,
      added_at INTEGER NOT NULL
    ) STRICT;

    CREATE TABLE mcp_trusted_tools (
      server TEXT NOT NULL REFERENCES mcp_servers (name) ON DELETE CASCADE,
      tool TEXT NOT NULL,
      hash TEXT NOT NULL CHECK (length(hash) = 64),
      definition TEXT NOT NULL CHECK (json_valid(definition)),
      trusted_at INTEGER NOT NULL,
      PRIMARY KEY (server, tool)
    ) STRICT;

    CREATE TABLE mcp_risk_overrides (
      server TEXT NOT NULL REFERENCES mcp_servers (name) ON DELETE CASCADE,
      tool TEXT NOT NULL,
      risk TEXT NOT NULL CHECK (risk IN ('read', 'write', 'irreversible')),
      PRIMARY KEY (server, tool)
    ) STRICT;
  `,
};
