import { mkdtempSync, realpathSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { MAX_MESSAGE_CHARS, type Message } from '../../src-shared/contract/index.js';
import { contextNoteFor } from '../agent/chatRunner.js';
import { createHost, type HostInternals } from './createHost.js';

// The whole path (Host, chat runner, store, real engine on the generated model) with a 512-token context.
const work = realpathSync(mkdtempSync(join(tmpdir(), 'hb-context-')));
let host: HostInternals;
beforeAll(async () => {
  host = await createHost({
    dataDir: join(work, 'data'),
    shell: 'cli',
    loadModelOnStart: false,
    engineConfig: { gpu: false, contextSize: 512 },
    reply: { maxTokens: 8, temperature: 0 },
  });
  expect((await host.invoke('model.open', { path: inject('tinyModelPath') })).status).toBe('ready');
});
afterAll(() => host.dispose());

async function send(taskId: string | null, text: string): Promise<Message> {
  const sent = await host.invoke('chat.send', { taskId, text });
  return (await host.chat.whenDone(sent.taskId))!;
}

const DETAIL = 'We also need to think about the beds, the paths, the pond, the shed and the hedge along the fence. ';

describe('a long task with a small context', () => {
  it('keeps replying past the context, and says on each reply that left earlier messages out', async () => {
    const first = await send(null, `Plan my garden. ${DETAIL}`);
    expect(first.state).toBe('truncated');
    const taskId = first.taskId;
    const replies: Message[] = [first];
    for (let i = 1; i < 7; i++) replies.push(await send(taskId, `Step ${i}. ${DETAIL.repeat(2)}`));

    for (const reply of replies) expect(reply.state).toBe('truncated'); // the 8-token cap, not a failure
    expect(replies[0]?.contextNote ?? null).toBeNull();
    const noted = replies.filter((r) => r.contextNote);
    expect(noted.length).toBeGreaterThan(0);
    expect(noted.at(-1)?.contextNote).toMatch(
      /^Earlier messages were left out to fit the model's context \(\d+ left out\)\.$/,
    );
    // The note is kept with the reply, so the chat still shows it after a restart.
    const detail = await host.invoke('tasks.get', { taskId });
    const last = detail.messages.at(-1)!;
    expect(last.contextNote).toBe(replies.at(-1)?.contextNote);
    expect(contextNoteFor(3)).toContain('(3 left out)');
  });

  it('refuses a single message too long for the context before saving anything, saying what to do', async () => {
    const before = (await host.invoke('tasks.list', {})).tasks.length;
    const refused = await host.call('chat.send', { taskId: null, text: DETAIL.repeat(20) });
    expect(refused).toMatchObject({ ok: false, error: { code: 'CONTEXT_OVERFLOW' } });
    const message = (refused as { error: { message: string } }).error.message;
    expect(message).toMatch(/^This message is too long to send: it is [\d,]+ tokens long, .*context size/);
    expect(message).toMatch(/Shorten it or split it .*; nothing was saved\.$/);
    expect((await host.invoke('tasks.list', {})).tasks).toHaveLength(before);
  });

  it('refuses a message over the character limit in the same words, whatever the model', async () => {
    const refused = await host.call('chat.send', { taskId: null, text: 'x'.repeat(MAX_MESSAGE_CHARS + 1) });
    expect(refused).toMatchObject({ ok: false, error: { code: 'INVALID_REQUEST' } });
    expect((refused as { error: { message: string } }).error.message).toContain(
      'This message is too long to send: it has more than 100,000 characters.',
    );
  });
});
