// @vitest-environment happy-dom
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { DELETE_ALL_CONFIRMATION, type ApiResponse, type StorageReport } from '../../../src-shared/contract/index.js';
import { ApiCallError } from '../../bridge/apiError.js';
import { deferred } from '../../testing/testFixtures.js';
import { fakeHost, type FakeAnswers, type FakeHost } from '../../testing/fakeHost.js';
import { renderWithStore } from '../../testing/renderWithStore.js';
import { StorageSection } from './StorageSection.js';

const emptyReport: StorageReport = {
  dataDir: '/home/me/.local/share/homebody',
  items: [],
  totalBytes: 0,
  secrets: { protection: 'key-file', description: 'A key file in the data folder.' },
  sandbox: { kind: 'none', summary: 'No OS sandbox.', detail: 'Install bubblewrap.' },
};

const deletedAnswer: ApiResponse<'privacy.deleteAllData'> = { deletedBytes: 2048, removed: ['tasks', 'settings'] };

const hostAnswering = (answers: FakeAnswers = {}) =>
  fakeHost({ 'privacy.deleteAllData': () => deletedAnswer, 'privacy.storage': () => emptyReport, ...answers });

/** The Privacy page's storage section (the dialog's real opener), with the dialog open. */
async function openDialog(host: FakeHost = hostAnswering()) {
  const view = renderWithStore(<StorageSection />, host);
  const opener = screen.getByRole('button', { name: 'Delete all my data…' });
  await view.user.click(opener);
  return { ...view, host, opener };
}

const dialog = () => screen.queryByRole('alertdialog', { name: 'Delete all my data' });
/** Esc where the focus is not inside the dialog: the browser sends the dialog a close request (happy-dom does not). */
const browserCloseRequest = () => fireEvent(dialog() as HTMLElement, new Event('cancel', { cancelable: true }));
const confirmInput = () => screen.getByRole<HTMLInputElement>('textbox', { name: /to confirm/ });
const includeModels = () => screen.getByRole<HTMLInputElement>('checkbox', { name: 'Also delete downloaded models' });
const deleteButton = () => screen.getByTestId<HTMLButtonElement>('delete-confirm-ok');
const cancelButton = () => screen.getByRole<HTMLButtonElement>('button', { name: 'Cancel' });
const deletions = (host: FakeHost) => host.requestsTo('privacy.deleteAllData');

describe('asking before deleting everything', () => {
  it('opens on the confirmation field, the Delete button disabled, nothing sent', async () => {
    const { host } = await openDialog();
    expect(dialog()).toBeTruthy();
    expect(document.activeElement).toBe(confirmInput());
    expect(deleteButton().disabled).toBe(true);
    expect(includeModels().checked).toBe(false);
    expect(host.calls).toEqual([]);
  });

  it('deletes nothing until the exact words are typed: Enter and clicks before that send nothing', async () => {
    const { host, user } = await openDialog();
    await user.keyboard('{Enter}');
    for (const almost of ['delete my dat', 'Delete my data', 'delete  my data', 'delete my data please']) {
      await user.clear(confirmInput());
      await user.type(confirmInput(), `${almost}{Enter}`);
      expect(deleteButton().disabled, almost).toBe(true);
      await user.click(deleteButton());
    }
    expect(host.calls).toEqual([]);
    expect(dialog()).toBeTruthy();
  });

  it('the words typed (spaces around them allowed) and Delete send one request without the models', async () => {
    const { host, user } = await openDialog();
    await user.type(confirmInput(), ` ${DELETE_ALL_CONFIRMATION} `);
    expect(deleteButton().disabled).toBe(false);
    await user.click(deleteButton());

    expect(deletions(host)).toEqual([{ confirm: DELETE_ALL_CONFIRMATION, includeModels: false }]);
    await waitFor(() => expect(dialog()).toBeNull());
    expect(screen.getByRole('status').textContent).toContain('Deleted 2.0 KB: tasks, settings.');
    // Afterwards the section reads what is left; nothing else was asked of the Host.
    expect(host.calls.map((c) => c.method)).toEqual(['privacy.deleteAllData', 'privacy.storage']);
  });

  it('"Also delete downloaded models" sends includeModels, and Enter in the field confirms once the words match', async () => {
    const { host, user } = await openDialog();
    await user.click(includeModels());
    await user.type(confirmInput(), `${DELETE_ALL_CONFIRMATION}{Enter}`);
    expect(deletions(host)).toEqual([{ confirm: DELETE_ALL_CONFIRMATION, includeModels: true }]);
  });

  it('unticking the models again sends includeModels false', async () => {
    const { host, user } = await openDialog();
    await user.click(includeModels());
    await user.click(includeModels());
    await user.type(confirmInput(), DELETE_ALL_CONFIRMATION);
    await user.click(deleteButton());
    expect(deletions(host)).toEqual([{ confirm: DELETE_ALL_CONFIRMATION, includeModels: false }]);
  });
});

