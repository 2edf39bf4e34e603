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
