import { describe, expect, it } from 'vitest';
import { userPath } from './userPath.js';

const HOME = '/home/ana';

describe('a path the user typed', () => {
  it.each([
    ['~', HOME],
    ['~/models/tiny.gguf', '/home/ana/models/tiny.gguf'],
    ['  ~/Documents/  ', '/home/ana/Documents/'],
    ['/srv/models/../tiny.gguf', '/srv/tiny.gguf'],
    ['/data', '/data'],
  ])('%j is %j', (typed, expected) => {
    expect(userPath(typed, 'The model file', HOME)).toBe(expected);
  });

  it.each([
    ['tiny.gguf', /The model file "tiny.gguf" is a relative path; give a full path/],
    ['./models/tiny.gguf', /relative path/],
    ['../tiny.gguf', /relative path/],
    ['~bob/tiny.gguf', /another user's home folder/],
    ['   ', /The model file is empty/],
  ])('%j is refused, saying why', (typed, message) => {
    expect(() => userPath(typed, 'The model file', HOME)).toThrowError(message);
    expect(() => userPath(typed, 'The model file', HOME)).toThrowError(
      expect.objectContaining({ code: 'INVALID_REQUEST' }),
    );
  });
});
