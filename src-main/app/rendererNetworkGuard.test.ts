import { describe, expect, it } from 'vitest';
import type { ObservedConnection } from '../privacy/egressLedger.js';
import {
  guardRendererNetwork,
  recordedUrl,
  rendererRequestVerdict,
  type RendererSession,
} from './rendererNetworkGuard.js';

/** A session whose webRequest keeps the listener, and sends requests through it as Electron would. */
function fakeSession() {
  let listener: Parameters<RendererSession['webRequest']['onBeforeRequest']>[0] | undefined;
  const session: RendererSession = {
    webRequest: {
      onBeforeRequest: (l) => {
        listener = l;
      },
    },
  };
  const request = (url: string): boolean => {
    const answers: boolean[] = [];
    listener?.({ url }, (response) => answers.push(response.cancel));
    expect(answers, url).toHaveLength(1);
    return answers[0] === true;
  };
  return { session, request };
}

describe('guardRendererNetwork', () => {
  it("lets the app's own files, devtools and in-memory URLs through, unrecorded", () => {
    const { session, request } = fakeSession();
    const recorded: ObservedConnection[] = [];
    guardRendererNetwork(session, (observed) => recorded.push(observed));
    for (const url of [
      'homebody://app/index.html',
      'homebody://app/assets/index-abc.js',
      'devtools://devtools/bundled/devtools_app.html',
      'data:image/png;base64,iVBORw0KGgo=',
      'blob:homebody://app/2b0c1f0e-7d1c-4a52-9d7e-1f0b1c2d3e4f',
    ]) {
      expect(request(url), url).toBe(false);
    }
    expect(recorded).toEqual([]);
  });

  it('cancels and records everything else, without query, fragment or credentials', () => {
    const { session, request } = fakeSession();
    const recorded: ObservedConnection[] = [];
    guardRendererNetwork(session, (observed) => recorded.push(observed));
    const cancelled = [
      'https://example.com/track?token=secret#frag',
      'http://127.0.0.1:8080/api',
      'ws://example.com/socket?key=secret',
      'wss://example.com/',
      'file:///etc/passwd',
      'https://user:pw@example.com/x',
      'homebody://other/index.html',
      'homebody://app:81/index.html',
      'blob:https://example.com/uuid',
      'chrome-extension://abc/page.html',
    ];
    for (const url of cancelled) expect(request(url), url).toBe(true);
    expect(recorded.map((r) => r.url)).toEqual([
      'https://example.com/track',
      'http://127.0.0.1:8080/api',
      'ws://example.com/socket',
      'wss://example.com/',
      'file:///etc/passwd',
      'https://example.com/x',
      'homebody://other/index.html',
      'homebody://app:81/index.html',
      'blob:https://example.com/uuid',
      'chrome-extension://abc/page.html',
    ]);
    for (const r of recorded) {
      expect(r).toMatchObject({ source: 'renderer', via: 'renderer', allowed: false });
      expect(r.reason).toMatch(/only Homebody's own files/);
      expect(JSON.stringify(r)).not.toMatch(/secret|pw@/);
    }
  });

  it('cancels even when recording fails', () => {
    const { session, request } = fakeSession();
    guardRendererNetwork(session, () => {
      throw new Error('ledger closed');
    });
    const errors = console.error;
    console.error = () => {};
    try {
      expect(request('https://example.com/')).toBe(true);
    } finally {
      console.error = errors;
    }
  });
});

describe('rendererRequestVerdict and recordedUrl', () => {
  it('refuses what cannot be parsed, and keeps long URLs short in the ledger', () => {
    expect(rendererRequestVerdict('not a url')).toMatchObject({ allowed: false });
    expect(rendererRequestVerdict('')).toMatchObject({ allowed: false });
    expect(recordedUrl('not a url?x=1')).toBe('not a url');
    const long = recordedUrl(`https://example.com/${'a'.repeat(2000)}?q=1`);
    expect(long.length).toBeLessThanOrEqual(501);
    expect(long.endsWith('…')).toBe(true);
  });
});
