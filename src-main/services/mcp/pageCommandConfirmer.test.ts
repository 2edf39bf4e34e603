import { describe, expect, it } from 'vitest';
import type { PendingConfirmation } from '../../tools/mcp/commandConfirmation.js';
import { MAX_WRONG_CODES, PageCommandConfirmer } from './pageCommandConfirmer.js';

const request = { server: 'files', command: '/usr/bin/node', args: ['server.js'], envKeys: ['API_KEY'] };

function confirmer(timeoutMs = 60_000) {
  const told: string[] = [];
  let n = 0;
  const page = new PageCommandConfirmer({
    tell: (text) => told.push(text),
    timeoutMs,
    newId: () => `c${++n}`,
    newCode: () => '493028',
    now: () => 1000,
  });
  const ask = () => {
    const shown: PendingConfirmation[] = [];
    const outcome = page.confirm(request, (pending) => shown.push(pending));
    return { outcome, shown };
  };
  return { page, told, ask };
}

describe('browser mode’s confirmation of an MCP command', () => {
  it('prints the command and the code in the terminal, tells the page only the id, and confirms with that code once', async () => {
    const { page, told, ask } = confirmer();
    const { outcome, shown } = ask();
    expect(shown).toEqual([{ id: 'c1', expiresAt: 61_000 }]);
    const printed = told.join('\n');
    expect(printed).toContain('the MCP server "files" asks to run a command');
    expect(printed).toContain('Command: /usr/bin/node');
    expect(printed).toContain('Arguments: "server.js"');
    expect(printed).toContain('Environment variables: API_KEY (values not shown)');
    expect(printed).toContain('493 028');
    // The code is in the terminal, never in what the page (or anyone with its token) is given.
    expect(JSON.stringify(shown)).not.toContain('493');

    expect(page.answer('c1', '493 028')).toBe(true);
    expect(await outcome).toEqual({ confirmed: true });
    // Spent: replaying the same answer confirms nothing.
    expect(page.answer('c1', '493028')).toBe(false);
  });

  it('Cancel, a wrong code, another id and no answer in time all leave the command unconfirmed', async () => {
    const cancel = confirmer();
    const cancelled = cancel.ask();
    expect(cancel.page.answer('c1', null)).toBe(true);
    expect(await cancelled.outcome).toEqual({ confirmed: false, reason: null });

    const wrong = confirmer();
    const guessed = wrong.ask();
    expect(wrong.page.answer('other', '493028')).toBe(false);
    expect(wrong.page.answer('c1', '000000')).toBe(true);
    expect(await guessed.outcome).toEqual({ confirmed: false, reason: expect.stringContaining('not the code') });
    // A wrong code ends it: the right one afterwards does nothing.
    expect(wrong.page.answer('c1', '493028')).toBe(false);
    expect(wrong.told.join('\n')).toContain('a wrong code was typed');

    const late = confirmer(5);
    const expired = late.ask();
    expect(await expired.outcome).toEqual({ confirmed: false, reason: expect.stringContaining('Nobody confirmed') });
    expect(late.page.answer('c1', '493028')).toBe(false);
  });

  it('asks one thing at a time, and after five wrong codes confirms nothing more until it starts again', async () => {
    const { page, ask } = confirmer();
    const first = ask();
    const second = ask();
    expect(await second.outcome).toEqual({
      confirmed: false,
      reason: expect.stringContaining('answer that one first'),
    });
    expect(second.shown).toEqual([]);
    page.answer('c1', '111111');
    await first.outcome;
    for (let i = 1; i < MAX_WRONG_CODES; i++) {
      const attempt = ask();
      page.answer(attempt.shown[0]!.id, '111111');
      await attempt.outcome;
    }
    const locked = ask();
    expect(locked.shown).toEqual([]);
    expect(await locked.outcome).toEqual({ confirmed: false, reason: expect.stringContaining('Too many wrong codes') });
  });

  it('ends a waiting confirmation, unconfirmed, when Homebody closes', async () => {
    const { page, ask } = confirmer();
    const { outcome } = ask();
    page.dispose();
    expect(await outcome).toEqual({ confirmed: false, reason: 'Homebody is closing.' });
  });
});
