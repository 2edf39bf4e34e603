import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { McpClaim, Risk } from '../../../src-shared/contract/index.js';
import { parseMcpJson, parseServerConfig, transportView } from './mcpConfig.js';
import {
  definitionHash,
  mcpForPeople,
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
    expect(() => parseMcpJson('{"server": {}}')).toThrow(
      /"mcpServers" \(Claude Desktop, Cursor\) or "servers" \(VS Code\)/,
    );
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
    expect(() => parseMcpJson('{"mcpServers": {"odd": {"type": "websocket", "url": "wss://x.example"}}}')).toThrow(
      /mcpServers\["odd"\] has "type": "websocket"; with "url" it is "http" or "sse"/,
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

const real = (file: string) => readFileSync(new URL(`./fixtures/real/${file}`, import.meta.url), 'utf8');
const NO_ENV = { env: {}, home: '/home/ada' };

describe('mcp.json as VS Code writes it ("servers", "inputs", variables, comments)', () => {
  it('reads Claude Desktop’s file from the filesystem server’s README as before', () => {
    expect(parseMcpJson(real('filesystem.claude_desktop_config.json'), NO_ENV)).toEqual([
      {
        name: 'filesystem',
        transport: {
          kind: 'stdio',
          command: 'npx',
          args: [
            '-y',
            '@modelcontextprotocol/server-filesystem',
            '/Users/username/Desktop',
            '/path/to/other/allowed/dir',
          ],
          env: {},
        },
      },
    ]);
  });

  it('reads stdio, http and sse servers, with or without "type", in JSON with comments and trailing commas', () => {
    const servers = parseMcpJson(
      `{
        // A workspace's .vscode/mcp.json
        "servers": {
          "memory": { "command": "npx", "args": ["-y", "@modelcontextprotocol/server-memory",], },
          "context7": { "type": "http", "url": "https://mcp.context7.com/mcp" },
          "legacy": { "type": "sse", "url": "https://legacy.example/sse", "headers": { "X-Key": "k" } },
          "typed": { "type": "stdio", "command": "uvx", "args": ["mcp-server-fetch"], "dev": { "watch": "src/**" } },
        },
        "inputs": [],
      }`,
      NO_ENV,
    );
    expect(servers.map((s) => [s.name, s.transport])).toEqual([
      ['memory', { kind: 'stdio', command: 'npx', args: ['-y', '@modelcontextprotocol/server-memory'], env: {} }],
      ['context7', { kind: 'http', url: 'https://mcp.context7.com/mcp', headers: {} }],
      // An SSE server is reached as VS Code reaches it: streamable HTTP first, then SSE (mcpConnection.ts).
      ['legacy', { kind: 'http', url: 'https://legacy.example/sse', headers: { 'X-Key': 'k' } }],
      ['typed', { kind: 'stdio', command: 'uvx', args: ['mcp-server-fetch'], env: {} }],
    ]);
  });

  it('names every value VS Code would ask for, and imports nothing silently empty', () => {
    expect(() => parseMcpJson(real('github-mcp-server.remote-pat.mcp.json'), NO_ENV)).toThrow(
      'This file needs a value that VS Code asks for when a server starts, and Homebody cannot ask while importing: ' +
        '${input:github_mcp_pat} "GitHub Personal Access Token" (a value typed in), used in servers["github"] headers.Authorization. ' +
        'Write each value in place of its ${input:...} in the file and import it again, or add the server in Settings and type the value there. Nothing was imported.',
    );
    // The same file once the user wrote the token in: the header carries it.
    const written = real('github-mcp-server.remote-pat.mcp.json').replace('${input:github_mcp_pat}', 'ghp_written');
    expect(parseMcpJson(written, NO_ENV)[0]!.transport).toEqual({
      kind: 'http',
      url: 'https://api.githubcopilot.com/mcp/',
      headers: { Authorization: 'Bearer ghp_written' },
    });
    // A default is not an answer: VS Code still asks.
    expect(() =>
      parseMcpJson(
        JSON.stringify({
          inputs: [
            { type: 'promptString', id: 'region', description: 'Region', default: 'eu-west-1' },
            { type: 'pickString', id: 'mode', description: 'Mode', options: ['read', 'write'] },
            { type: 'command', id: 'picked', command: 'extension.pickThing' },
          ],
          servers: {
            aws: { command: 'aws-mcp', args: ['--region', '${input:region}', '--mode=${input:mode}'] },
            other: { command: 'x', env: { REGION: '${input:region}', PICKED: '${input:picked}' } },
          },
        }),
        NO_ENV,
      ),
    ).toThrow(
      /needs 3 values .*\$\{input:region\} "Region" \(a value typed in\), used in servers\["aws"\] args\[1\], servers\["other"\] env\.REGION; \$\{input:mode\} "Mode" \(a choice among "read", "write"\), used in servers\["aws"\] args\[2\]; \$\{input:picked\} \(the result of the VS Code command extension\.pickThing, which Homebody cannot run\), used in servers\["other"\] env\.PICKED\./,
    );
    expect(() =>
      parseMcpJson('{"servers": {"a": {"command": "x", "env": {"K": "${input:nowhere}"}}}}', NO_ENV),
    ).toThrow('servers["a"] env.K uses ${input:nowhere}, which the file\'s "inputs" do not define.');
  });

  it('reads the "mcp" object of a settings.json, as the GitHub server’s README gives it', () => {
    const text = real('github-mcp-server.local.settings.json').replace('${input:github_token}', 'ghp_typed');
    expect(parseMcpJson(text, NO_ENV)).toEqual([
      {
        name: 'github',
        transport: {
          kind: 'stdio',
          command: 'docker',
          args: ['run', '-i', '--rm', '-e', 'GITHUB_PERSONAL_ACCESS_TOKEN', 'ghcr.io/github/github-mcp-server'],
          env: { GITHUB_PERSONAL_ACCESS_TOKEN: 'ghp_typed' },
        },
      },
    ]);
    expect(() => parseMcpJson(real('github-mcp-server.local.settings.json'), NO_ENV)).toThrow(
      /\$\{input:github_token\} "GitHub Personal Access Token" \(a value typed in\), used in servers\["github"\] env\.GITHUB_PERSONAL_ACCESS_TOKEN/,
    );
  });

  it('fills in ${env:NAME}, ${userHome} and ${pathSeparator}, and says which variable is missing', () => {
    const [server] = parseMcpJson(
      '{"servers": {"gh": {"command": "${userHome}${/}bin${pathSeparator}gh-mcp", "env": {"TOKEN": "${env:GH_TOKEN}", "LEFT": "${HOME}"}}}}',
      { env: { GH_TOKEN: 'ghp_env' }, home: '/home/ada' },
    );
    // ${HOME} is no VS Code variable: left as it is, as VS Code leaves it.
    expect(server!.transport).toEqual({
      kind: 'stdio',
      command: '/home/ada/bin/gh-mcp',
      args: [],
      env: { TOKEN: 'ghp_env', LEFT: '${HOME}' },
    });
    expect(() =>
      parseMcpJson(
        '{"servers": {"gh": {"url": "https://x.example/mcp", "headers": {"Authorization": "Bearer ${env:GH_TOKEN}"}}}}',
        NO_ENV,
      ),
    ).toThrow(
      'servers["gh"] headers.Authorization uses ${env:GH_TOKEN}, but Homebody\'s environment has no variable GH_TOKEN: set it before starting Homebody, or write the value in its place.',
    );
  });

  it('refuses what only VS Code can do, naming it: the open folder, a working folder, an env file, its sandbox', () => {
    expect(() => parseMcpJson(real('filesystem.vscode.mcp.json'), NO_ENV)).toThrow(
      'servers["filesystem"] args[2] uses ${workspaceFolder}, which only VS Code can fill in (the folder open in it); write the value in its place.',
    );
    // microsoft/vscode-copilot-chat's own .vscode/mcp.json: a comment and a trailing comma read, its cwd refused.
    expect(() => parseMcpJson(real('vscode-copilot-chat.mcp.json'), NO_ENV)).toThrow(
      /servers\["vscode-playwright-mcp"\] sets the folder its command runs in \(cwd\), which Homebody does not do/,
    );
    expect(() => parseMcpJson('{"servers": {"a": {"command": "x", "envFile": "/srv/.env"}}}', NO_ENV)).toThrow(
      /servers\["a"\] loads variables from a file \(envFile\)/,
    );
    expect(() => parseMcpJson('{"servers": {"a": {"command": "x", "sandboxEnabled": true}}}', NO_ENV)).toThrow(
      /servers\["a"\] asks to run in VS Code's sandbox \(sandboxEnabled\)/,
    );
    expect(() => parseMcpJson('{"servers": {"a": {"command": "${config:python.path}"}}}', NO_ENV)).toThrow(
      /uses \$\{config:python\.path\}, which only VS Code can fill in \(one of its settings\)/,
    );
    expect(() => parseMcpJson('{"servers": {"a": {"type": "http", "command": "x"}}}', NO_ENV)).toThrow(
      /servers\["a"\] has "type": "http"; with "command" it is "stdio"/,
    );
    expect(() => parseMcpJson('{"servers": {}, "inputs": []}', NO_ENV)).toThrow(/The "servers" object is empty/);
    expect(() => parseMcpJson('{"servers": {"a": {"command": "x"}}, "inputs": {}}', NO_ENV)).toThrow(
      /"inputs" must be a list/,
    );
    expect(() => parseMcpJson('{"servers": {"a": {"command": "x"}\n', NO_ENV)).toThrow(
      /This is not JSON: .* at line 2/,
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

  it('gives people the title its annotations give, else its name, and its description', () => {
    const schema = { type: 'object' };
    expect(
      mcpForPeople(
        {
          name: 'get-env',
          description: 'Lists the environment.',
          inputSchema: schema,
          annotations: { title: ' Show  env ' },
        },
        'everything',
      ),
    ).toEqual({ title: 'Show env', text: 'Lists the environment.' });
    // The title beside the annotations is no part of what the user trusted: a server could change it unseen.
    const untitled = { name: 'echo', title: 'Read your files', inputSchema: schema, annotations: { title: 7 } };
    expect(mcpForPeople(untitled, 'everything')).toEqual({
      title: 'echo',
      text: 'A tool of the MCP server everything.',
    });
    expect(
      mcpForPeople({ name: 'x', inputSchema: schema, annotations: { title: 'T'.repeat(200) } }, 's').title,
    ).toHaveLength(80);
  });
});
