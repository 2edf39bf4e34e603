import {
  remoteModelName,
  remoteReference,
  type HomebodyApi,
  type Message,
  type ModelState,
  type RemoteNode,
  type TaskSummary,
  type ToolCall,
} from '../../src-shared/contract/index.js';
import type { KeyValueStore } from '../store/types.js';

/** Builders for unit tests: valid contract objects with only the interesting fields given. */
export function makeMessage(overrides: Partial<Message> = {}): Message {
  return {
    id: 'm1',
    taskId: 't1',
    seq: 0,
    role: 'assistant',
    text: '',
    reasoning: '',
    state: 'streaming',
    createdAt: 1_700_000_000_000,
    stats: null,
    error: null,
    ...overrides,
  };
}

export function makeTask(overrides: Partial<TaskSummary> = {}): TaskSummary {
  return {
    id: 't1',
    title: 'A task',
    status: 'idle',
    createdAt: 1_700_000_000_000,
    updatedAt: 1_700_000_000_000,
    messageCount: 0,
    waitingCalls: 0,
    ...overrides,
  };
}

export function makeToolCall(overrides: Partial<ToolCall> = {}): ToolCall {
  return {
    id: 'c1',
    taskId: 't1',
    tool: 'list_folder',
    args: { path: '/home/me' },
    description: {
      title: 'List a folder',
      summary: 'Lists /home/me',
      details: [{ label: 'Folder', value: '/home/me' }],
    },
    risk: 'read',
    gate: 'prompt',
    state: 'pending',
    decision: null,
    decidedBy: null,
    reason: null,
    taint: [],
    paths: [],
    basis: null,
    result: null,
    resultSummary: null,
    error: null,
    undo: null,
    createdAt: 1_700_000_000_000,
    decidedAt: null,
    startedAt: null,
    finishedAt: null,
    ...overrides,
  };
}

/** Storage in a Map, for stores under test. */
export function memoryStorage(): KeyValueStore & { data: Map<string, string> } {
  const data = new Map<string, string>();
  return {
    data,
    get: (k) => data.get(k) ?? null,
    set: (k, v) => (v === null ? data.delete(k) : data.set(k, v)),
  };
}

/** An api whose every method fails unless the test gives it. */
export function fakeApi(methods: Partial<HomebodyApi> = {}): HomebodyApi {
  return new Proxy(methods as HomebodyApi, {
    get(target, key: string) {
      return (
        (target as Record<string, unknown>)[key] ??
        (() => Promise.reject(Object.assign(new Error(`unexpected call ${key}`), { code: 'INTERNAL' })))
      );
    },
  });
}

/** A promise and the functions that settle it, for answers a test delivers out of order. */
export function deferred<T>(): { promise: Promise<T>; resolve: (value: T) => void; reject: (error: unknown) => void } {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

/** A model on another computer the user added: botpsy-q8 on "the study", over plain http. */
export function makeRemoteNode(overrides: Partial<RemoteNode> = {}): RemoteNode {
  return {
    id: 'n1',
    label: 'the study',
    url: 'http://192.168.1.20:8080',
    model: 'botpsy-q8',
    contextSize: 8192,
    protocol: 'dialect',
    fingerprint: null,
    hasApiKey: false,
    allowOffline: false,
    active: false,
    addedAt: 1_700_000_000_000,
    ...overrides,
  };
}

/** The model state once a node is the chat's model (its path is `remote:<id>`). */
export function remoteModelState(node: RemoteNode = makeRemoteNode()): ModelState {
  return {
    status: 'ready',
    info: {
      path: remoteReference(node.id),
      name: remoteModelName(node),
      architecture: 'remote',
      sizeBytes: 0,
      contextSize: node.contextSize,
      trainContextSize: node.contextSize,
      synthetic: false,
      gpu: 'remote',
      remote: {
        url: node.url,
        model: node.model,
        protocol: node.protocol,
        label: node.label,
        ...(node.fingerprint ? { fingerprint: node.fingerprint } : {}),
      },
    },
  };
}
