import { describe, expect, it } from 'vitest';
import { startedBy } from './serveCommand.js';

describe('the command a page without the token names', () => {
  it('is the one the user typed, as npm tells it', () => {
    expect(startedBy({ npm_lifecycle_event: 'start' })).toBe('npm start');
    expect(startedBy({ npm_lifecycle_event: 'homebody' })).toBe('npm run homebody -- serve');
    expect(startedBy({})).toBe('homebody serve');
  });
});
