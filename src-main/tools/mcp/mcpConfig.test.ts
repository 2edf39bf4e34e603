import { describe, expect, it } from 'vitest';
import { parseMcpJson, parseServerConfig, transportView } from './mcpConfig.js';
import {
  definitionHash,
  mcpToolName,
  reachesOutFromAnnotations,
  riskFromAnnotations,
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

describe('MCP tool definitions', () => {
  it('names tools mcp_<server>_<tool> in the registry’s characters, at most 64', () => {
    expect(mcpToolName('everything', 'get-env')).toBe('mcp_everything_get_env');
    expect(mcpToolName('my.server', 'read file')).toBe('mcp_my_server_read_file');
    expect(mcpToolName('s', 'x'.repeat(100))).toHaveLength(64);
  });

  it('takes the risk from the annotations: read-only reads, destructive is irreversible, else a write', () => {
    expect(riskFromAnnotations({ readOnlyHint: true })).toBe('read');
    expect(riskFromAnnotations({ readOnlyHint: false, destructiveHint: true })).toBe('irreversible');
    expect(riskFromAnnotations({ destructiveHint: false })).toBe('write');
    expect(riskFromAnnotations(null)).toBe('write');
  });

  it('treats a tool as reaching beyond the machine unless it says openWorldHint false (the default is true)', () => {
    expect(reachesOutFromAnnotations({ openWorldHint: false })).toBe(false);
    expect(reachesOutFromAnnotations({ openWorldHint: true })).toBe(true);
    expect(reachesOutFromAnnotations({ readOnlyHint: true })).toBe(true);
    expect(reachesOutFromAnnotations(null)).toBe(true);
    expect(reachesOutFromAnnotations({ openWorldHint: 'false' })).toBe(true);
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
