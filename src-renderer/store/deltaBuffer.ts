import type { MessageDelta } from './types.js';

export interface FrameScheduler {
  request(callback: () => void): number;
  cancel(handle: number): void;
}

export const animationFrameScheduler: FrameScheduler = {
  request: (callback) => requestAnimationFrame(() => callback()),
  cancel: (handle) => cancelAnimationFrame(handle),
};

export interface DeltaBuffer {
  push(delta: MessageDelta): void;
  /** Applies everything buffered now; call before any other event so order is kept. */
  flush(): void;
  /** Deltas waiting for the next frame (for tests and diagnostics). */
  readonly pendingCount: number;
  dispose(): void;
}

interface Pending {
  taskId: string;
  messageId: string;
  text: string[];
  reasoning: string[];
}

/**
 * Collects token deltas and hands them to `apply` at most once per frame,
 * merged per message, so a fast model costs one store update per frame rather
 * than one per token.
 */
export function createDeltaBuffer(
  apply: (batch: readonly MessageDelta[]) => void,
  scheduler: FrameScheduler = animationFrameScheduler,
): DeltaBuffer {
  let pending = new Map<string, Pending>();
  let handle: number | null = null;

  const flush = () => {
    if (handle !== null) {
      scheduler.cancel(handle);
      handle = null;
    }
    if (pending.size === 0) return;
    const batch: MessageDelta[] = [];
    for (const p of pending.values()) {
      batch.push({ taskId: p.taskId, messageId: p.messageId, text: p.text.join(''), reasoning: p.reasoning.join('') });
    }
    pending = new Map();
    apply(batch);
  };

  return {
    push(delta) {
      const existing = pending.get(delta.messageId);
      if (existing) {
        existing.text.push(delta.text);
        existing.reasoning.push(delta.reasoning);
      } else {
        pending.set(delta.messageId, {
          taskId: delta.taskId,
          messageId: delta.messageId,
          text: [delta.text],
          reasoning: [delta.reasoning],
        });
      }
      if (handle === null) {
        handle = scheduler.request(() => {
          handle = null;
          flush();
        });
      }
    },
    flush,
    get pendingCount() {
      return pending.size;
    },
    dispose() {
      if (handle !== null) scheduler.cancel(handle);
      handle = null;
      pending = new Map();
    },
  };
}
