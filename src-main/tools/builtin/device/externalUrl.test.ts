import { describe, expect, it } from 'vitest';
import { checkExternalUrl, externalUrlOrThrow, looksLikeUrl, MAX_EXTERNAL_URL_LENGTH } from './externalUrl.js';

function reason(target: string): string {
  const checked = checkExternalUrl(target);
  if (checked.ok) throw new Error(`${target} was accepted`);
  return checked.reason;
}

describe('checkExternalUrl', () => {
  it('accepts http and https addresses, normalized', () => {
    expect(checkExternalUrl('https://example.org/a?b=1#c')).toEqual({ ok: true, url: 'https://example.org/a?b=1#c' });
    expect(checkExternalUrl('HTTP://Example.org')).toEqual({ ok: true, url: 'http://example.org/' });
    expect(checkExternalUrl('https://example.org/a b')).toEqual({ ok: true, url: 'https://example.org/a%20b' });
  });

  it('refuses every other scheme', () => {
    for (const target of [
      'file:///etc/passwd',
      'file://server/share/x.exe',
      'javascript:alert(1)',
      'JavaScript:alert(1)',
      'data:text/html,<script>alert(1)</script>',
      'vbscript:msgbox(1)',
      'smb://host/share',
      'ftp://example.org/',
      'mailto:ana@example.org?attach=/etc/passwd',
      'ms-msdt:/id PCWDiagnostic',
      'search-ms:query=x',
      'homebody://app/index.html',
      'slack://open',
      'blob:https://example.org/uuid',
      'about:blank',
      'ws://example.org/',
    ]) {
      expect(reason(target), target).toMatch(/only http and https/);
    }
  });

  it('refuses addresses with a user name or password, and never repeats them', () => {
    for (const target of ['https://user:secret@example.org/', 'https://user@example.org/', 'http://:pw@example.org']) {
      const why = reason(target);
      expect(why, target).toMatch(/user name or password/);
      expect(why).not.toContain('secret');
    }
  });

  it('refuses over-long addresses, also when encoding lengthens them', () => {
    const base = 'https://example.org/';
    expect(checkExternalUrl(base + 'a'.repeat(MAX_EXTERNAL_URL_LENGTH - base.length)).ok).toBe(true);
    expect(reason(base + 'a'.repeat(MAX_EXTERNAL_URL_LENGTH))).toMatch(/at most 2048/);
    expect(reason(base + 'a b'.repeat(600))).toMatch(/once encoded/);
  });

  it('refuses control characters a parser would drop, and what is not a URL', () => {
    expect(reason('https://exa\nmple.org/')).toMatch(/control characters/);
    expect(reason('https://example.org/\t')).toMatch(/control characters/);
    expect(reason('https://example.org/\u0085')).toMatch(/control characters/);
    expect(reason('https://')).toMatch(/not a valid/);
    expect(reason('not a url')).toMatch(/not a valid/);
  });

  it('throws INVALID_INPUT with the reason', () => {
    expect(externalUrlOrThrow('https://example.org')).toBe('https://example.org/');
    expect(() => externalUrlOrThrow('file:///etc/passwd')).toThrow(expect.objectContaining({ code: 'INVALID_INPUT' }));
  });
});

describe('looksLikeUrl', () => {
  it('tells a scheme from a path, Windows drives included', () => {
    expect(looksLikeUrl('https://example.org')).toBe(true);
    expect(looksLikeUrl('javascript:alert(1)')).toBe(true);
    expect(looksLikeUrl('/home/u/a.pdf')).toBe(false);
    expect(looksLikeUrl('C:\\Users\\u\\a.pdf')).toBe(false);
    expect(looksLikeUrl('c:/Users/u/a.pdf')).toBe(false);
    expect(looksLikeUrl('relative/a.pdf')).toBe(false);
  });
});
