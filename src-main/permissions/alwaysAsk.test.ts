import { describe, expect, it } from 'vitest';
import { checkMode, emptyPolicy, modeFor, parsePolicy } from './policy.js';

describe('a tool that always asks (alwaysAsk)', () => {
  it('cannot be set to run without asking, but may ask, queue or be off', () => {
    expect(() => checkMode('device_open', 'write', 'auto', true)).toThrow(
      /always asks first.*choose ask, queue or off/,
    );
    for (const mode of ['ask', 'queue', 'off'] as const)
      expect(() => checkMode('device_open', 'write', mode, true)).not.toThrow();
    expect(() => checkMode('move', 'write', 'auto')).not.toThrow();
  });

  it('is refused in an imported policy, and asks even where a stored policy says auto', () => {
    const raw = { version: 1, tools: { device_open: 'auto' }, folders: [] };
    expect(() =>
      parsePolicy(
        raw,
        () => 'write',
        (tool) => tool === 'device_open',
      ),
    ).toThrow(/always asks first/);
    expect(modeFor({ ...emptyPolicy(), tools: { device_open: 'auto' } }, 'device_open', 'write', true)).toBe('ask');
    expect(modeFor({ ...emptyPolicy(), tools: { device_open: 'off' } }, 'device_open', 'write', true)).toBe('off');
  });
});
