import { describe, expect, it } from 'vitest';
import type { AppError } from '../../../src-shared/contract/index.js';
import { openStore } from '../../store/store.js';
import { ToolRegistry } from '../../tools/registry.js';
import type { Caller } from '../handlers.js';
import { createSettingsService } from './settingsService.js';

function setup(caller: Caller, shell: 'electron' | 'browser' | 'cli' = 'browser') {
  const store = openStore(':memory:');
  const notices: AppError[] = [];
  const settings = createSettingsService({
    store,
    registry: new ToolRegistry(),
    dataDir: '/data/homebody',
    caller,
    app: { version: '1.2.3', shell, notices },
  });
  return { notices, handlers: settings.handlers, settings };
}

describe('the settings service', () => {
  it('audits a policy change with who made it through this Host', async () => {
    for (const caller of ['user', 'cli'] as const) {
      const { handlers } = setup(caller);
      const policy = await handlers['policy.setMode']({ tool: 'read_text', mode: 'auto' });
      expect(policy.tools).toEqual({ read_text: 'auto' });
      expect(await handlers['policy.get']({})).toEqual(policy);
      const events = (await handlers['audit.list']({})).events;
      expect(events).toEqual([expect.objectContaining({ kind: 'policy-changed', actor: caller })]);
    }
  });

  it('tells app.info the notices of this start, also those a later start-up step added', async () => {
    const { handlers, notices } = setup('cli', 'cli');
    notices.push({ code: 'STORAGE_FULL', message: 'The disk is full.' });
    expect(await handlers['app.info']({})).toEqual({
      name: 'Homebody',
      version: '1.2.3',
      shell: 'browser',
      dataDir: '/data/homebody',
      notices: [{ code: 'STORAGE_FULL', message: 'The disk is full.' }],
    });
    expect((await setup('user', 'electron').handlers['app.info']({})).shell).toBe('electron');
  });

  it('forgets the policy read at start once all data is deleted', async () => {
    const { handlers, settings } = setup('user');
    await handlers['policy.setMode']({ tool: 'read_text', mode: 'off' });
    settings.afterWipe();
    expect((await handlers['policy.get']({})).tools).toEqual({});
  });

  it('grants a folder typed with ~ as the home folder, and refuses a relative one before it reaches the policy', async () => {
    const { handlers } = setup('user');
    const home = (await import('node:os')).homedir();
    const policy = await handlers['policy.grantFolder']({ path: '~', untrusted: false, confirmBroad: true });
    expect(policy.folders.map((f) => f.path)).toContain(home);
    await expect(handlers['policy.grantFolder']({ path: 'Documents', untrusted: false })).rejects.toThrow(
      /The folder "Documents" is a relative path/,
    );
    await expect(handlers['policy.revokeFolder']({ path: '~' })).resolves.toMatchObject({ folders: [] });
  });
});
