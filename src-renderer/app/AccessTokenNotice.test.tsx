// @vitest-environment happy-dom
import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { AccessTokenNotice } from './AccessTokenNotice.js';

afterEach(cleanup);

describe('the page opened without its access token', () => {
  it('names the command that started Homebody, whose terminal has the address', () => {
    render(<AccessTokenNotice problem="missing" command="npm start" />);
    expect(screen.getByTestId('access-token-command').textContent).toMatch(/^Open the address that npm start printed/);
    expect(screen.getByTestId('access-token-notice').dataset.problem).toBe('missing');
  });

  it('names both ways of starting it when the page does not say which', () => {
    render(<AccessTokenNotice problem="refused" command={null} />);
    expect(screen.getByTestId('access-token-command').textContent).toContain('homebody serve or npm start printed');
  });
});
