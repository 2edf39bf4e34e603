import type { HostClient } from '../bridge/hostClient.js';
import type { AppStore } from './createAppStore.js';
import { animationFrameScheduler, createDeltaBuffer, type FrameScheduler } from './deltaBuffer.js';

/**
 * Feeds the Host's events into the store: token deltas through the per-frame
 * buffer, everything else at once after flushing the buffer so order is kept.
 */
export function connectHost(
  client: HostClient,
  store: AppStore,
  scheduler: FrameScheduler = animationFrameScheduler,
): () => void {
  const buffer = createDeltaBuffer((batch) => store.getState().applyDeltas(batch), scheduler);
  const unsubscribe = client.subscribe({
    onEvent(event) {
      switch (event.type) {
        case 'message.delta':
          buffer.push(event);
          return;
        case 'model.state':
        case 'task.updated':
        case 'message.created':
        case 'message.finished':
        case 'toolcall.updated':
        case 'tasks.deleted':
        case 'download.progress':
        case 'models.changed':
        case 'mcp.changed':
        case 'egress.recorded':
          buffer.flush();
          store.getState().applyEvent(event);
          return;
        case 'device.request':
          // Carried out by the page (browser mode); the Host waits for the answer.
          void store.getState().handleDeviceRequest(event);
          return;
        case 'doctor.progress':
          // The benchmark's phases are for the terminal (homebody doctor --bench); the page waits for doctor.bench.
          return;
        case 'reminder.due': {
          const { reminder } = event;
          store.getState().showToast('Reminder', reminder.text);
          return;
        }
        case 'privacy.dataDeleted':
          buffer.flush();
          store.getState().applyEvent(event);
          void store.getState().reloadAfterDataDeleted();
          return;
        case 'eval.progress':
          store.getState().applyEvent(event);
          return;
        case 'eval.finished': {
          buffer.flush();
          store.getState().applyEvent(event);
          const state = store.getState();
          void state.reloadEvalRun(event.run.id);
          // A finished run may change the active model's scores, and so which gated tools run without asking.
          if (state.evalGates !== null) void state.loadEvalGates();
          return;
        }
        case 'tasks.imported': {
          buffer.flush();
          const state = store.getState();
          void state.loadTasks();
          if (state.historyLoaded) void state.loadHistory();
          return;
        }
        default:
          return event satisfies never;
      }
    },
    onError(error) {
      store.getState().showBanner(error);
    },
    onReconnect() {
      buffer.flush();
      const { banner } = store.getState();
      if (banner?.message.startsWith('Lost the connection')) store.getState().dismissBanner();
      void store.getState().refresh();
    },
    onConnectionChange(state) {
      store.getState().setConnection(state);
    },
  });
  return () => {
    unsubscribe();
    buffer.dispose();
  };
}
