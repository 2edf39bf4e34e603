// @vitest-environment happy-dom
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { ApiRequest, ApiResponse, ToolCall } from '../../../src-shared/contract/index.js';
import { ApiCallError } from '../../bridge/apiError.js';
import { deferred, makeToolCall } from '../../testing/testFixtures.js';
import { fakeHost, type FakeHost } from '../../testing/fakeHost.js';
import { renderWithStore } from '../../testing/renderWithStore.js';
import { MessageList } from './MessageList.js';

const docs = '/home/me/Documents';
const downloads = '/home/me/Downloads';

/** Calls as the Host sends them: absolute paths in the arguments, each path's granted folder folded into the details. */
const readCall = makeToolCall({
  id: 'c-read',
  tool: 'read_text',
  args: { path: `${docs}/notes.txt` },
  risk: 'read',
  description: {
    title: 'Read a text file',
    summary: `Read ${docs}/notes.txt`,
    details: [
      { label: 'path', value: `${docs}/notes.txt` },
      { label: 'In granted folder', value: docs },
    ],
  },
  paths: [
    { arg: 'path', role: 'existing', given: 'notes.txt', path: `${docs}/notes.txt`, root: docs, untrusted: false },
  ],
  basis: { kind: 'policy', mode: 'ask' },
});

const moveCall = makeToolCall({
  id: 'c-move',
  tool: 'move',
  args: { from: `${downloads}/offer.txt`, to: `${docs}/archive` },
  risk: 'write',
  description: {
    title: 'Move or rename',
    summary: `Move ${downloads}/offer.txt to ${docs}/archive. Nothing existing is replaced.`,
    details: [
      { label: 'From', value: `${downloads}/offer.txt` },
      { label: 'To', value: `${docs}/archive` },
      { label: 'Lands at', value: `${docs}/archive/offer.txt` },
      { label: 'From: granted folder', value: `${downloads} (untrusted content)` },
      { label: 'To: granted folder', value: docs },
    ],
  },
  paths: [
    {
      arg: 'from',
      role: 'entry',
      given: '~/Downloads/offer.txt',
      path: `${downloads}/offer.txt`,
      root: downloads,
      untrusted: true,
    },
    {
      arg: 'to',
      role: 'destination',
      given: 'archive',
      path: `${docs}/archive/offer.txt`,
      root: docs,
      untrusted: false,
    },
  ],
  basis: { kind: 'untrusted-content' },
  taint: ['mail from eve@example.com (via mail_read)'],
});

const deleteCall = makeToolCall({
  id: 'c-delete',
  tool: 'delete_permanently',
  args: { path: `${docs}/old.txt` },
  risk: 'irreversible',
  description: {
    title: 'Delete permanently',
    summary: `Delete ${docs}/old.txt for good. This cannot be undone.`,
    details: [
      { label: 'Path', value: `${docs}/old.txt` },
      { label: 'Including everything inside', value: 'no' },
      { label: 'In granted folder', value: docs },
    ],
  },
  paths: [{ arg: 'path', role: 'entry', given: 'old.txt', path: `${docs}/old.txt`, root: docs, untrusted: false }],
  basis: { kind: 'always-asks' },
});

/** The Host's answer to a prompt: the call decided by the user, as toolcalls.answer returns it. */
function decided(call: ToolCall, request: ApiRequest<'toolcalls.answer'>): ApiResponse<'toolcalls.answer'> {
  return {
    ...call,
    state: request.answer === 'deny' ? 'denied' : 'approved',
    decision: request.answer,
    decidedBy: 'user',
    reason: request.reason ?? null,
  };
}

/** The open task's timeline (the real MessageList) holding one call, over a Host that answers prompts. */
function renderCall(call: ToolCall, host: FakeHost = fakeHost({ 'toolcalls.answer': (r) => decided(call, r) })) {
  const view = renderWithStore(<MessageList emptyHint="Nothing yet" />, host, { openTaskId: 't1', toolCalls: [call] });
  return { ...view, host, card: () => screen.getByTestId('toolcall-card') };
}

const prompt = () => screen.getByRole('group', { name: 'Permission' });
const button = (name: string) => within(prompt()).getByRole('button', { name });

