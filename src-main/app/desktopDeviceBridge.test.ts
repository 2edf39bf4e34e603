import { mkdtempSync, writeFileSync } from 'node:fs';
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

  it('opens only http(s) and mailto URLs externally, and existing absolute files with openPath', async () => {
    const { desktop, calls } = fakeDesktop();
    const bridge = createDesktopDeviceBridge(desktop);
    const dir = mkdtempSync(path.join(tmpdir(), 'hb-desktop-'));
    const file = path.join(dir, 'a.pdf');
    writeFileSync(file, '%PDF');
    await bridge.handle({ kind: 'open', target: 'https://example.org/x' });
    await bridge.handle({ kind: 'open', target: 'mailto:a@example.org' });
    await bridge.handle({ kind: 'open', target: file });
    for (const target of ['file:///etc/passwd', 'javascript:alert(1)', 'smb://h/s', 'relative/file.txt']) {
      await expect(bridge.handle({ kind: 'open', target })).rejects.toMatchObject({ code: 'INVALID_INPUT' });
    }
    await expect(bridge.handle({ kind: 'open', target: path.join(dir, 'missing.txt') })).rejects.toMatchObject({
      code: 'NOT_FOUND',
    });
    expect(calls).toEqual(['external:https://example.org/x', 'external:mailto:a@example.org', `path:${file}`]);
    const failing = createDesktopDeviceBridge(fakeDesktop({ openPathError: 'no app for .pdf' }).desktop);
    await expect(failing.handle({ kind: 'open', target: file })).rejects.toThrow(/no app for \.pdf/);
  });
});
