import { describe, expect, it } from 'vitest';
import type { ApiRequest, ApiResponse, HomebodyApi } from '../../src-shared/contract/index.js';
import { ApiCallError } from '../bridge/apiError.js';
import { createAppStore } from './createAppStore.js';
import { deferred, fakeApi, makeTask, memoryStorage } from '../testing/testFixtures.js';

const CONSENT = 'This task would go to llama-server on 192.168.1.20:8080: its messages and tool results.';
const consentRequired = () => new ApiCallError('REMOTE_CONSENT_REQUIRED', CONSENT);
const accepted = (taskId: string): ApiResponse<'chat.send'> => ({
  taskId,
  userMessageId: 'u1',
  assistantMessageId: 'a1',
});

/** A store with task `t1` open (or none), whose chat.send answers with `answer` and records each request. */
function setup(
  answer: (request: ApiRequest<'chat.send'>) => Promise<ApiResponse<'chat.send'>>,
  { openTaskId = 't1' as string | null, methods = {} as Partial<HomebodyApi> } = {},
) {
  const sent: Array<ApiRequest<'chat.send'>> = [];
  const store = createAppStore({
    api: fakeApi({
      'chat.send': (request) => {
        sent.push(request);
        return answer(request);
      },
      ...methods,
    }),
    storage: memoryStorage(),
  });
  store.setState({ openTaskId });
  return { store, sent };
}