describe('the permission prompt for a read', () => {
  it('offers the four answers and focuses Allow once, so Enter allows it once and nothing more', async () => {
    const { host, user } = renderCall(readCall);
    expect(
      within(prompt())
        .getAllByRole('button')
        .map((b) => b.textContent),
    ).toEqual(['Allow once', 'Allow for this task', 'Always allow', 'Deny']);
    expect(document.activeElement).toBe(button('Allow once'));

    await user.keyboard('{Enter}');

    expect(host.calls).toEqual([{ method: 'toolcalls.answer', request: { id: 'c-read', answer: 'allow-once' } }]);
    // The store took the Host's answer: the card shows the decision and asks no more.
    await waitFor(() => expect(screen.getByTestId('toolcall-state').textContent).toContain('Running'));
    expect(screen.queryByRole('group', { name: 'Permission' })).toBeNull();
  });

  it.each([
    ['Allow once', 'allow-once'],
    ['Allow for this task', 'allow-task'],
    ['Always allow', 'always'],
    ['Deny', 'deny'],
  ] as const)('%s sends exactly %s', async (name, answer) => {
    const { host, user } = renderCall(readCall);
    await user.click(button(name));
    expect(host.calls).toEqual([{ method: 'toolcalls.answer', request: { id: 'c-read', answer } }]);
  });

  it('names the absolute file and the granted folder it lies in', () => {
    const { card } = renderCall(readCall);
    expect(within(card()).getAllByText(`${docs}/notes.txt`).length).toBeGreaterThan(0);
    expect(within(card()).getByText(docs)).toBeTruthy();
  });
});

describe('the permission prompt for a change', () => {
  it.each([
    ['a write', moveCall],
    ['an irreversible call', deleteCall],
  ])('for %s focuses the group, not a button, so Enter allows nothing', async (_, call) => {
    const { host, user } = renderCall(call);
    expect(document.activeElement).toBe(prompt());
    expect(button('Allow once').hasAttribute('aria-keyshortcuts')).toBe(false);

    await user.keyboard('{Enter}');
    await user.keyboard('{Enter}');

    expect(host.calls).toEqual([]);
    expect(prompt()).toBeTruthy();
  });

  it('an irreversible call offers no "Always allow"', () => {
    renderCall(deleteCall);
    expect(
      within(prompt())
        .getAllByRole('button')
        .map((b) => b.textContent),
    ).toEqual(['Allow once', 'Allow for this task', 'Deny']);
  });

  it('names every file as the tool will touch it, where the move lands, and each granted folder', () => {
    const { card } = renderCall(moveCall);
    for (const path of moveCall.paths) {
      expect(within(card()).getAllByText(path.path).length).toBeGreaterThan(0);
    }
    expect(within(card()).getByText(`${docs}/archive/offer.txt`).closest('div')?.textContent).toContain('Lands at');
    expect(within(card()).getByText(`${downloads} (untrusted content)`)).toBeTruthy();
    expect(within(card()).getByText(docs)).toBeTruthy();
  });

  it('after content others wrote, names what came before', () => {
    renderCall(moveCall);
    expect(screen.getByRole('note').textContent).toContain(
      'Homebody read content it did not get from you before this: mail from eve@example.com (via mail_read)',
    );
  });

  it('Allow once still works by pointer, and sends allow-once for this call only', async () => {
    const { host, user } = renderCall(deleteCall);
    await user.click(button('Allow once'));
    expect(host.calls).toEqual([{ method: 'toolcalls.answer', request: { id: 'c-delete', answer: 'allow-once' } }]);
  });
});

describe('denying', () => {
  it.each([
    ['a read', readCall],
    ['a write', moveCall],
    ['an irreversible call', deleteCall],
  ])('Esc denies %s', async (_, call) => {
    const { host, user } = renderCall(call);
    await user.keyboard('{Escape}');
    expect(host.calls).toEqual([{ method: 'toolcalls.answer', request: { id: call.id, answer: 'deny' } }]);
    await waitFor(() => expect(screen.getByTestId('toolcall-state').textContent).toContain('Denied'));
  });

  it('Deny with a reason sends the reason (trimmed), by the button, by Enter in the field, or by Esc', async () => {
    for (const how of ['button', 'enter', 'escape'] as const) {
      const { host, user, unmount } = renderCall(moveCall);
      await user.type(screen.getByRole('textbox', { name: /Reason for denying/ }), '  not that folder ');
      if (how === 'button') await user.click(button('Deny'));
      else await user.keyboard(how === 'enter' ? '{Enter}' : '{Escape}');
      expect(host.calls, how).toEqual([
        { method: 'toolcalls.answer', request: { id: 'c-move', answer: 'deny', reason: 'not that folder' } },
      ]);
      unmount();
    }
  });

  it('a reason typed and then not used is never sent with an allow', async () => {
    const { host, user } = renderCall(moveCall);
    await user.type(screen.getByRole('textbox', { name: /Reason for denying/ }), 'maybe');
    await user.click(button('Allow for this task'));
    expect(host.calls).toEqual([{ method: 'toolcalls.answer', request: { id: 'c-move', answer: 'allow-task' } }]);
  });
});

