import { describe, expect, it } from 'vitest';
import { visibleText } from '../../../src-shared/contract/index.js';
import { commandFingerprint, commandLines, commandToConfirm } from './commandConfirmation.js';

const stdio = {
  name: 'files',
  transport: { kind: 'stdio' as const, command: 'npx', args: ['-y', 'server'], env: { B: 'secret-b', A: 'secret-a' } },
};

describe('what a stdio server asks the user to confirm', () => {
  it('is its command, arguments and environment names; an HTTP server runs no command and has none', () => {
    expect(commandToConfirm(stdio)).toEqual({
      server: 'files',
      command: 'npx',
      args: ['-y', 'server'],
      envKeys: ['B', 'A'],
    });
    expect(
      commandToConfirm({ name: 'web', transport: { kind: 'http', url: 'https://x.example/mcp', headers: {} } }),
    ).toBeNull();
  });

  it('is remembered as a digest that changes with the command, any argument or a variable name, not with values', () => {
    const base = commandToConfirm(stdio)!;
    const digest = commandFingerprint(base);
    expect(digest).toMatch(/^[0-9a-f]{64}$/);
    // The same command with its variables in another order, or other values (secrets entered again), is the same.
    expect(commandFingerprint({ ...base, envKeys: ['A', 'B'] })).toBe(digest);
    expect(
      commandFingerprint(commandToConfirm({ ...stdio, transport: { ...stdio.transport, env: { A: 'x', B: 'y' } } })!),
    ).toBe(digest);
    for (const changed of [
      { ...base, command: 'npx2' },
      { ...base, args: ['-y', 'server', '--write'] },
      { ...base, args: ['server', '-y'] },
      { ...base, args: ['-y server'] },
      { ...base, envKeys: ['A', 'B', 'NODE_OPTIONS'] },
      { ...base, envKeys: ['A'] },
    ]) {
      expect(commandFingerprint(changed), JSON.stringify(changed)).not.toBe(digest);
    }
    // The server's name is not part of what runs.
    expect(commandFingerprint({ ...base, server: 'other' })).toBe(digest);
  });

  it('is shown one fact a line, arguments quoted, nothing hidden or able to steer a terminal', () => {
    expect(
      commandLines({
        server: 'x',
        command: '/bin/sh\u001b[2K',
        args: ['-c', 'echo "hi"', 'a\u202eb', 'tag\u{e0041}'],
        envKeys: ['TOKEN\u200b'],
      }),
    ).toEqual([
      'Command: /bin/sh\\u001b[2K',
      'Arguments: "-c" "echo \\"hi\\"" "a\\u202eb" "tag\\u{e0041}"',
      'Environment variables: TOKEN\\u200b (values not shown)',
    ]);
    expect(commandLines({ server: 'x', command: 'srv', args: [], envKeys: [] }).slice(1)).toEqual([
      'Arguments: (none)',
      'Environment variables: (none)',
    ]);
  });

  it('leaves ordinary text as it is, accents and all', () => {
    expect(visibleText('/home/zoë/My Files/服务器.js')).toBe('/home/zoë/My Files/服务器.js');
    expect(visibleText('line\nbreak\u0085end\ud800')).toBe('line\\u000abreak\\u0085end\\ud800');
  });
});
