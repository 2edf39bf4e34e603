import { describe, expect, it } from 'vitest';
import type { McpClaim, Risk } from '../../../src-shared/contract/index.js';
import { parseMcpJson, parseServerConfig, transportView } from './mcpConfig.js';
import {
  definitionHash,
  mcpToolName,
  mcpToolRisk,
  reachesOutFromAnnotations,
  shortDescription,
} from './mcpToolDefinition.js';

describe('mcp.json import', () => {
  it('reads stdio and HTTP servers as Claude Desktop and Cursor write them', () => {
    const servers = parseMcpJson(
      JSON.stringify({
        mcpServers: {
          files: { command: 'npx', args: ['-y', '@modelcontextprotocol/server-filesystem', '/tmp'] },
          github: { command: 'gh-mcp', env: { GITHUB_TOKEN: 'ghp_secret' } },
          remote: { type: 'http', url: 'https://mcp.example.com/mcp', headers: { Authorization: 'Bearer sk-1' } },
        },
      }),
    );
    expect(servers).toEqual([
      {
        name: 'files',
        transport: {
          kind: 'stdio',
          command: 'npx',
          args: ['-y', '@modelcontextprotocol/server-filesystem', '/tmp'],
          env: {},
        },
      },
      {
        name: 'github',
        transport: { kind: 'stdio', command: 'gh-mcp', args: [], env: { GITHUB_TOKEN: 'ghp_secret' } },
      },
      {
        name: 'remote',
        transport: { kind: 'http', url: 'https://mcp.example.com/mcp', headers: { Authorization: 'Bearer sk-1' } },
      },
    ]);
  });

  it('refuses malformed files with an error naming the bad entry', () => {
    expect(() => parseMcpJson('{"mcpServers": {')).toThrow(/This is not JSON/);
    expect(() => parseMcpJson('{"servers": {}}')).toThrow(/"mcpServers"/);
    expect(() => parseMcpJson('{"mcpServers": {}}')).toThrow(/empty/);
    expect(() => parseMcpJson('{"mcpServers": {"ok": {"command": "a"}, "bad": {"args": ["x"]}}}')).toThrow(
      /mcpServers\["bad"\] needs either "command".*not neither/,
    );
    expect(() => parseMcpJson('{"mcpServers": {"both": {"command": "a", "url": "https://x"}}}')).toThrow(
      /mcpServers\["both"\].*not both/,
    );
    expect(() => parseMcpJson('{"mcpServers": {"web": {"url": "ftp://x.example"}}}')).toThrow(
      /mcpServers\["web"\] is not valid: url: the URL must start with http/,
    );
    expect(() => parseMcpJson('{"mcpServers": {"env": {"command": "a", "env": {"K": 1}}}}')).toThrow(
      /mcpServers\["env"\] is not valid: env\.K/,
    );
    expect(() => parseMcpJson('{"mcpServers": {"has space": {"command": "a"}}}')).toThrow(
      /mcpServers\["has space"\] is not valid: name: a server name uses letters/,
    );
    expect(() => parseMcpJson('{"mcpServers": {"old": {"type": "sse", "url": "https://x.example/sse"}}}')).toThrow(
      /SSE/,
    );
    expect(() => parseMcpJson('{"mcpServers": {"x": "npx thing"}}')).toThrow(/mcpServers\["x"\] must be an object/);
  });

  it('shows environment and header names, never their values', () => {
    const [github, remote] = parseMcpJson(
      '{"mcpServers": {"gh": {"command": "gh-mcp", "env": {"GITHUB_TOKEN": "ghp_secret"}}, "r": {"url": "https://x.example/mcp", "headers": {"Authorization": "Bearer sk-1"}}}}',
    );
    const views = JSON.stringify([transportView(github!), transportView(remote!)]);
    expect(views).toContain('GITHUB_TOKEN');
    expect(views).toContain('Authorization');
    expect(views).not.toContain('ghp_secret');
    expect(views).not.toContain('sk-1');
  });

  it('checks one server added in Settings, naming it', () => {
    expect(() => parseServerConfig({ name: 'x', transport: { kind: 'stdio', command: ' ' } })).toThrow(
      /The MCP server "x" is not valid: command: a stdio server needs a command/,
    );
  });
});

/**
 * The risk rule, case by case: the annotations (the server's claims), whether the user trusts this server's
 * annotations, the user's override → the risk the tool runs with, what the annotations alone give, the claim
 * shown in Settings, and whether it asks before every call.
 */
