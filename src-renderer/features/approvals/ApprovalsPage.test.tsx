// @vitest-environment happy-dom
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { ApiResponse, ToolCall } from '../../../src-shared/contract/index.js';
import { ApiCallError } from '../../bridge/apiError.js';
import { deferred, makeTask, makeToolCall } from '../../testing/testFixtures.js';
import { fakeHost, type FakeAnswers, type FakeHost } from '../../testing/fakeHost.js';
import { renderWithStore } from '../../testing/renderWithStore.js';
import { ApprovalsPage } from './ApprovalsPage.js';

const mailArgs = { to: 'ana@example.org', subject: 'Lunch', body: 'See you at noon.' };

const mail = makeToolCall({
  id: 'q-mail',
  tool: 'mail_send',
  args: mailArgs,
  risk: 'irreversible',
  gate: 'queue',
  description: {
    title: 'Send an email',
    summary: 'Send "Lunch" to ana@example.org',
    details: [
      { label: 'To', value: mailArgs.to },
      { label: 'Subject', value: mailArgs.subject },
    ],
  },
  basis: { kind: 'irreversible' },
  createdAt: 1,
});

const note = makeToolCall({
  id: 'q-note',
  tool: 'notes_write',
  args: { file: 'groceries.md', text: 'milk' },
  risk: 'write',
  gate: 'queue',
  description: { title: 'Write a note', summary: 'Write groceries.md', details: [] },
  basis: { kind: 'policy', mode: 'queue' },
  createdAt: 2,
});

const interrupted = makeToolCall({
  id: 'q-stopped',
  tool: 'delete_permanently',
  args: { path: '/home/me/Documents/old.txt' },
  risk: 'irreversible',
  gate: 'queue',
  state: 'interrupted',
  decision: 'approve',
  decidedBy: 'user',
  description: { title: 'Delete permanently', summary: 'Delete old.txt for good', details: [] },
  createdAt: 3,
});

const queue = [mail, note, interrupted];
const byId = (id: string) => queue.find((c) => c.id === id) as ToolCall;

/** What approvals.approve answers once the calls ran: each call done, with the arguments it ran with. */
function approvedAnswer(calls: ToolCall[]): ApiResponse<'approvals.approve'> {
  return {
    calls: calls.map((c) => ({ ...c, state: 'done', decision: 'approve', decidedBy: 'user' })),
    outcomes: calls.map(() => ({ status: 'done' })),
    continued: [],
  };
}

/** What approvals.deny answers: each call denied, with the reason the model is told. */
function deniedAnswer(calls: ToolCall[], reason: string | null = null): ApiResponse<'approvals.deny'> {
  return {
    calls: calls.map((c) => ({ ...c, state: 'denied', decision: 'deny', decidedBy: 'user', reason })),
    outcomes: calls.map(() => ({ status: 'denied' })),
    continued: [],
  };
}

/** A Host that decides each call as asked, running approved ones with the arguments approved. */
const decidingHost = (overrides: FakeAnswers = {}) =>
  fakeHost({
    // The contract has already checked that edited arguments are one JSON object.
    'approvals.approve': ({ ids, args }) =>
      approvedAnswer(ids.map((id) => ({ ...byId(id), ...(args ? { args: args as ToolCall['args'] } : {}) }))),
    'approvals.deny': ({ ids, reason }) => deniedAnswer(ids.map(byId), reason ?? null),
    ...overrides,
  });

function renderQueue(host: FakeHost = decidingHost()) {
  const view = renderWithStore(<ApprovalsPage />, host, {
    queue,
    approvalsLoaded: true,
    tasks: [makeTask({ id: 't1', title: 'Lunch plans' })],
  });
  return { ...view, host };
}

const item = (id: string) => {
  const found = screen.getAllByTestId('approval-item').find((li) => li.dataset.callId === id);
  if (!found) throw new Error(`No approval item for ${id}.`);
  return within(found);
};
const field = (id: string, name: string) =>
  item(id)
    .getAllByTestId('approval-field')
    .find((f) => f.dataset.arg === name) as HTMLInputElement | HTMLTextAreaElement;
