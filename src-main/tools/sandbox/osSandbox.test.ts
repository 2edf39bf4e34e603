import { describe, expect, it } from 'vitest';
import { ToolSandboxSchema } from '../../../src-shared/contract/index.js';
import { describeOsSandbox, type NoSandboxReason } from './osSandbox.js';

describe('describeOsSandbox', () => {
  it('says what bubblewrap confines, in the words the Privacy page and the Doctor show', () => {
    const shown = describeOsSandbox({ kind: 'bubblewrap', command: '/usr/bin/bwrap', version: '0.8.0', bindFd: true });
    expect(shown).toEqual({
      kind: 'bubblewrap',
      summary: 'bubblewrap: the tool worker sees only the granted folders and has no network.',
      detail: expect.stringContaining('bubblewrap 0.8.0'),
    });
    expect(shown.detail).toMatch(/never the history database or the secret key/);
    expect(shown.detail).toMatch(/Web and mail tools run in a second one/);
    expect(ToolSandboxSchema.parse(shown)).toEqual(shown);
  });

  it('says when there is no OS sandbox, why, and what to do', () => {
    const none = (reason: NoSandboxReason, detail = '') => describeOsSandbox({ kind: 'none', reason, detail });
    expect(none('no-bwrap', '/usr/bin/bwrap')).toEqual({
      kind: 'none',
      summary: 'No OS sandbox: bwrap is not installed; tools are confined by path checks only.',
      detail: 'Install bubblewrap (on Debian or Ubuntu: sudo apt install bubblewrap) and restart Homebody.',
    });
    expect(none('turned-off').summary).toBe(
      'No OS sandbox: HOMEBODY_SANDBOX=off turned it off; tools are confined by path checks only.',
    );
    const failed = none('bwrap-failed', 'bwrap: setting up uid map: Permission denied');
    expect(failed.summary).toMatch(/^No OS sandbox: bwrap could not start one/);
    expect(failed.detail).toContain('bwrap said: bwrap: setting up uid map: Permission denied.');
    expect(failed.detail).toMatch(/user namespaces/);
    expect(none('unsupported-platform', 'Windows').summary).toBe(
      'No OS sandbox: Homebody has none for Windows yet; tools are confined by path checks only.',
    );
    for (const reason of ['no-sandbox-exec', 'sandbox-exec-failed'] as const) {
      expect(none(reason, 'x').summary).toMatch(/^No OS sandbox: .*path checks only\.$/);
    }
  });

  it('names Seatbelt on macOS', () => {
    expect(describeOsSandbox({ kind: 'seatbelt', command: '/usr/bin/sandbox-exec' }).summary).toBe(
      'Seatbelt: the tool worker sees only the granted folders and has no network.',
    );
  });
});
