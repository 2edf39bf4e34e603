import { EventEmitter } from 'node:events';
import type { App, Session, WebContents } from 'electron';
import { describe, expect, it } from 'vitest';
import { guardEveryWebContents, guardSessionPermissions } from './webContentsGuards.js';

type Listener = (...args: unknown[]) => void;

/** Records what the guards register, and lets a test fire the events Electron would. */
class FakeContents extends EventEmitter {
  windowOpenHandler: ((details: { url: string }) => { action: string }) | undefined;
  setWindowOpenHandler(handler: (details: { url: string }) => { action: string }): void {
    this.windowOpenHandler = handler;
  }
  /** Fires `event` as Electron does and tells whether a guard prevented it. */
  fire(event: string, ...rest: unknown[]): boolean {
    let prevented = false;
    this.emit(event, { preventDefault: () => (prevented = true), url: 'https://example.com/' }, ...rest);
    return prevented;
  }
}

function created(): FakeContents {
  const app = new EventEmitter();
  guardEveryWebContents(app as unknown as Pick<App, 'on'>);
  const contents = new FakeContents();
  app.emit('web-contents-created', {}, contents as unknown as WebContents);
  return contents;
}

describe('guardEveryWebContents', () => {
  it('guards each new web contents: no navigation, redirect, frame navigation or webview', () => {
    const contents = created();
    for (const event of ['will-navigate', 'will-frame-navigate', 'will-redirect', 'will-attach-webview']) {
      expect(contents.listenerCount(event), event).toBe(1);
      expect(contents.fire(event, {}, {}), event).toBe(true);
    }
  });

  it('denies every new window, a middle-clicked link included', () => {
    const contents = created();
    expect(contents.windowOpenHandler?.({ url: 'https://example.com/' })).toEqual({ action: 'deny' });
    expect(contents.windowOpenHandler?.({ url: 'homebody://app/index.html' })).toEqual({ action: 'deny' });
  });

  it('guards contents created later as well as the first', () => {
    const app = new EventEmitter();
    guardEveryWebContents(app as unknown as Pick<App, 'on'>);
    const guarded = [new FakeContents(), new FakeContents()];
    for (const contents of guarded) app.emit('web-contents-created', {}, contents);
    expect(guarded.map((c) => c.fire('will-navigate'))).toEqual([true, true]);
  });
});

describe('guardSessionPermissions', () => {
  function fakeSession() {
    const handlers: { request?: Listener; check?: (...args: unknown[]) => boolean } = {};
    const session = {
      setPermissionRequestHandler: (handler: Listener) => (handlers.request = handler),
      setPermissionCheckHandler: (handler: (...args: unknown[]) => boolean) => (handlers.check = handler),
    };
    guardSessionPermissions(session as unknown as Session);
    return handlers;
  }

  it('answers requests and checks alike: only a clipboard write from our own page', () => {
    const { request, check } = fakeSession();
    const asked = (permission: string, requestingUrl: string) => {
      let granted: boolean | undefined;
      request?.({}, permission, (answer: boolean) => (granted = answer), { requestingUrl, isMainFrame: true });
      return granted;
    };
    expect(asked('clipboard-sanitized-write', 'homebody://app/index.html')).toBe(true);
    expect(asked('clipboard-sanitized-write', 'https://example.com/')).toBe(false);
    for (const permission of ['media', 'geolocation', 'notifications', 'openExternal', 'hid', 'serial']) {
      expect(asked(permission, 'homebody://app/index.html'), permission).toBe(false);
      expect(check?.(null, permission, 'homebody://app', {}), permission).toBe(false);
    }
    expect(check?.(null, 'clipboard-sanitized-write', 'homebody://app', {})).toBe(true);
  });
});
