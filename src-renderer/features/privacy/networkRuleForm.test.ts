import { describe, expect, it } from 'vitest';
import { ruleHostFrom } from './networkRuleForm.js';

describe('ruleHostFrom', () => {
  it('takes host names, IP addresses and *, lowercased', () => {
    expect(ruleHostFrom('  Mail.Example.ORG ')).toEqual({ ok: true, host: 'mail.example.org' });
    expect(ruleHostFrom('192.168.1.20')).toEqual({ ok: true, host: '192.168.1.20' });
    expect(ruleHostFrom('*')).toEqual({ ok: true, host: '*' });
    expect(ruleHostFrom('fd00::1')).toEqual({ ok: true, host: 'fd00::1' });
  });

  it('cuts a pasted address to its host', () => {
    expect(ruleHostFrom('https://Search.example.org:8443/search?q=x')).toEqual({
      ok: true,
      host: 'search.example.org',
    });
  });

  it('refuses an empty field, a port, a path and spaces, saying what a host is', () => {
    expect(ruleHostFrom('   ')).toEqual({ ok: false, problem: expect.stringContaining('Type a host name') });
    for (const bad of ['example.org/search', 'example.org:8080', 'two words', 'mail_server!']) {
      expect(ruleHostFrom(bad)).toEqual({ ok: false, problem: expect.stringContaining('is not a host') });
    }
  });
});
