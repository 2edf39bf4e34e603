import { describe, expect, it } from 'vitest';
import { dedupeRules, isPrivateAddress, matchingRule, normalizeHost, withRule } from './networkRules.js';

describe('isPrivateAddress', () => {
  it.each([
    ['localhost'],
    ['LOCALHOST'],
    ['printer.localhost'],
    ['127.0.0.1'],
    ['127.255.255.254'],
    ['0.0.0.0'],
    ['0.1.2.3'],
    ['10.0.0.1'],
    ['10.255.255.255'],
    ['172.16.0.1'],
    ['172.31.255.255'],
    ['192.168.1.1'],
    ['169.254.169.254'],
    ['100.64.0.1'],
    ['100.127.255.255'],
    ['::1'],
    ['[::1]'],
    ['::'],
    ['fc00::1'],
    ['fd12:3456:789a::1'],
    ['fe80::1'],
    ['febf::1'],
    ['::ffff:127.0.0.1'],
    ['::ffff:7f00:1'],
    ['[::ffff:a00:1]'],
    ['::ffff:192.168.0.10'],
  ])('%s stays on this machine or the local network', (host) => {
    expect(isPrivateAddress(host)).toBe(true);
  });

  it.each([
    ['example.org'],
    ['localhost.example.org'],
    ['8.8.8.8'],
    ['11.0.0.1'],
    ['172.15.255.255'],
    ['172.32.0.1'],
    ['192.169.0.1'],
    ['169.255.0.1'],
    ['100.63.255.255'],
    ['100.128.0.1'],
    ['1.0.0.0'],
    ['2606:4700::1111'],
    ['fec0::1'],
    ['fbff::1'],
    ['::ffff:8.8.8.8'],
    ['::ffff:808:808'],
  ])('%s is public', (host) => {
    expect(isPrivateAddress(host)).toBe(false);
  });
});

describe('matchingRule', () => {
  const rules = [
    { feature: 'mail' as const, host: 'smtp.example.com' },
    { feature: 'web' as const, host: '*' },
    { feature: 'web' as const, host: '192.168.1.20' },
    { feature: 'model-download' as const, host: 'huggingface.co' },
    { feature: 'mcp' as const, host: '::1' },
  ];

  it('matches a rule of the same feature naming the host, whatever its case, brackets or trailing dot', () => {
    expect(matchingRule(rules, 'mail', 'SMTP.Example.com.')).toEqual({ rule: rules[0], exact: true });
    expect(matchingRule(rules, 'model-download', 'huggingface.co')).toEqual({ rule: rules[3], exact: true });
    expect(matchingRule(rules, 'mcp', '[::1]')).toEqual({ rule: rules[4], exact: true });
  });

  it("prefers the exact host to the feature's * rule, and uses * for any other host", () => {
    expect(matchingRule(rules, 'web', '192.168.1.20')).toEqual({ rule: rules[2], exact: true });
    expect(matchingRule(rules, 'web', 'example.org')).toEqual({ rule: rules[1], exact: false });
  });

  it('never lets a rule of one feature allow another', () => {
    expect(matchingRule(rules, 'web', 'smtp.example.com')).toEqual({ rule: rules[1], exact: false });
    expect(matchingRule(rules, 'mail', 'huggingface.co')).toBeNull();
    expect(matchingRule(rules, 'model-download', 'smtp.example.com')).toBeNull();
    expect(matchingRule(rules, 'mcp', '127.0.0.1')).toBeNull();
    expect(matchingRule(rules, 'mail', 'mail.example.com')).toBeNull();
  });
});

describe('rule lists', () => {
  it('keep each feature and host once, hosts normalized', () => {
    const rules = withRule([{ feature: 'mail', host: 'smtp.example.com' }], {
      feature: 'mail',
      host: 'SMTP.example.com',
    });
    expect(rules).toEqual([{ feature: 'mail', host: 'smtp.example.com' }]);
    expect(withRule(rules, { feature: 'web', host: 'smtp.example.com' })).toHaveLength(2);
    expect(
      dedupeRules([
        { feature: 'mcp', host: '[::1]' },
        { feature: 'mcp', host: '::1' },
        { feature: 'web', host: '*' },
        { feature: 'web', host: '*' },
      ]),
    ).toEqual([
      { feature: 'mcp', host: '::1' },
      { feature: 'web', host: '*' },
    ]);
    expect(normalizeHost(' Example.ORG. ')).toBe('example.org');
  });
});
