/**
 * A model on another computer sees each task's conversation and tool results: a task uses one only after the user
 * agreed, once per task and node. The agreement is asked for when a message is sent (chat.send's `allowRemote`), kept
 * with the task, audited, and checked again before every reply, so a task that goes on after a decision, or one whose
 * model was changed to a node meanwhile, never reaches a node the user did not agree to for it.
 */
import { HomebodyError, type ModelState, type RemoteMark } from '../../src-shared/contract/index.js';
import type { Store } from '../store/store.js';

/** The node the model in use runs on, or undefined for a model on this computer. */
export function remoteOf(state: ModelState): RemoteMark | undefined {
  if (state.status !== 'ready' || !state.info.remote) return undefined;
  const { url, model, label } = state.info.remote;
  return { url, model, label: label ?? url };
}

export function consentRequired(remote: RemoteMark): HomebodyError {
  return new HomebodyError(
    'REMOTE_CONSENT_REQUIRED',
    `The model in use runs on another computer: ${remote.label} (${remote.url}). This task's messages and the results of its tools would be sent there. Agree for this task to go on; nothing was sent or saved.`,
  );
}

/** Whether this task may send its conversation to `remote`. */
export function remoteAllowed(store: Store, taskId: string, remote: RemoteMark): boolean {
  return store.tasks.remoteAllowed(taskId, remote.url);
}

/** Records the user's agreement (in the caller's transaction), with an audit event naming the node. */
export function allowRemote(store: Store, taskId: string, remote: RemoteMark, now: number): void {
  if (store.tasks.remoteAllowed(taskId, remote.url)) return;
  store.tasks.allowRemote(taskId, remote.url, now);
  store.audit.append({
    at: now,
    taskId,
    callId: null,
    kind: 'remote-consent',
    actor: 'user',
    summary: `Allowed this task to use the model on ${remote.label} (${remote.url})`,
    detail: { url: remote.url, model: remote.model },
  });
}
