// @vitest-environment happy-dom
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { MAX_MESSAGE_CHARS, type ModelState } from '../../../src-shared/contract/index.js';
import { ApiCallError } from '../../bridge/apiError.js';
import { fakeHost } from '../../testing/fakeHost.js';
import { makeTask } from '../../testing/testFixtures.js';
import { renderWithStore } from '../../testing/renderWithStore.js';
import { ChatView } from './ChatView.js';
import { Composer } from './Composer.js';

const READY: ModelState = {
  status: 'ready',
  info: {
    path: '/m.gguf',
    name: 'm',
    architecture: 'qwen3',
    sizeBytes: 1,
    contextSize: 4096,
    trainContextSize: 4096,
    synthetic: false,
    gpu: 'cpu',
  },
};

const TOO_LONG_FOR_THE_MODEL =
  'This message is too long to send: it is 2,500 tokens long, and this model takes at most 2,048 in one message ' +
  '(half its context; a larger context size in the model settings takes more). Shorten it or split it into ' +
  'several messages; nothing was saved.';

function renderComposer(host = fakeHost()) {
  const view = renderWithStore(<Composer />, host, { modelState: READY });
  const box = screen.getByTestId<HTMLTextAreaElement>('composer-input');
  const send = (text: string) => {
    fireEvent.change(box, { target: { value: text } });
    fireEvent.keyDown(box, { key: 'Enter' });
  };
  return { ...view, host, box, send };
}

describe('an over-long message', () => {
  it('over the character limit: refused in the page, the text kept in the box, nothing sent', async () => {
    const { host, box, send, store } = renderComposer();
    const text = 'x'.repeat(MAX_MESSAGE_CHARS + 1);
    send(text);
    await waitFor(() => expect(store.getState().chatError?.message).toMatch(/^This message is too long to send/));
    expect(store.getState().chatError?.message).toContain('100,001 characters');
    expect(host.calls).toEqual([]);
    expect(box.value).toBe(text);
  });

  it("too long for the model: the Host's refusal in the same words, the text kept in the box", async () => {
    const host = fakeHost({
      'chat.send': () => {
        throw new ApiCallError('CONTEXT_OVERFLOW', TOO_LONG_FOR_THE_MODEL);
      },
    });
    const { box, send, store } = renderComposer(host);
    const text = 'word '.repeat(2500);
    send(text);
    await waitFor(() => expect(store.getState().chatError?.message).toBe(TOO_LONG_FOR_THE_MODEL));
    expect(host.requestsTo('chat.send')).toHaveLength(1);
    expect(box.value).toBe(text);
  });
});

describe('a message the Host refuses because the task is still being written', () => {
  it('keeps the text and says why', async () => {
    const busy = makeTask({ id: 'busy', title: 'rename the draft', status: 'running' });
    const refusal = 'This task is still being written. Wait for its reply to finish, or stop it, before writing again.';
    const host = fakeHost({
      'chat.send': () => {
        throw new ApiCallError('TASK_BUSY', refusal);
      },
    });
    renderWithStore(<ChatView readOnly={false} />, host, { modelState: READY, tasks: [busy] });
    const box = screen.getByTestId<HTMLTextAreaElement>('composer-input');
    fireEvent.change(box, { target: { value: 'what time is it?' } });
    fireEvent.keyDown(box, { key: 'Enter' });
    expect((await screen.findByRole('alert')).textContent).toContain(refusal);
    expect(box.value).toBe('what time is it?');
  });
});
