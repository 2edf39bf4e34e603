import { chmodSync, mkdtempSync, realpathSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createDesktopDeviceBridge, type DesktopShell } from './desktopDeviceBridge.js';

function fakeDesktop(options: { notifications?: boolean; openPathError?: string } = {}) {
  const calls: string[] = [];
  let clipboard = 'before';
  const desktop: DesktopShell = {
    clipboard: {
      readText: () => clipboard,
      writeText: (text) => {
        clipboard = text;
        calls.push(`clipboard:${text}`);
      },
    },
    shell: {
      openExternal: async (url) => void calls.push(`external:${url}`),
      openPath: async (p) => {
        calls.push(`path:${p}`);
        return options.openPathError ?? '';
      },
    },
    notify: (title, body) => {
      calls.push(`notify:${title}:${body}`);
      return options.notifications ?? true;
    },
  };
  return { desktop, calls };
}

describe('desktop device bridge', () => {
  it('routes the clipboard and notifications to Electron', async () => {
    const { desktop, calls } = fakeDesktop();
    const bridge = createDesktopDeviceBridge(desktop);
    expect(await bridge.handle({ kind: 'clipboard-read' })).toEqual({ text: 'before' });
    await bridge.handle({ kind: 'clipboard-write', text: 'after' });
    expect(await bridge.handle({ kind: 'clipboard-read' })).toEqual({ text: 'after' });
    expect(await bridge.handle({ kind: 'notify', title: 'Reminder', body: 'Tea' })).toMatchObject({ shown: 'system' });
    expect(calls).toEqual(['clipboard:after', 'notify:Reminder:Tea']);
    const silent = createDesktopDeviceBridge(fakeDesktop({ notifications: false }).desktop);
    expect(await silent.handle({ kind: 'notify', title: 'a', body: 'b' })).toMatchObject({ done: false });
  });

  it('opens only http(s) URLs externally, and existing resolved files with openPath', async () => {
    const { desktop, calls } = fakeDesktop();
    const bridge = createDesktopDeviceBridge(desktop);
    const dir = realpathSync(mkdtempSync(path.join(tmpdir(), 'hb-desktop-')));
    const file = path.join(dir, 'a.pdf');
    writeFileSync(file, '%PDF');
    await bridge.handle({ kind: 'open', target: 'https://example.org/x' });
    await bridge.handle({ kind: 'open', target: 'http://example.org' });
    await bridge.handle({ kind: 'open', target: file });
    await bridge.handle({ kind: 'open', target: dir });
    expect(calls).toEqual([
      'external:https://example.org/x',
      'external:http://example.org/',
      `path:${file}`,
      `path:${dir}`,
    ]);
    const failing = createDesktopDeviceBridge(fakeDesktop({ openPathError: 'no app for .pdf' }).desktop);
    await expect(failing.handle({ kind: 'open', target: file })).rejects.toThrow(/no app for \.pdf/);
  });

  it('hands the OS no other scheme, no credentials and no over-long address, with a clear reason', async () => {
    const { desktop, calls } = fakeDesktop();
    const bridge = createDesktopDeviceBridge(desktop);
    const refused: Array<[string, RegExp]> = [
      ['file:///etc/passwd', /only http and https/],
      ['javascript:alert(1)', /only http and https/],
      ['data:text/html,<b>x</b>', /only http and https/],
      ['smb://host/share', /only http and https/],
      ['mailto:a@example.org', /only http and https/],
      ['ms-settings:privacy', /only http and https/],
      ['homebody://app/index.html', /only http and https/],
      ['https://user:pw@example.org/', /user name or password/],
      [`https://example.org/${'a'.repeat(3000)}`, /at most 2048/],
      ['https://exa\tmple.org/', /control characters/],
    ];
    for (const [target, why] of refused) {
      await expect(bridge.handle({ kind: 'open', target }), target).rejects.toMatchObject({
        code: 'INVALID_INPUT',
        message: expect.stringMatching(why),
      });
    }
    expect(calls).toEqual([]);
  });

  it('opens a path only when it is absolute, exists, is its own realpath and is no program', async () => {
    const { desktop, calls } = fakeDesktop();
    const bridge = createDesktopDeviceBridge(desktop);
    const dir = realpathSync(mkdtempSync(path.join(tmpdir(), 'hb-desktop-')));
    writeFileSync(path.join(dir, 'notes.txt'), 'hi');
    symlinkSync(path.join(dir, 'notes.txt'), path.join(dir, 'link.txt'));
    writeFileSync(path.join(dir, 'run.sh'), 'echo hi');
    writeFileSync(path.join(dir, 'tool'), 'binary');
    chmodSync(path.join(dir, 'tool'), 0o755);
    await expect(bridge.handle({ kind: 'open', target: 'relative/file.txt' })).rejects.toMatchObject({
      code: 'INVALID_INPUT',
    });
    await expect(bridge.handle({ kind: 'open', target: path.join(dir, 'missing.txt') })).rejects.toMatchObject({
      code: 'NOT_FOUND',
    });
    await expect(bridge.handle({ kind: 'open', target: path.join(dir, 'link.txt') })).rejects.toMatchObject({
      code: 'INVALID_PATH',
    });
    await expect(bridge.handle({ kind: 'open', target: `${dir}/../${path.basename(dir)}/notes.txt` })).resolves.toEqual(
      { done: true },
    );
    await expect(bridge.handle({ kind: 'open', target: path.join(dir, 'run.sh') })).rejects.toThrow(/program/);
    if (process.platform !== 'win32') {
      await expect(bridge.handle({ kind: 'open', target: path.join(dir, 'tool') })).rejects.toThrow(/executable/);
    }
    expect(calls).toEqual([`path:${path.join(dir, 'notes.txt')}`]);
  });
});
