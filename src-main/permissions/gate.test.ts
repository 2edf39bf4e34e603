import { describe, expect, it } from 'vitest';
import { gateFor } from './gate.js';

const base = { grantedForTask: false, taint: [] as string[] };

describe('gateFor', () => {
  it('follows the policy for reads and writes', () => {
    expect(gateFor({ ...base, risk: 'read', mode: 'ask' })).toEqual({ gate: 'prompt' });
    expect(gateFor({ ...base, risk: 'read', mode: 'auto' })).toEqual({ gate: 'none' });
    expect(gateFor({ ...base, risk: 'write', mode: 'ask' })).toEqual({ gate: 'prompt' });
    expect(gateFor({ ...base, risk: 'write', mode: 'queue' })).toEqual({ gate: 'queue' });
    expect(gateFor({ ...base, risk: 'read', mode: 'off' })).toEqual({ off: true });
  });

  it('lets a task grant skip the prompt', () => {
    expect(gateFor({ ...base, risk: 'read', mode: 'ask', grantedForTask: true })).toEqual({ gate: 'none' });
    expect(gateFor({ ...base, risk: 'write', mode: 'ask', grantedForTask: true })).toEqual({ gate: 'none' });
  });

  it('always queues irreversible calls, even when the policy or a grant says otherwise', () => {
    for (const mode of ['auto', 'ask', 'queue'] as const) {
      expect(gateFor({ risk: 'irreversible', mode, grantedForTask: true, taint: [] })).toEqual({ gate: 'queue' });
    }
  });

  it('always asks before a write once the task has read untrusted content', () => {
    const taint = ['Downloads/offer.txt'];
    expect(gateFor({ risk: 'write', mode: 'auto', grantedForTask: false, taint })).toEqual({ gate: 'prompt' });
    expect(gateFor({ risk: 'write', mode: 'ask', grantedForTask: true, taint })).toEqual({ gate: 'prompt' });
    expect(gateFor({ risk: 'read', mode: 'auto', grantedForTask: false, taint })).toEqual({ gate: 'none' });
  });

  it('after untrusted content, asks before a call that reaches out, even with a task grant, unless the policy says auto', () => {
    const taint = ['web page evil.example'];
    expect(gateFor({ risk: 'read', mode: 'ask', grantedForTask: true, taint, reachesOut: true })).toEqual({
      gate: 'prompt',
    });
    expect(gateFor({ risk: 'read', mode: 'ask', grantedForTask: true, taint: [], reachesOut: true })).toEqual({
      gate: 'none',
    });
    expect(gateFor({ risk: 'read', mode: 'ask', grantedForTask: true, taint })).toEqual({ gate: 'none' });
    // The user's "always allow" stands; the egress guard's host rules still decide where it may connect.
    expect(gateFor({ risk: 'read', mode: 'auto', grantedForTask: false, taint, reachesOut: true })).toEqual({
      gate: 'none',
    });
    expect(gateFor({ risk: 'read', mode: 'off', grantedForTask: true, taint, reachesOut: true })).toEqual({
      off: true,
    });
  });
});
