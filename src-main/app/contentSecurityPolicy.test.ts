import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { RENDERER_CSP, rendererResponseHeaders } from './contentSecurityPolicy.js';

function directives(policy: string): Map<string, string> {
  return new Map(
    policy.split(';').map((part) => {
      const [name = '', ...values] = part.trim().split(/\s+/);
      return [name, values.join(' ')];
    }),
  );
}

describe('RENDERER_CSP', () => {
  it('denies by default and allows only the bundle itself', () => {
    const policy = directives(RENDERER_CSP);
    expect(policy.get('default-src')).toBe("'none'");
    expect(policy.get('script-src')).toBe("'self'");
    expect(policy.get('style-src')).toBe("'self'");
    expect(policy.get('img-src')).toBe("'self' data:");
    expect(policy.get('connect-src')).toBe("'self'");
    expect(policy.get('base-uri')).toBe("'none'");
    expect(policy.get('form-action')).toBe("'none'");
    expect(policy.get('frame-ancestors')).toBe("'none'");
  });

  it('never allows inline code, eval or remote hosts', () => {
    expect(RENDERER_CSP).not.toMatch(/unsafe-|\*|https?:|wss?:/);
  });

  it('is sent with every response', () => {
    const headers = rendererResponseHeaders('text/html; charset=utf-8');
    expect(headers['content-security-policy']).toBe(RENDERER_CSP);
    expect(headers['x-content-type-options']).toBe('nosniff');
  });
});

/** The value of `name` as the browser applies it: fetch directives fall back to default-src. */
function effective(policy: Map<string, string>, name: string): string | undefined {
  return policy.get(name) ?? (name.endsWith('-src') ? policy.get('default-src') : undefined);
}

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const INDEX_FILES = [
  path.join(ROOT, 'src-renderer', 'index.html'),
  // The vite build's output, when this tree has one: what Electron and browser mode actually serve.
  ...[path.join(ROOT, 'build', 'renderer', 'index.html')].filter((file) => existsSync(file)),
];

describe('RENDERER_CSP, strictly', () => {
  it('allows no plugins and no framing, and sends nothing anywhere', () => {
    const policy = directives(RENDERER_CSP);
    expect(effective(policy, 'object-src')).toBe("'none'");
    expect(policy.get('frame-ancestors')).toBe("'none'");
    expect(effective(policy, 'connect-src')).toBe("'self'");
    expect(effective(policy, 'frame-src')).toBe("'none'");
    expect(effective(policy, 'worker-src')).toBe("'none'");
    expect(effective(policy, 'media-src')).toBe("'none'");
  });
});

describe.each(INDEX_FILES)('%s', (file) => {
  const html = readFileSync(file, 'utf8');

  it('carries the same policy as the header in a <meta> tag (what a page saved to disk still obeys)', () => {
    const meta = /<meta\s+http-equiv="Content-Security-Policy"\s+content="([^"]*)"/i.exec(html)?.[1];
    expect(meta).toBeDefined();
    const fromMeta = directives(meta ?? '');
    const fromHeader = directives(RENDERER_CSP);
    // frame-ancestors only works as a header; every other directive is the header's, word for word.
    fromHeader.delete('frame-ancestors');
    expect(fromMeta).toEqual(fromHeader);
    expect(meta).not.toMatch(/unsafe-/);
  });

  it('holds no inline script, style or event handler', () => {
    const scripts = [...html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/gi)];
    expect(scripts.length).toBeGreaterThan(0);
    for (const [, attributes = '', body = ''] of scripts) {
      expect(attributes).toMatch(/\bsrc=/);
      expect(body.trim()).toBe('');
    }
    expect(html).not.toMatch(/<style\b/i);
    expect(html).not.toMatch(/\sstyle=/i);
    expect(html).not.toMatch(/\son[a-z]+=/i);
    expect(html).not.toMatch(/javascript:/i);
  });
});
