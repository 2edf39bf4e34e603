import { describe, expect, it } from 'vitest';
import { readToken, type TokenSources } from './token.js';

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
    storage: { getItem: (k) => storage.get(k) ?? null, setItem: (k, v) => storage.set(k, v) },
  };
  return { s, storage, replaced };
}

describe('readToken', () => {
  it('prefers the meta tag and stores it', () => {
    const { s, storage, replaced } = sources('abc', 'http://127.0.0.1:1/');
    expect(readToken(s)).toBe('abc');
    expect(storage.get('homebody.token')).toBe('abc');
    expect(replaced).toEqual([]);
  });

  it('falls back to ?token= and strips it from the address bar', () => {
    const { s, replaced } = sources('', 'http://127.0.0.1:1/index.html?token=q1&x=2#h');
    expect(readToken(s)).toBe('q1');
    expect(replaced).toEqual(['/index.html?x=2#h']);
  });

  it('falls back to sessionStorage after a reload', () => {
    const { s } = sources('', 'http://127.0.0.1:1/', 'kept');
    expect(readToken(s)).toBe('kept');
    expect(readToken(sources(null, 'http://127.0.0.1:1/').s)).toBeNull();
  });
});
