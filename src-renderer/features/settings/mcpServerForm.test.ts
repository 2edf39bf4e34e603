import { describe, expect, it } from 'vitest';
import { configFromInputs, definitionText, emptyMcpInputs, transportSummary } from './mcpServerForm.js';

describe('the MCP server form', () => {
  it('builds a stdio server with one argument per line and KEY=value environment lines', () => {
    expect(
      configFromInputs({
        ...emptyMcpInputs,
        name: ' files ',
        command: 'npx',
        args: '-y\n@modelcontextprotocol/server-filesystem\n/home/me/My Documents\n',
        env: 'TOKEN=a=b\n',
      }),
    ).toEqual({
      config: {
        name: 'files',
        transport: {
          kind: 'stdio',
          command: 'npx',
          args: ['-y', '@modelcontextprotocol/server-filesystem', '/home/me/My Documents'],
          env: { TOKEN: 'a=b' },
        },
      },
    });
  });

  it('builds an HTTP server with Name: value header lines', () => {
    expect(
      configFromInputs({
        ...emptyMcpInputs,
        kind: 'http',
        name: 'r',
        url: 'https://x.example/mcp',
        headers: 'Authorization: Bearer k',
      }),
    ).toEqual({
      config: {
        name: 'r',
        transport: { kind: 'http', url: 'https://x.example/mcp', headers: { Authorization: 'Bearer k' } },
      },
    });
  });

  it('says what is missing or malformed', () => {
    expect(configFromInputs(emptyMcpInputs)).toEqual({ error: 'Give the server a name.' });
    expect(configFromInputs({ ...emptyMcpInputs, name: 'x' })).toEqual({
      error: 'Enter the command that starts the server.',
    });
    expect(configFromInputs({ ...emptyMcpInputs, name: 'x', command: 'c', env: 'TOKEN' })).toEqual({
      error: 'Each environment line reads NAME=value; "TOKEN" does not.',
    });
    expect(configFromInputs({ ...emptyMcpInputs, kind: 'http', name: 'x' })).toEqual({
      error: 'Enter the server’s URL.',
    });
  });

  it('shows the transport with secret names only', () => {
    expect(transportSummary({ kind: 'stdio', command: 'node', args: ['s.js', 'stdio'], envKeys: ['TOKEN'] })).toBe(
      'node s.js stdio · TOKEN=•••',
    );
    expect(transportSummary({ kind: 'http', url: 'https://x.example/mcp', headerKeys: ['Authorization'] })).toBe(
      'https://x.example/mcp · Authorization: •••',
    );
  });

  it('shows a definition for review, or says the tool is new', () => {
    expect(definitionText(null)).toMatch(/new tool/);
    expect(definitionText({ description: 'Greets.', inputSchema: { type: 'object' }, annotations: null })).toContain(
      'Greets.\n\nInput schema: {\n  "type": "object"\n}',
    );
  });
});
