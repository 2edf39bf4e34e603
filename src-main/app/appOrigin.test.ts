import { describe, expect, it } from 'vitest';
import { APP_ENTRY_URL, isAppUrl } from './appOrigin.js';

describe('isAppUrl', () => {
  it('accepts the entry page and other paths on the app origin', () => {
    expect(isAppUrl(APP_ENTRY_URL)).toBe(true);
    expect(isAppUrl('homebody://app/')).toBe(true);
    expect(isAppUrl('homebody://app/assets/index-abc.js?x=1#top')).toBe(true);
  });

  it('refuses other schemes, hosts and look-alikes', () => {
    for (const url of [
      'file:///work/build/renderer/index.html',
      'https://app/index.html',
      'http://localhost:5173/',
      'homebody://evil/index.html',
      'homebody://app.evil.com/',
      'homebody://user@app/',
      'homebody://app:8080/',
      'homebodyx://app/',
      'about:blank',
      'devtools://devtools/bundled/inspector.html',
      '',
      'not a url',
    ]) {
      expect(isAppUrl(url), url).toBe(false);
    }
  });
});