describe('while an answer is on its way', () => {
  it('sends nothing twice: a double click and a second Esc find the buttons disabled', async () => {
    const answer = deferred<ApiResponse<'toolcalls.answer'>>();
    const host = fakeHost({ 'toolcalls.answer': () => answer.promise });
    const { user } = renderCall(readCall, host);

    await user.dblClick(button('Allow once'));
    await user.keyboard('{Escape}');

    expect(host.calls).toEqual([{ method: 'toolcalls.answer', request: { id: 'c-read', answer: 'allow-once' } }]);
    for (const b of within(prompt()).getAllByRole<HTMLButtonElement>('button')) expect(b.disabled).toBe(true);
    answer.resolve(decided(readCall, { id: 'c-read', answer: 'allow-once' }));
    expect(await screen.findByText('Running')).toBeTruthy();
    expect(host.calls).toHaveLength(1);
  });

  it('Enter pressed again in the reason field sends no second denial', async () => {
    const answer = deferred<ApiResponse<'toolcalls.answer'>>();
    const host = fakeHost({ 'toolcalls.answer': () => answer.promise });
    const { user } = renderCall(moveCall, host);
    await user.type(screen.getByRole('textbox', { name: /Reason for denying/ }), 'no{Enter}{Enter}');
    expect(host.calls).toEqual([
      { method: 'toolcalls.answer', request: { id: 'c-move', answer: 'deny', reason: 'no' } },
    ]);
    answer.resolve(decided(moveCall, { id: 'c-move', answer: 'deny', reason: 'no' }));
    expect(await screen.findByText('Denied')).toBeTruthy();
  });

  it('a refused answer brings the buttons back and says why', async () => {
    const host = fakeHost({
      'toolcalls.answer': () => {
        throw new ApiCallError('INVALID_REQUEST', 'This call was already decided.');
      },
    });
    const { user } = renderCall(readCall, host);
    await user.click(button('Always allow'));
    expect((await screen.findByRole('alert')).textContent).toContain('This call was already decided.');
    expect((button('Allow once') as HTMLButtonElement).disabled).toBe(false);
  });
});

describe('a call the broker refused', () => {
  it('shows "Refused: …" with the reason and offers no button, and Esc sends nothing', async () => {
    const refused = makeToolCall({
      ...readCall,
      id: 'c-refused',
      args: { path: '/etc/hostname' },
      gate: 'none',
      state: 'rejected',
      decision: 'deny',
      decidedBy: 'policy',
      basis: { kind: 'outside-grants' },
      error: `/etc/hostname is outside the folders you may use (${docs}).`,
    });
    const { host, user, card } = renderCall(refused);
    expect(screen.getByTestId('toolcall-state').textContent).toContain(
      `Refused: /etc/hostname is outside the folders you may use (${docs}).`,
    );
    expect(within(card()).queryAllByRole('button')).toEqual([]);
    expect(screen.queryByRole('group', { name: 'Permission' })).toBeNull();
    await user.keyboard('{Escape}');
    expect(host.calls).toEqual([]);
  });
});

describe("a call card's badge", () => {
  const info = (name: string, touches: 'files' | 'device') => ({
    name,
    description: '',
    risk: 'write' as const,
    parameters: {},
    title: name,
    text: '',
    touches,
  });

  it('says what the tool touches once the tools are known, and its risk before', () => {
    const clipboard = makeToolCall({ id: 'c-clip', tool: 'clipboard_write', risk: 'write' });
    const view = renderWithStore(<MessageList emptyHint="Nothing yet" />, fakeHost(), {
      openTaskId: 't1',
      toolCalls: [moveCall, clipboard],
    });
    const badges = () => screen.getAllByTestId('risk-badge').map((badge) => badge.textContent);
    expect(badges()).toEqual(['Changes things', 'Changes things']);
    view.store.setState({ tools: [info('move', 'files'), info('clipboard_write', 'device')] });
    return waitFor(() => expect(badges()).toEqual(['Changes files', 'Uses your device']));
  });
});

describe("a finished call's result", () => {
  it("is the tool's line for people, with the whole result one click away", () => {
    const done = makeToolCall({
      id: 'c-write',
      tool: 'write_text',
      state: 'done',
      result: { path: '/tmp/docs/hello.txt', created: true, bytes: 20 },
      resultSummary: 'Created /tmp/docs/hello.txt (20 bytes).',
    });
    renderWithStore(<MessageList emptyHint="Nothing yet" />, fakeHost(), { openTaskId: 't1', toolCalls: [done] });
    expect(screen.getByTestId('toolcall-outcome').textContent).toBe('Created /tmp/docs/hello.txt (20 bytes).');
    const raw = screen.getByTestId('toolcall-result');
    expect(raw.closest('details')?.open).toBe(false);
    expect(JSON.parse(raw.textContent ?? '')).toEqual({ path: '/tmp/docs/hello.txt', created: true, bytes: 20 });
  });

  it('is the result itself, shortened, from a tool that gives no line (an MCP server, a call recorded before)', () => {
    const done = makeToolCall({ id: 'c-mcp', tool: 'mcp_notes_lookup', state: 'done', result: { hits: 2 } });
    renderWithStore(<MessageList emptyHint="Nothing yet" />, fakeHost(), { openTaskId: 't1', toolCalls: [done] });
    expect(screen.queryByTestId('toolcall-outcome')).toBeNull();
    expect(screen.getByTestId('toolcall-result').textContent).toBe('{"hits":2}');
  });
});