const jsonBox = (id: string) => item(id).getByRole<HTMLTextAreaElement>('textbox', { name: 'Arguments (JSON)' });
const shownIds = () => screen.queryAllByTestId('approval-item').map((li) => li.dataset.callId);

describe('approving one call', () => {
  it('Approve sends the id alone (the arguments as shown), and the call leaves the queue', async () => {
    const { host, user } = renderQueue();
    expect(item('q-mail').getByText('Task: Lunch plans', { exact: false })).toBeTruthy();
    await user.click(item('q-mail').getByRole('button', { name: 'Approve' }));
    expect(host.calls).toEqual([{ method: 'approvals.approve', request: { ids: ['q-mail'] } }]);
    await waitFor(() => expect(shownIds()).toEqual(['q-note', 'q-stopped']));
  });

  it('"Approve without continuing" runs the call and tells the Host its task should not go on', async () => {
    const { host, user } = renderQueue();
    await user.click(item('q-mail').getByRole('button', { name: 'Approve without continuing' }));
    expect(host.calls).toEqual([{ method: 'approvals.approve', request: { ids: ['q-mail'], continue: false } }]);
    await waitFor(() => expect(shownIds()).toEqual(['q-note', 'q-stopped']));
  });

  it('Edit and approve sends nothing; the edited fields are sent, once, by "Approve with these arguments"', async () => {
    const { host, user } = renderQueue();
    await user.click(item('q-mail').getByRole('button', { name: 'Edit and approve' }));
    expect(host.calls).toEqual([]);
    expect([field('q-mail', 'to').value, field('q-mail', 'subject').value, field('q-mail', 'body').value]).toEqual([
      mailArgs.to,
      mailArgs.subject,
      mailArgs.body,
    ]);

    await user.clear(field('q-mail', 'subject'));
    await user.type(field('q-mail', 'subject'), 'Running late');
    expect(field('q-mail', 'subject').dataset.changed).toBe('true');
    expect(field('q-mail', 'to').dataset.changed).toBe('false');
    // The fields and the JSON box are one value: what is approved is what is shown.
    expect(JSON.parse(jsonBox('q-mail').value)).toEqual({ ...mailArgs, subject: 'Running late' });
    expect(host.calls).toEqual([]);

    await user.dblClick(item('q-mail').getByRole('button', { name: 'Approve with these arguments' }));
    expect(host.calls).toEqual([
      { method: 'approvals.approve', request: { ids: ['q-mail'], args: { ...mailArgs, subject: 'Running late' } } },
    ]);
    await waitFor(() => expect(shownIds()).toEqual(['q-note', 'q-stopped']));
  });

  it('while editing, no button approves the original arguments instead of the ones shown', async () => {
    const { host, user } = renderQueue();
    await user.click(item('q-mail').getByRole('button', { name: 'Edit and approve' }));
    await user.type(field('q-mail', 'to'), '.uk');
    expect(item('q-mail').queryByRole('button', { name: 'Approve' })).toBeNull();
    expect(host.calls).toEqual([]);
  });

  it('approving from the editor with nothing changed sends no arguments, so it is not recorded as edited', async () => {
    const { host, user } = renderQueue();
    await user.click(item('q-mail').getByRole('button', { name: 'Edit and approve' }));
    await user.click(item('q-mail').getByRole('button', { name: 'Approve with these arguments' }));
    expect(host.calls).toEqual([{ method: 'approvals.approve', request: { ids: ['q-mail'] } }]);
  });

  it('a double click on Approve sends one approval; the buttons wait for the answer', async () => {
    const answer = deferred<ApiResponse<'approvals.approve'>>();
    const host = fakeHost({ 'approvals.approve': () => answer.promise });
    const { user } = renderQueue(host);
    await user.dblClick(item('q-note').getByRole('button', { name: 'Approve' }));
    expect(host.calls).toEqual([{ method: 'approvals.approve', request: { ids: ['q-note'] } }]);
    for (const b of item('q-note').getAllByRole<HTMLButtonElement>('button')) expect(b.disabled).toBe(true);
    answer.resolve(approvedAnswer([note]));
    await waitFor(() => expect(shownIds()).toEqual(['q-mail', 'q-stopped']));
    expect(host.calls).toHaveLength(1);
  });
});

