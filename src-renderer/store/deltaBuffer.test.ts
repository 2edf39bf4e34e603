import { describe, expect, it } from 'vitest';
import { createDeltaBuffer, type FrameScheduler } from './deltaBuffer.js';
import type { MessageDelta } from './types.js';

function fakeFrames() {
  const callbacks = new Map<number, () => void>();
  let next = 1;
  const scheduler: FrameScheduler = {
    request(callback) {
      const handle = next++;
      callbacks.set(handle, callback);
      return handle;
    },
    cancel(handle) {
      callbacks.delete(handle);
    },
  };
  return {
    scheduler,
    get scheduled() {
      return callbacks.size;
    },
    runFrame() {
      const due = [...callbacks.values()];
      callbacks.clear();
      for (const cb of due) cb();
    },
  };
}

const delta = (messageId: string, text: string, reasoning = ''): MessageDelta => ({
  taskId: 't1',
  messageId,
  text,
  reasoning,
});

describe('createDeltaBuffer', () => {
  it('applies nothing until the frame, then one merged batch per frame', () => {
    const frames = fakeFrames();
    const batches: (readonly MessageDelta[])[] = [];
    const buffer = createDeltaBuffer((b) => batches.push(b), frames.scheduler);

    buffer.push(delta('m1', 'Hel'));
    buffer.push(delta('m1', 'lo', 'hmm'));
    buffer.push(delta('m1', ' world', ' ok'));
    expect(batches).toHaveLength(0);
    expect(frames.scheduled).toBe(1);
    expect(buffer.pendingCount).toBe(1);

    frames.runFrame();
    expect(batches).toEqual([[delta('m1', 'Hello world', 'hmm ok')]]);
    expect(buffer.pendingCount).toBe(0);

    frames.runFrame();
    expect(batches).toHaveLength(1);
  });

  it('keeps deltas of different messages apart, in arrival order', () => {
    const frames = fakeFrames();
    const batches: (readonly MessageDelta[])[] = [];
    const buffer = createDeltaBuffer((b) => batches.push(b), frames.scheduler);
    buffer.push(delta('a', '1'));
    buffer.push(delta('b', 'x'));
    buffer.push(delta('a', '2'));
    frames.runFrame();
    expect(batches[0]).toEqual([delta('a', '12'), delta('b', 'x')]);
  });

  it('schedules a new frame after each flush', () => {
    const frames = fakeFrames();
    const batches: (readonly MessageDelta[])[] = [];
    const buffer = createDeltaBuffer((b) => batches.push(b), frames.scheduler);
    buffer.push(delta('m1', 'a'));
    frames.runFrame();
    buffer.push(delta('m1', 'b'));
    expect(frames.scheduled).toBe(1);
    frames.runFrame();
    expect(batches.map((b) => b[0]?.text)).toEqual(['a', 'b']);
  });

  it('flush() applies at once and cancels the pending frame', () => {
    const frames = fakeFrames();
    const batches: (readonly MessageDelta[])[] = [];
    const buffer = createDeltaBuffer((b) => batches.push(b), frames.scheduler);
    buffer.push(delta('m1', 'a'));
    buffer.flush();
    expect(batches).toHaveLength(1);
    expect(frames.scheduled).toBe(0);
    buffer.flush();
    expect(batches).toHaveLength(1);
  });

  it('dispose() drops what is pending', () => {
    const frames = fakeFrames();
    const batches: (readonly MessageDelta[])[] = [];
    const buffer = createDeltaBuffer((b) => batches.push(b), frames.scheduler);
    buffer.push(delta('m1', 'a'));
    buffer.dispose();
    frames.runFrame();
    buffer.flush();
    expect(batches).toHaveLength(0);
  });
});