describe('leaving without deleting', () => {
  it.each([
    ['Cancel', 'cancel'],
    ['Esc', 'escape'],
    ["the browser's close request", 'close-request'],
  ] as const)('%s sends nothing, even with the words typed and the models ticked', async (_, how) => {
    const { host, user, opener } = await openDialog();
    await user.click(includeModels());
    await user.type(confirmInput(), DELETE_ALL_CONFIRMATION);
    if (how === 'cancel') await user.click(cancelButton());
    else if (how === 'escape') await user.keyboard('{Escape}');
    else browserCloseRequest();

    expect(dialog()).toBeNull();
    expect(host.calls).toEqual([]);
    // Where the focus goes back is left to the browser's dialog focusing steps, which happy-dom does not model.

    // Opened again, it starts over: nothing typed, nothing ticked.
    await user.click(opener);
    expect(confirmInput().value).toBe('');
    expect(includeModels().checked).toBe(false);
    expect(host.calls).toEqual([]);
  });
});

describe('while the deletion runs', () => {
  it('nothing can be sent again, and neither Cancel nor Esc closes the dialog', async () => {
    const answer = deferred<ApiResponse<'privacy.deleteAllData'>>();
    const host = hostAnswering({ 'privacy.deleteAllData': () => answer.promise });
    const { user } = await openDialog(host);
    await user.type(confirmInput(), DELETE_ALL_CONFIRMATION);
    await user.dblClick(deleteButton());

    expect(deleteButton().disabled).toBe(true);
    expect(deleteButton().textContent).toBe('Deleting…');
    expect(confirmInput().disabled).toBe(true);
    expect(includeModels().disabled).toBe(true);
    expect(cancelButton().disabled).toBe(true);
    expect(screen.getByRole('status').textContent).toContain('Deleting your data');
    // The focus left the disabled controls, so Esc is tried both on the dialog and as the browser's close request.
    fireEvent.keyDown(dialog() as HTMLElement, { key: 'Escape' });
    browserCloseRequest();
    await user.click(cancelButton());
    expect(dialog()).toBeTruthy();
    expect(deletions(host)).toHaveLength(1);

    answer.resolve(deletedAnswer);
    await waitFor(() => expect(dialog()).toBeNull());
    expect(deletions(host)).toHaveLength(1);
  });

  it('a refusal from the Host stays in the dialog, says why, and lets the user try again', async () => {
    let refuse = true;
    const host = hostAnswering({
      'privacy.deleteAllData': () => {
        if (!refuse) return deletedAnswer;
        throw new ApiCallError(
          'TASK_BUSY',
          'Replies kept starting while your data was being deleted; nothing was deleted.',
        );
      },
    });
    const { user } = await openDialog(host);
    await user.type(confirmInput(), DELETE_ALL_CONFIRMATION);
    await user.click(deleteButton());

    expect((await screen.findByRole('alert')).textContent).toContain('nothing was deleted');
    expect(dialog()).toBeTruthy();
    expect(deleteButton().disabled).toBe(false);

    refuse = false;
    await user.click(deleteButton());
    await waitFor(() => expect(dialog()).toBeNull());
    expect(deletions(host)).toHaveLength(2);
  });
});
