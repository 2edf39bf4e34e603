import { describe, expect, it } from 'vitest';
import { createDesktopCommandConfirmer, type CommandDialogOptions } from './mcpCommandDialog.js';

const request = {
  server: 'files',
  command: '/usr/bin/node',
  args: ['server.js', '--root', '/home/me/My Files', 'evil\u202etxt.exe'],
  envKeys: ['API_KEY'],
};

describe('the desktop confirmation of an MCP command', () => {
  it('shows the exact command, each argument quoted, the variable names only, and hidden characters escaped', async () => {
    const shown: CommandDialogOptions[] = [];
    const confirmer = createDesktopCommandConfirmer(async (options) => {
      shown.push(options);
      return { response: 0 };
    });
    await confirmer.confirm({ ...request }, () => undefined);
    const [options] = shown;
    expect(options?.message).toContain('"files"');
    expect(options?.detail.split('\n').slice(0, 3)).toEqual([
      'Command: /usr/bin/node',
      'Arguments: "server.js" "--root" "/home/me/My Files" "evil\\u202etxt.exe"',
      'Environment variables: API_KEY (values not shown)',
    ]);
    // Enter and Esc land on Cancel.
    expect(options).toMatchObject({ buttons: ['Cancel', 'Run it'], defaultId: 0, cancelId: 0 });
  });

  it('confirms only on "Run it"; Cancel or closing the box is no', async () => {
    const answer = (response: number) =>
      createDesktopCommandConfirmer(async () => ({ response })).confirm(request, () => undefined);
    expect(await answer(1)).toEqual({ confirmed: true });
    expect(await answer(0)).toEqual({ confirmed: false, reason: null });
    expect(await answer(-1)).toEqual({ confirmed: false, reason: null });
  });
});