type RiskCase = [
  label: string,
  annotations: unknown,
  trusted: boolean,
  override: Risk | null,
  risk: Risk,
  annotationRisk: Risk,
  claim: McpClaim,
  alwaysAsk: boolean,
];
// prettier-ignore
const RISK_CASES: RiskCase[] = [
  // Both hints: destructive wins, whatever the trust.
  ['both, untrusted',                          { readOnlyHint: true, destructiveHint: true },   false, null,           'irreversible', 'irreversible', 'destructive', false],
  ['both, trusted',                            { readOnlyHint: true, destructiveHint: true },   true,  null,           'irreversible', 'irreversible', 'destructive', false],
  // Each alone.
  ['read-only, untrusted',                     { readOnlyHint: true },                          false, null,           'write',        'write',        'read-only',   true],
  ['read-only, trusted',                       { readOnlyHint: true },                          true,  null,           'read',         'read',         'read-only',   false],
  ['destructive, untrusted',                   { destructiveHint: true },                       false, null,           'irreversible', 'irreversible', 'destructive', false],
  ['destructive, trusted',                     { destructiveHint: true },                       true,  null,           'irreversible', 'irreversible', 'destructive', false],
  // None: no annotations at all, an empty object, a title only, not an object.
  ['no annotations',                           null,                                            false, null,           'write',        'write',        'none',        true],
  ['no annotations, trusted',                  undefined,                                       true,  null,           'write',        'write',        'none',        true],
  ['an empty object, trusted',                 {},                                              true,  null,           'write',        'write',        'none',        true],
  ['a title only, trusted',                    { title: 'Echo' },                               true,  null,           'write',        'write',        'none',        true],
  ['an array, trusted',                        [{ readOnlyHint: true }],                        true,  null,           'write',        'write',        'none',        true],
  // False values claim nothing lower: a write, asking every time unless the server is trusted.
  ['read-only false, untrusted',               { readOnlyHint: false },                         false, null,           'write',        'write',        'other',       true],
  ['read-only false, trusted',                 { readOnlyHint: false },                         true,  null,           'write',        'write',        'other',       false],
  ['destructive false, trusted',               { destructiveHint: false },                      true,  null,           'write',        'write',        'other',       false],
  ['both false, untrusted',                    { readOnlyHint: false, destructiveHint: false }, false, null,           'write',        'write',        'other',       true],
  ['read-only, destructive false, trusted',    { readOnlyHint: true, destructiveHint: false },  true,  null,           'read',         'read',         'read-only',   false],
  ['idempotent only, untrusted',               { idempotentHint: true },                        false, null,           'write',        'write',        'other',       true],
  ['closed world only, trusted',               { openWorldHint: false },                        true,  null,           'write',        'write',        'other',       false],
  // Non-boolean values are no hints: "true", 1 and null claim nothing, in either direction.
  ['read-only "true", trusted',                { readOnlyHint: 'true' },                        true,  null,           'write',        'write',        'none',        true],
  ['read-only 1, trusted',                     { readOnlyHint: 1 },                             true,  null,           'write',        'write',        'none',        true],
  ['read-only null, untrusted',                { readOnlyHint: null },                          false, null,           'write',        'write',        'none',        true],
  ['read-only, destructive "true", untrusted', { readOnlyHint: true, destructiveHint: 'true' }, false, null,           'write',        'write',        'read-only',   true],
  ['read-only, destructive "true", trusted',   { readOnlyHint: true, destructiveHint: 'true' }, true,  null,           'read',         'read',         'read-only',   false],
  // The user's override wins over all of it, and is their own decision: no forced prompt on top.
  ['override read, unannotated',               null,                                            false, 'read',         'read',         'write',        'none',        false],
  ['override read, destructive',               { destructiveHint: true },                       false, 'read',         'read',         'irreversible', 'destructive', false],
  ['override write, claims read-only',         { readOnlyHint: true },                          false, 'write',        'write',        'write',        'read-only',   false],
  ['override irreversible, trusted read-only', { readOnlyHint: true },                          true,  'irreversible', 'irreversible', 'read',         'read-only',   false],
  ['override read, both hints, trusted',       { readOnlyHint: true, destructiveHint: true },   true,  'read',         'read',         'irreversible', 'destructive', false],
];

describe('MCP annotations are a server’s claims', () => {
  it.each(RISK_CASES)('%s', (_label, annotations, trusted, override, risk, annotationRisk, claim, alwaysAsk) => {
    expect(mcpToolRisk(annotations, trusted, override)).toEqual({ risk, annotationRisk, claim, alwaysAsk });
  });
});

describe('MCP tool definitions', () => {
  it('names tools mcp_<server>_<tool> in the registry’s characters, at most 64', () => {
    expect(mcpToolName('everything', 'get-env')).toBe('mcp_everything_get_env');
    expect(mcpToolName('my.server', 'read file')).toBe('mcp_my_server_read_file');
    expect(mcpToolName('s', 'x'.repeat(100))).toHaveLength(64);
  });

  it('treats a tool as reaching beyond the machine unless a trusted server says openWorldHint false (the default is true)', () => {
    expect(reachesOutFromAnnotations({ openWorldHint: false }, true)).toBe(false);
    // The same claim from a server whose annotations are not trusted does not let a tainted task's call skip a prompt.
    expect(reachesOutFromAnnotations({ openWorldHint: false }, false)).toBe(true);
    expect(reachesOutFromAnnotations({ openWorldHint: true }, true)).toBe(true);
    expect(reachesOutFromAnnotations({ readOnlyHint: true }, true)).toBe(true);
    expect(reachesOutFromAnnotations(null, true)).toBe(true);
    expect(reachesOutFromAnnotations({ openWorldHint: 'false' }, true)).toBe(true);
  });

  it('hashes a definition the same whatever its key order, and differently when any part changes', () => {
    const a = { description: 'd', inputSchema: { type: 'object', properties: { x: {} } }, annotations: null };
    const b = { annotations: null, inputSchema: { properties: { x: {} }, type: 'object' }, description: 'd' };
    expect(definitionHash(a)).toBe(definitionHash(b));
    expect(definitionHash({ ...a, description: 'e' })).not.toBe(definitionHash(a));
    expect(definitionHash({ ...a, annotations: { readOnlyHint: true } })).not.toBe(definitionHash(a));
    expect(definitionHash({ ...a, inputSchema: { type: 'object' } })).not.toBe(definitionHash(a));
  });

  it('keeps descriptions short for a small model', () => {
    const long = `Read a file. ${'It does many things. '.repeat(40)}`;
    expect(shortDescription(long, 's').length).toBeLessThanOrEqual(300);
    expect(shortDescription('', 's')).toBe('A tool of the MCP server s.');
  });
});
