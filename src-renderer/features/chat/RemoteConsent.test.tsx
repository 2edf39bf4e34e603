// @vitest-environment happy-dom
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { ModelState } from '../../../src-shared/contract/index.js';
import { ApiCallError } from '../../bridge/apiError.js';
import { fakeHost } from '../../testing/fakeHost.js';
import { makeMessage, makeRemoteNode, makeTask, remoteModelState } from '../../testing/testFixtures.js';
import { renderWithStore } from '../../testing/renderWithStore.js';
import { ChatView } from './ChatView.js';
import { MessageBubble } from './MessageBubble.js';

const STUDY = makeRemoteNode();
const NODE = { url: STUDY.url, model: STUDY.model, protocol: STUDY.protocol, label: STUDY.label };
const ON_A_NODE: ModelState = remoteModelState(STUDY);

const REFUSAL =
  "The model in use runs on another computer: the study (http://192.168.1.20:8080). This task's messages and the results of its tools would be sent there. Agree for this task to go on; nothing was sent or saved.";

/** A Host that refuses chat.send until it carries allowRemote, then accepts it for task t1. */
function consentingHost() {
  return fakeHost({
    'chat.send': (request) => {
      if (!request.allowRemote) throw new ApiCallError('REMOTE_CONSENT_REQUIRED', REFUSAL);
      return { taskId: 't1', userMessageId: 'u1', assistantMessageId: 'a1' };
    },
    'tasks.get': () => ({ task: makeTask({ id: 't1' }), messages: [], toolCalls: [] }),
  });
}

function chat(host = consentingHost()) {
  const view = renderWithStore(<ChatView readOnly={false} />, host, { modelState: ON_A_NODE });
  const box = screen.getByTestId<HTMLTextAreaElement>('composer-input');
  fireEvent.change(box, { target: { value: 'summarise my notes folder' } });
  fireEvent.keyDown(box, { key: 'Enter' });
  return { ...view, host, box };
}

describe('a task on a model on another computer', () => {
  it('asks before the first message goes there, naming the computer; agreeing sends the same text with consent', async () => {
    const { host, box, user } = chat();
    const dialog = await screen.findByTestId('remote-consent-dialog');
    expect(within(dialog).getByRole('heading').textContent).toBe('Send this task to the study?');
    expect(screen.getByTestId('remote-consent-message').textContent).toBe(REFUSAL);
    expect(dialog.textContent).toContain('botpsy-q8');
    expect(dialog.textContent).toContain('over plain http');
    // Enter alone must not send the task away: the focus is on Cancel.
    expect(document.activeElement).toBe(screen.getByTestId('remote-consent-cancel'));
    expect(box.value).toBe('summarise my notes folder');
    expect(screen.queryByRole('alert')).toBeNull();

    await user.click(screen.getByTestId('remote-consent-allow'));
    await waitFor(() => expect(host.requestsTo('chat.send')).toHaveLength(2));
    expect(host.requestsTo('chat.send')).toEqual([
      { taskId: null, text: 'summarise my notes folder' },
      { taskId: null, text: 'summarise my notes folder', allowRemote: true },
    ]);
    await waitFor(() => expect(box.value).toBe(''));
    expect(screen.queryByTestId('remote-consent-dialog')).toBeNull();
  });

  it('Esc or Cancel sends nothing and keeps the text in the box', async () => {
    const { host, box, store } = chat();
    const dialog = await screen.findByTestId('remote-consent-dialog');
    fireEvent.keyDown(dialog, { key: 'Escape' });
    await waitFor(() => expect(screen.queryByTestId('remote-consent-dialog')).toBeNull());
    expect(host.requestsTo('chat.send')).toHaveLength(1);
    expect(box.value).toBe('summarise my notes folder');
    expect(store.getState().remoteConsent).toBeNull();
    await waitFor(() => expect(document.activeElement).toBe(box));

    fireEvent.keyDown(box, { key: 'Enter' });
    fireEvent.click(await screen.findByTestId('remote-consent-cancel'));
    await waitFor(() => expect(screen.queryByTestId('remote-consent-dialog')).toBeNull());
    expect(host.requestsTo('chat.send')).toHaveLength(2);
    expect(host.requestsTo('chat.send').every((r) => r.allowRemote === undefined)).toBe(true);
    expect(box.value).toBe('summarise my notes folder');
  });

  it('refused again after agreeing (the node went away meanwhile): the reason shows, the text stays', async () => {
    const host = fakeHost({
      'chat.send': (request) => {
        if (!request.allowRemote) throw new ApiCallError('REMOTE_CONSENT_REQUIRED', REFUSAL);
        throw new ApiCallError('NO_MODEL', 'No model is loaded: open one in Models.');
      },
    });
    const { box, user } = chat(host);
    await user.click(await screen.findByTestId('remote-consent-allow'));
    expect((await screen.findByRole('alert')).textContent).toContain('No model is loaded');
    expect(screen.queryByTestId('remote-consent-dialog')).toBeNull();
    expect(box.value).toBe('summarise my notes folder');
  });

  it('shows the model in use is on another computer beside its name', () => {
    renderWithStore(<ChatView readOnly={false} />, fakeHost(), { modelState: ON_A_NODE });
    expect(screen.getByTestId('remote-model-badge').textContent).toContain('On another computer: the study');
    expect(screen.getByTestId('remote-model-badge').title).toBe(NODE.url);
  });
});

describe('a reply a model on another computer wrote', () => {
  it('says so, with the model, the computer and its address', () => {
    const message = makeMessage({ role: 'assistant', text: 'Done.', state: 'complete', remote: NODE });
    renderWithStore(
      <ul>
        <MessageBubble message={message} />
      </ul>,
      fakeHost(),
    );
    const mark = screen.getByTestId('message-remote');
    expect(mark.textContent).toBe(`Written on another computer: botpsy-q8 at the study (${NODE.url})`);
    expect(mark.dataset.remoteUrl).toBe(NODE.url);
  });

  it('a reply written here has no mark', () => {
    renderWithStore(
      <ul>
        <MessageBubble message={makeMessage({ role: 'assistant', text: 'Done.', state: 'complete' })} />
      </ul>,
      fakeHost(),
    );
    expect(screen.queryByTestId('message-remote')).toBeNull();
  });
});
