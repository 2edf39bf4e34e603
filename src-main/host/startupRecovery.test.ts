import { describe, expect, it } from 'vitest';
import type { AppError } from '../../src-shared/contract/index.js';
import { recoverOrNotice } from './startupRecovery.js';

const sqliteError = (code: string) => Object.assign(new Error('database or disk is full'), { code });

describe('recoverOrNotice', () => {
  it('turns a full disk during recovery into a notice, so the app still opens', () => {
    const notices: AppError[] = [];
    recoverOrNotice(
      'interrupted replies',
      () => {
        throw sqliteError('SQLITE_FULL');
      },
      notices,
    );
    expect(notices).toEqual([
      { code: 'STORAGE_FULL', message: expect.stringMatching(/disk is full.*interrupted replies.*next start/) },
    ]);
  });

  it('lets any other failure stop the start, and is silent when the step works', () => {
    const notices: AppError[] = [];
    expect(() =>
      recoverOrNotice(
        'x',
        () => {
          throw new TypeError('bug');
        },
        notices,
      ),
    ).toThrow('bug');
    let ran = false;
    recoverOrNotice('x', () => void (ran = true), notices);
    expect(ran).toBe(true);
    expect(notices).toEqual([]);
  });
});
