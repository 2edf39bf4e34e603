import { describe, expect, it } from 'vitest';
import {
  codeDigits,
  commandParts,
  configFromInputs,
  definitionText,
  emptyMcpInputs,
  toolNotes,
  transportSummary,
} from './mcpServerForm.js';

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

describe('what Settings says about a server’s claims and its command', () => {
  it('notes a read-only claim that is not believed, a tool without annotations, and one that asks every time', () => {
    expect(toolNotes({ claim: 'read-only', annotationRisk: 'write', alwaysAsk: true })).toEqual([
      'claims read-only',
      'asks every time',
    ]);
    expect(toolNotes({ claim: 'read-only', annotationRisk: 'read', alwaysAsk: false })).toEqual([]);
    expect(toolNotes({ claim: 'none', annotationRisk: 'write', alwaysAsk: true })).toEqual([
      'no annotations',
      'asks every time',
    ]);
    // Overridden by the user: the claim is still named, nothing is forced.
    expect(toolNotes({ claim: 'none', annotationRisk: 'write', alwaysAsk: false })).toEqual(['no annotations']);
    expect(toolNotes({ claim: 'destructive', annotationRisk: 'irreversible', alwaysAsk: false })).toEqual([]);
  });

  it('shows the command to confirm part by part, with hidden characters written out', () => {
    expect(
      commandParts({ kind: 'stdio', command: 'node\u001b[8m', args: ['a b', 'x\u202ey'], envKeys: ['KEY\u200b'] }),
    ).toEqual({ command: 'node\\u001b[8m', args: ['a b', 'x\\u202ey'], envKeys: ['KEY\\u200b'] });
  });

  it('reads the typed code as its digits', () => {
    expect(codeDigits(' 493 028 ')).toBe('493028');
    expect(codeDigits('493-028')).toBe('493028');
  });
});
