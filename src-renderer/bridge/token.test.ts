import { describe, expect, it } from 'vitest';
import { forgetToken, readToken, type TokenSources } from './token.js';

function sources(meta: string | null, href: string, stored: string | null = null) {
  const storage = new Map<string, string>(stored ? [['homebody.token', stored]] : []);
  const replaced: string[] = [];
  const url = new URL(href);
  const s: TokenSources = {
    document: {
      querySelector: (() => (meta === null ? null : { getAttribute: () => meta })) as never,
    },
    location: { href, search: url.search },
    history: {
      state: null,
      replaceState: (_s: unknown, _t: string, u?: string | URL | null) => replaced.push(String(u)),
    },
    storage: {
      getItem: (k) => storage.get(k) ?? null,
      setItem: (k, v) => storage.set(k, v),
      removeItem: (k) => storage.delete(k),
    },
  };
  return { s, storage, replaced };
}

describe('readToken', () => {
  it('takes the token the server wrote into the page, keeps it for reloads and cleans the address bar', () => {
    const { s, storage, replaced } = sources('abc', 'http://127.0.0.1:1/?token=abc&x=2#h');
    expect(readToken(s)).toEqual({ token: 'abc' });
    expect(storage.get('homebody.token')).toBe('abc');
    expect(replaced).toEqual(['/?x=2#h']);
  });

  it('after a reload (no token in the page), uses the one the tab kept', () => {
    const { s, replaced } = sources('', 'http://127.0.0.1:1/', 'kept');
    expect(readToken(s)).toEqual({ token: 'kept' });
    expect(replaced).toEqual([]);
  });

  it('never takes ?token= itself: one the server did not write into the page is not accepted, and does not replace a kept one', () => {
    const wrong = sources('', 'http://127.0.0.1:1/index.html?token=wrong#h');
    expect(readToken(wrong.s)).toEqual({ token: null, problem: 'not-accepted' });
    expect(wrong.storage.has('homebody.token')).toBe(false);
    expect(wrong.replaced).toEqual(['/index.html#h']);

    const kept = sources('', 'http://127.0.0.1:1/?token=wrong', 'good');
    expect(readToken(kept.s)).toEqual({ token: 'good' });
    expect(kept.storage.get('homebody.token')).toBe('good');
  });

  it('says the token is missing when neither the page nor the tab has one', () => {
    expect(readToken(sources(null, 'http://127.0.0.1:1/').s)).toEqual({ token: null, problem: 'missing' });
  });

  it('forgets a token the server refused, so a reload does not try it again', () => {
    const { s, storage } = sources('', 'http://127.0.0.1:1/', 'old');
    forgetToken(s.storage);
    expect(storage.has('homebody.token')).toBe(false);
    expect(readToken(s)).toEqual({ token: null, problem: 'missing' });
  });
});