describe('invalid arguments', () => {
  it('JSON that does not parse, or is not an object, blocks approving and says why', async () => {
    const { host, user } = renderQueue();
    await user.click(item('q-mail').getByRole('button', { name: 'Edit and approve' }));
    const approve = () => user.click(item('q-mail').getByRole('button', { name: 'Approve with these arguments' }));

    await user.clear(jsonBox('q-mail'));
    await user.paste('{"to": ');
    expect(item('q-mail').getByTestId('approval-fields-paused').textContent).toContain('once the JSON below is valid');
    await approve();
    expect(item('q-mail').getByRole('alert').textContent).toContain('The arguments are not valid JSON');

    await user.clear(jsonBox('q-mail'));
    await user.paste('["ana@example.org"]');
    await approve();
    expect(item('q-mail').getByRole('alert').textContent).toContain('The arguments must be a JSON object');

    expect(host.calls).toEqual([]);
    expect(shownIds()).toEqual(['q-mail', 'q-note', 'q-stopped']);
  });

  it("arguments the tool's schema refuses are sent once, refused by the Host, and the reason shows on the card", async () => {
    const host = decidingHost({
      'approvals.approve': () => {
        throw new ApiCallError('INVALID_REQUEST', 'Invalid arguments for mail_send: /to must be string.');
      },
    });
    const { user } = renderQueue(host);
    await user.click(item('q-mail').getByRole('button', { name: 'Edit and approve' }));
    await user.clear(jsonBox('q-mail'));
    await user.paste('{"to": 5, "subject": "Lunch", "body": "See you at noon."}');
    await user.click(item('q-mail').getByRole('button', { name: 'Approve with these arguments' }));
    expect(host.calls).toEqual([
      { method: 'approvals.approve', request: { ids: ['q-mail'], args: { ...mailArgs, to: 5 } } },
    ]);
    expect((await item('q-mail').findByRole('alert')).textContent).toContain('/to must be string');
    expect(shownIds()).toEqual(['q-mail', 'q-note', 'q-stopped']);
  });
});

describe('cancelling an edit', () => {
  it('drops the edits: the editor opens again on the original arguments, and Approve sends none', async () => {
    const { host, user } = renderQueue();
    await user.click(item('q-mail').getByRole('button', { name: 'Edit and approve' }));
    await user.type(field('q-mail', 'subject'), ' tomorrow');
    await user.click(item('q-mail').getByRole('button', { name: 'Cancel' }));
    expect(item('q-mail').queryByTestId('approval-fields')).toBeNull();
    expect(item('q-mail').queryByRole('textbox', { name: 'Arguments (JSON)' })).toBeNull();

    await user.click(item('q-mail').getByRole('button', { name: 'Edit and approve' }));
    expect(field('q-mail', 'subject').value).toBe(mailArgs.subject);
    expect(field('q-mail', 'subject').dataset.changed).toBe('false');
    expect(JSON.parse(jsonBox('q-mail').value)).toEqual(mailArgs);
    await user.click(item('q-mail').getByRole('button', { name: 'Cancel' }));

    await user.click(item('q-mail').getByRole('button', { name: 'Approve' }));
    expect(host.calls).toEqual([{ method: 'approvals.approve', request: { ids: ['q-mail'] } }]);
  });
});

