import { describe, expect, it } from 'vitest';
import { API_METHODS } from '../../src-shared/contract/api.js';
import { isMethodName } from './methodName.js';

describe('isMethodName', () => {
  it('accepts every method of the contract', () => {
    for (const method of API_METHODS) expect(isMethodName(method), method).toBe(true);
  });

  it('refuses other shapes and non-strings', () => {
    for (const value of [
      '',
      'chat',
      'chat.',
      '.send',
      'Chat.send',
      'chat.send.now',
      'chat.send ',
      'chat.send\n',
      'chat/send',
      'chat.se-nd',
      '__proto__.x',
      'a'.repeat(60) + '.abcdef',
      42,
      null,
      undefined,
      { toString: () => 'chat.send' },
    ]) {
      expect(isMethodName(value), String(value)).toBe(false);
    }
  });
});
