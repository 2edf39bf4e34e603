import { describe, expect, it } from 'vitest';
import { DEFAULT_MAX_TOKENS, DEFAULT_TEMPERATURE } from '../../agent/chatRunner.js';
import { defaultReplyOptions } from './replyOptions.js';

describe('defaultReplyOptions', () => {
  it('reads the length cap and temperature from the environment', () => {
    expect(defaultReplyOptions({ HOMEBODY_MAX_TOKENS: '64', HOMEBODY_TEMPERATURE: '0' })).toEqual({
      maxTokens: 64,
      temperature: 0,
    });
  });
  it('falls back to the defaults for missing or nonsensical values', () => {
    const defaults = { maxTokens: DEFAULT_MAX_TOKENS, temperature: DEFAULT_TEMPERATURE };
    expect(defaultReplyOptions({})).toEqual(defaults);
    expect(defaultReplyOptions({ HOMEBODY_MAX_TOKENS: '-3', HOMEBODY_TEMPERATURE: 'hot' })).toEqual(defaults);
    expect(defaultReplyOptions({ HOMEBODY_MAX_TOKENS: '1e9x', HOMEBODY_TEMPERATURE: '9' })).toEqual(defaults);
  });
});