describe('denying one call', () => {
  it('Deny sends the reason, trimmed, and the call leaves the queue', async () => {
    const { host, user } = renderQueue();
    await user.type(item('q-mail').getByRole('textbox', { name: /Reason if you deny/ }), ' wrong person ');
    await user.click(item('q-mail').getByRole('button', { name: 'Deny' }));
    expect(host.calls).toEqual([{ method: 'approvals.deny', request: { ids: ['q-mail'], reason: 'wrong person' } }]);
    await waitFor(() => expect(shownIds()).toEqual(['q-note', 'q-stopped']));
  });

  it('Deny without a reason sends none', async () => {
    const { host, user } = renderQueue();
    await user.click(item('q-note').getByRole('button', { name: 'Deny' }));
    expect(host.calls).toEqual([{ method: 'approvals.deny', request: { ids: ['q-note'] } }]);
  });

  it('Enter in the reason denies, once, however often it is pressed while the answer is on its way', async () => {
    const answer = deferred<ApiResponse<'approvals.deny'>>();
    const host = fakeHost({ 'approvals.deny': () => answer.promise });
    const { user } = renderQueue(host);
    await user.type(item('q-mail').getByRole('textbox', { name: /Reason if you deny/ }), 'no{Enter}{Enter}');
    await user.keyboard('{Enter}');
    expect(host.calls).toEqual([{ method: 'approvals.deny', request: { ids: ['q-mail'], reason: 'no' } }]);
    answer.resolve(deniedAnswer([mail], 'no'));
    await waitFor(() => expect(shownIds()).toEqual(['q-note', 'q-stopped']));
  });

  it('an interrupted call offers only Dismiss, which denies it without a reason', async () => {
    const { host, user } = renderQueue();
    expect(
      item('q-stopped')
        .getAllByRole('button')
        .map((b) => b.textContent),
    ).toEqual(['Dismiss']);
    await user.click(item('q-stopped').getByRole('button', { name: 'Dismiss' }));
    expect(host.calls).toEqual([{ method: 'approvals.deny', request: { ids: ['q-stopped'] } }]);
  });
});

describe('several at once', () => {
  const select = (id: string) => item(id).getByRole('checkbox');

  it('Approve selected sends the selected calls still pending, in queue order, with no arguments', async () => {
    const { host, user } = renderQueue();
    const approveSelected = screen.getByRole<HTMLButtonElement>('button', { name: 'Approve selected' });
    expect(approveSelected.disabled).toBe(true);
    await user.click(select('q-stopped'));
    // An interrupted call may have run: it is never approved, so it alone selects nothing to approve.
    expect(approveSelected.disabled).toBe(true);
    await user.click(select('q-note'));
    await user.click(select('q-mail'));
    expect(screen.getByText('3 selected')).toBeTruthy();

    await user.dblClick(approveSelected);
    expect(host.calls).toEqual([{ method: 'approvals.approve', request: { ids: ['q-mail', 'q-note'] } }]);
    await waitFor(() => expect(shownIds()).toEqual(['q-stopped']));
  });

  it('Deny selected sends every selected call, the interrupted one too, and only those', async () => {
    const { host, user } = renderQueue();
    const denySelected = screen.getByRole<HTMLButtonElement>('button', { name: 'Deny selected' });
    expect(denySelected.disabled).toBe(true);
    await user.click(select('q-stopped'));
    await user.click(select('q-mail'));
    await user.dblClick(denySelected);
    expect(host.calls).toEqual([{ method: 'approvals.deny', request: { ids: ['q-mail', 'q-stopped'] } }]);
    await waitFor(() => expect(shownIds()).toEqual(['q-note']));
  });

  it('a double click on a batch button sends one request; both wait for the answer', async () => {
    const answer = deferred<ApiResponse<'approvals.deny'>>();
    const host = fakeHost({ 'approvals.deny': () => answer.promise });
    const { user } = renderQueue(host);
    await user.click(select('q-mail'));
    await user.click(select('q-note'));
    await user.dblClick(screen.getByRole('button', { name: 'Deny selected' }));
    expect(host.calls).toEqual([{ method: 'approvals.deny', request: { ids: ['q-mail', 'q-note'] } }]);
    for (const name of ['Approve selected', 'Deny selected']) {
      expect(screen.getByRole<HTMLButtonElement>('button', { name }).disabled, name).toBe(true);
    }
    answer.resolve(deniedAnswer([mail, note]));
    await waitFor(() => expect(shownIds()).toEqual(['q-stopped']));
    expect(host.calls).toHaveLength(1);
  });

  it('unselecting takes a call out of the batch', async () => {
    const { host, user } = renderQueue();
    await user.click(select('q-mail'));
    await user.click(select('q-note'));
    await user.click(select('q-mail'));
    await user.click(screen.getByRole('button', { name: 'Deny selected' }));
    expect(host.calls).toEqual([{ method: 'approvals.deny', request: { ids: ['q-note'] } }]);
  });
});