describe('send() and the consent to a model on another computer', () => {
  it('asks instead of showing an error when the Host wants consent, and sends no allowRemote by default', async () => {
    const { store, sent } = setup(() => Promise.reject(consentRequired()));
    expect(await store.getState().send('What is on my calendar?')).toBe(false);
    expect(sent).toStrictEqual([{ taskId: 't1', text: 'What is on my calendar?' }]);
    expect(Object.keys(sent[0] ?? {})).not.toContain('allowRemote');
    expect(store.getState().remoteConsent).toEqual({ taskId: 't1', text: 'What is on my calendar?', message: CONSENT });
    expect(store.getState().chatError).toBeNull();
    expect(store.getState().sending).toBe(false);
    expect(store.getState().awaitingNewTask).toBe(false);
  });

  it('asks for a new task too, with a null task id', async () => {
    const { store, sent } = setup(() => Promise.reject(consentRequired()), { openTaskId: null });
    expect(await store.getState().send('hello')).toBe(false);
    expect(sent).toStrictEqual([{ taskId: null, text: 'hello' }]);
    expect(store.getState().remoteConsent).toEqual({ taskId: null, text: 'hello', message: CONSENT });
    expect(store.getState().chatError).toBeNull();
    expect(store.getState().awaitingNewTask).toBe(false);
    expect(store.getState().openTaskId).toBeNull();
  });

  it('leaves allowRemote out when the option is false', async () => {
    const { store, sent } = setup(async () => accepted('t1'));
    expect(await store.getState().send('hello', { allowRemote: false })).toBe(true);
    expect(sent).toStrictEqual([{ taskId: 't1', text: 'hello' }]);
  });

  it('passes allowRemote: true once the user agreed, and clears the question as it sends', async () => {
    let first = true;
    const answer = deferred<ApiResponse<'chat.send'>>();
    const { store, sent } = setup(() => {
      if (first) {
        first = false;
        return Promise.reject(consentRequired());
      }
      return answer.promise;
    });
    await store.getState().send('hello');
    expect(store.getState().remoteConsent).not.toBeNull();

    const sending = store.getState().send('hello', { allowRemote: true });
    expect(store.getState().remoteConsent).toBeNull();
    expect(store.getState().sending).toBe(true);
    expect(sent).toStrictEqual([
      { taskId: 't1', text: 'hello' },
      { taskId: 't1', text: 'hello', allowRemote: true },
    ]);
    answer.resolve(accepted('t1'));
    expect(await sending).toBe(true);
    expect(store.getState().remoteConsent).toBeNull();
    expect(store.getState().chatError).toBeNull();
    expect(store.getState().sending).toBe(false);
  });

  it('shows a second refusal as an error when consent was already given', async () => {
    const { store, sent } = setup(() => Promise.reject(consentRequired()));
    expect(await store.getState().send('hello', { allowRemote: true })).toBe(false);
    expect(sent).toStrictEqual([{ taskId: 't1', text: 'hello', allowRemote: true }]);
    expect(store.getState().chatError).toEqual({ code: 'REMOTE_CONSENT_REQUIRED', message: CONSENT });
    expect(store.getState().remoteConsent).toBeNull();
    expect(store.getState().sending).toBe(false);
  });

  it('forgets the question when the user does not agree, sending nothing', async () => {
    const { store, sent } = setup(() => Promise.reject(consentRequired()));
    await store.getState().send('hello');
    expect(store.getState().remoteConsent).not.toBeNull();
    store.getState().dismissRemoteConsent();
    expect(store.getState().remoteConsent).toBeNull();
    expect(store.getState().chatError).toBeNull();
    expect(sent).toHaveLength(1);
  });

  it('clears a pending question when another message is sent, whatever its answer', async () => {
    let calls = 0;
    const answer = deferred<ApiResponse<'chat.send'>>();
    const { store } = setup(() => {
      calls += 1;
      return calls === 1 ? Promise.reject(consentRequired()) : answer.promise;
    });
    await store.getState().send('first');
    expect(store.getState().remoteConsent?.text).toBe('first');

    const sending = store.getState().send('second');
    expect(store.getState().remoteConsent).toBeNull();
    answer.reject(new ApiCallError('TASK_BUSY', 'This task is answering already.'));
    expect(await sending).toBe(false);
    expect(store.getState().remoteConsent).toBeNull();
    expect(store.getState().chatError).toEqual({ code: 'TASK_BUSY', message: 'This task is answering already.' });
  });

  it('shows other refusals as errors, not as a question', async () => {
    const { store } = setup(() => Promise.reject(new ApiCallError('NO_MODEL', 'Open a model first.')));
    expect(await store.getState().send('hello')).toBe(false);
    expect(store.getState().chatError).toEqual({ code: 'NO_MODEL', message: 'Open a model first.' });
    expect(store.getState().remoteConsent).toBeNull();
  });

  it('does not ask when the user opened another task while the message was in flight', async () => {
    const answer = deferred<ApiResponse<'chat.send'>>();
    const { store } = setup(() => answer.promise, {
      methods: {
        'tasks.get': async ({ taskId }) => ({ task: makeTask({ id: taskId }), messages: [], toolCalls: [] }),
      },
    });
    const sending = store.getState().send('hello');
    await store.getState().openTask('t2');
    expect(store.getState().openTaskId).toBe('t2');
    answer.reject(consentRequired());
    expect(await sending).toBe(false);
    expect(store.getState().remoteConsent).toBeNull();
    expect(store.getState().chatError).toEqual({ code: 'REMOTE_CONSENT_REQUIRED', message: CONSENT });
    expect(store.getState().sending).toBe(false);
  });

  it('does not ask for a new task when the user opened a task while it was in flight', async () => {
    const answer = deferred<ApiResponse<'chat.send'>>();
    const { store } = setup(() => answer.promise, {
      openTaskId: null,
      methods: {
        'tasks.get': async ({ taskId }) => ({ task: makeTask({ id: taskId }), messages: [], toolCalls: [] }),
      },
    });
    const sending = store.getState().send('hello');
    expect(store.getState().awaitingNewTask).toBe(true);
    await store.getState().openTask('t1');
    answer.reject(consentRequired());
    expect(await sending).toBe(false);
    expect(store.getState().remoteConsent).toBeNull();
    expect(store.getState().chatError?.code).toBe('REMOTE_CONSENT_REQUIRED');
    expect(store.getState().awaitingNewTask).toBe(false);
  });

  it('forgets a pending question when another task or a new one is opened', async () => {
    const { store } = setup(() => Promise.reject(consentRequired()), {
      methods: {
        'tasks.get': async ({ taskId }) => ({ task: makeTask({ id: taskId }), messages: [], toolCalls: [] }),
      },
    });
    await store.getState().send('hello');
    expect(store.getState().remoteConsent).not.toBeNull();
    await store.getState().openTask('t2');
    expect(store.getState().remoteConsent).toBeNull();

    await store.getState().send('hello');
    expect(store.getState().remoteConsent?.taskId).toBe('t2');
    store.getState().newTask();
    expect(store.getState().remoteConsent).toBeNull();
  });
});
