import { HomebodyError, type Risk } from '../../../src-shared/contract/index.js';
import type { Db } from '../db.js';

/**
 * A server as stored; `config` is its JSON configuration, with the values of its environment variables and headers
 * sealed by the Host's secret store (services/mcp/sealedMcpStore.ts); it never leaves the Host.
 */
export interface McpServerRecord {
  readonly name: string;
  readonly config: unknown;
  readonly enabled: boolean;
  readonly trusted: boolean;
  /** The user trusts its annotations (a tool that claims to be read-only is a read). */
  readonly trustAnnotations: boolean;
  /** The digest of the stdio command the user confirmed (tools/mcp/mcpConfig.ts commandFingerprint); null if none. */
  readonly confirmedCommand: string | null;
}

export interface McpTrustedToolRecord {
  readonly hash: string;
  readonly definition: { description: string; inputSchema: unknown; annotations: unknown };
}

interface ServerRow {
  name: string;
  config: string;
  enabled: number;
  trusted_at: number | null;
  trust_annotations: number;
  confirmed_command: string | null;
}

/** MCP servers, the tool definitions the user trusted, and per-tool risk overrides. */
export function createMcpRepo(db: Db) {
  const list = db.prepare<[], ServerRow>(
    `SELECT name, config, enabled, trusted_at, trust_annotations, confirmed_command FROM mcp_servers
     ORDER BY added_at, name`,
  );
  const insert = db.prepare<[string, string, number]>(
    'INSERT INTO mcp_servers (name, config, enabled, added_at) VALUES (?, ?, 0, ?)',
  );
  const exists = db.prepare<[string], { n: number }>('SELECT count(*) AS n FROM mcp_servers WHERE name = ?');
  const remove = db.prepare<[string]>('DELETE FROM mcp_servers WHERE name = ?');
  const setConfig = db.prepare<[string, string]>('UPDATE mcp_servers SET config = ? WHERE name = ?');
  const setEnabled = db.prepare<[number, string]>('UPDATE mcp_servers SET enabled = ? WHERE name = ?');
  const setTrustAnnotations = db.prepare<[number, string]>(
    'UPDATE mcp_servers SET trust_annotations = ? WHERE name = ?',
  );
  const setConfirmedCommand = db.prepare<[string, string]>(
    'UPDATE mcp_servers SET confirmed_command = ? WHERE name = ?',
  );
  const setTrusted = db.prepare<[number, string]>(
    'UPDATE mcp_servers SET trusted_at = coalesce(trusted_at, ?) WHERE name = ?',
  );
  const trustTool = db.prepare<[string, string, string, string, number]>(
    `INSERT INTO mcp_trusted_tools (server, tool, hash, definition, trusted_at) VALUES (?, ?, ?, ?, ?)
     ON CONFLICT (server, tool) DO UPDATE SET hash = excluded.hash, definition = excluded.definition,
       trusted_at = excluded.trusted_at`,
  );
  const trusted = db.prepare<[string], { tool: string; hash: string; definition: string }>(
    'SELECT tool, hash, definition FROM mcp_trusted_tools WHERE server = ?',
  );
  const overrides = db.prepare<[string], { tool: string; risk: Risk }>(
    'SELECT tool, risk FROM mcp_risk_overrides WHERE server = ?',
  );
  const setOverride = db.prepare<[string, string, string]>(
    `INSERT INTO mcp_risk_overrides (server, tool, risk) VALUES (?, ?, ?)
     ON CONFLICT (server, tool) DO UPDATE SET risk = excluded.risk`,
  );
  const clearOverride = db.prepare<[string, string]>('DELETE FROM mcp_risk_overrides WHERE server = ? AND tool = ?');

  return {
    list(): McpServerRecord[] {
      return list.all().map((row) => ({
        name: row.name,
        config: JSON.parse(row.config) as unknown,
        enabled: row.enabled === 1,
        trusted: row.trusted_at !== null,
        trustAnnotations: row.trust_annotations === 1,
        confirmedCommand: row.confirmed_command,
      }));
    },
    /** Adds all, disabled, or none: a name already taken is refused before anything is written. */
    add(configs: ReadonlyArray<{ readonly name: string }>, now: number): void {
      db.transaction(() => {
        for (const config of configs) {
          if (exists.get(config.name)?.n)
            throw new HomebodyError('INVALID_REQUEST', `An MCP server named "${config.name}" already exists.`);
          insert.run(config.name, JSON.stringify(config), now);
        }
      })();
    },
    remove(name: string): void {
      remove.run(name);
    },
    /** Replaces a server's stored configuration (its values sealed again); the server keeps its state. */
    setConfig(name: string, config: unknown): void {
      setConfig.run(JSON.stringify(config), name);
    },
    setEnabled(name: string, enabled: boolean): void {
      setEnabled.run(enabled ? 1 : 0, name);
    },
    setTrustAnnotations(name: string, trust: boolean): void {
      setTrustAnnotations.run(trust ? 1 : 0, name);
    },
    /** Records the command the user confirmed (its digest); a changed command no longer matches it. */
    confirmCommand(name: string, fingerprint: string): void {
      setConfirmedCommand.run(fingerprint, name);
    },
    /** Records trusted definitions, and that the server's trust was set (kept from the first time). */
    trust(name: string, tools: ReadonlyMap<string, McpTrustedToolRecord>, now: number): void {
      db.transaction(() => {
        for (const [tool, record] of tools)
          trustTool.run(name, tool, record.hash, JSON.stringify(record.definition), now);
        setTrusted.run(now, name);
      })();
    },
    trustedTools(name: string): Map<string, McpTrustedToolRecord> {
      return new Map(
        trusted
          .all(name)
          .map((row) => [
            row.tool,
            { hash: row.hash, definition: JSON.parse(row.definition) as McpTrustedToolRecord['definition'] },
          ]),
      );
    },
    overrides(name: string): Map<string, Risk> {
      return new Map(overrides.all(name).map((row) => [row.tool, row.risk]));
    },
    setOverride(name: string, tool: string, risk: Risk | null): void {
      if (risk === null) clearOverride.run(name, tool);
      else setOverride.run(name, tool, risk);
    },
  };
}
export type McpRepo = ReturnType<typeof createMcpRepo>;
