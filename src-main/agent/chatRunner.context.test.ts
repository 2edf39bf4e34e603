import { describe, expect, it } from 'vitest';
import { contextNoteFor } from './chatRunner.js';
import { OPTIONS, setupRunner } from '../testing/chatRunnerFixture.js';

describe('ChatRunner and the context', () => {
  it('says on the reply, and keeps, that earlier messages were left out to fit the context', async () => {
    const { store, events, runner } = setupRunner({ droppedTurns: 6 });
    const final = await runner.send(null, 'go on', OPTIONS).done;
    expect(final.contextNote).toBe(contextNoteFor(6));
    expect(store.messages.get(final.id)?.contextNote).toBe(contextNoteFor(6));
    const finished = events.find((e) => e.type === 'message.finished');
    expect(finished?.type === 'message.finished' && finished.message.contextNote).toBe(contextNoteFor(6));
  });

  it('adds no note when nothing was left out', async () => {
    const { runner } = setupRunner();
    const final = await runner.send(null, 'hello', OPTIONS).done;
    expect(final.contextNote ?? null).toBeNull();
  });
});
