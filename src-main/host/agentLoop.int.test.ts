import { existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Message, ToolCall } from '../../src-shared/contract/index.js';
import { createHost, type HostInternals } from './createHost.js';
import { scriptedEngines } from '../testing/scriptedEngine.js';
import { COMPILED_TOOL_WORKER } from '../testing/compiledApp.js';
import { settledReply } from '../testing/settledTask.js';

// The same loop on a model with Qwen3's template (JSON calls) and one with Qwen3.5's (one element per argument,
// a thought opened at every reply): each is spoken to, and scripted, in its own dialect.
describe.each([
  ['Qwen3', 'tinyModelPath'],
  ['Qwen3.5', 'tinyQwen35ModelPath'],
] as const)('the agent loop on a generated model with the %s template', (_template, model) => {
  // Real inference on the generated model, real grammar-constrained function calling, the real sandbox worker:
  // the model is pushed to make the scripted calls; everything after that is the app's own path.
  const work = realpathSync(mkdtempSync(join(tmpdir(), 'hb-agent-')));
  const reports = join(work, 'Reports');
  const archive = join(work, 'Archive');
  mkdirSync(reports);
  mkdirSync(archive);
  writeFileSync(join(reports, 'draft.txt'), 'the draft');
  writeFileSync(join(reports, 'tmp.log'), 'log lines');
  writeFileSync(join(reports, 'invoice-2023.pdf'), 'old invoice');

  const json = (value: unknown) => JSON.stringify(value);
  const PROMPTS = {
    list: "what's in my Reports folder?",
    rename: 'rename draft.txt to final.txt',
    move: 'move the old invoices to Archive',
    delete: 'delete tmp.log for good',
  };
  const scripts = {
    [PROMPTS.list]: [{ name: 'list_folder', params: `{"path": ${json(reports)}, "limit": 50}` }],
    [PROMPTS.rename]: [
      {
        name: 'move',
        params: `{"from": ${json(join(reports, 'draft.txt'))}, "to": ${json(join(reports, 'final.txt'))}}`,
      },
    ],
    [PROMPTS.move]: [
      {
        name: 'move',
        params: `{"from": ${json(join(reports, 'invoice-2023.pdf'))}, "to": ${json(join(archive, 'invoice-2023.pdf'))}}`,
      },
    ],
    [PROMPTS.delete]: [
      { name: 'delete_permanently', params: `{"path": ${json(join(reports, 'tmp.log'))}, "recursive": false}` },
    ],
  };

  let host: HostInternals;
  beforeAll(async () => {
    host = await createHost({
      toolWorker: COMPILED_TOOL_WORKER,
      dataDir: join(work, 'data'),
      shell: 'cli',
      loadModelOnStart: false,
      engineConfig: { gpu: false, contextSize: 8192 },
      reply: { maxTokens: 64, temperature: 0 },
      createEngine: scriptedEngines(scripts),
    });
    await host.invoke('policy.grantFolder', { path: reports, untrusted: false });
    await host.invoke('policy.grantFolder', { path: archive, untrusted: false });
    expect((await host.invoke('model.open', { path: inject(model) })).status).toBe('ready');
  });
  afterAll(() => host.dispose());

  /** Sends a prompt, answering each permission prompt with `answer`, and returns the finished reply and its calls. */
  async function ask(
    prompt: string,
    answer?: 'allow-once' | 'allow-task' | 'deny',
  ): Promise<{ reply: Message; calls: ToolCall[] }> {
    const off = host.subscribe((event) => {
      if (
        event.type === 'toolcall.updated' &&
        event.call.state === 'pending' &&
        event.call.gate === 'prompt' &&
        answer
      ) {
        void host.call('toolcalls.answer', { id: event.call.id, answer, reason: answer === 'deny' ? 'not now' : null });
      }
    });
    try {
      const sent = await host.invoke('chat.send', { taskId: null, text: prompt });
      const reply = await settledReply(host, sent.taskId, { promptsAnswered: answer !== undefined });
      const detail = await host.invoke('tasks.get', { taskId: sent.taskId });
      return { reply, calls: detail.toolCalls };
    } finally {
      off();
    }
  }

  describe('on it', () => {
    it('asks before reading a folder, then reads it in the sandbox', async () => {
      const { reply, calls } = await ask(PROMPTS.list, 'allow-once');
      expect(reply.state).toBe('complete');
      expect(calls).toHaveLength(1);
      expect(calls[0]).toMatchObject({
        tool: 'list_folder',
        gate: 'prompt',
        state: 'done',
        decision: 'allow-once',
        decidedBy: 'user',
      });
      expect(json(calls[0]?.result)).toContain('draft.txt');
    });

    it('renames a file after the user allows it, and undoes it from the timeline', async () => {
      const { calls } = await ask(PROMPTS.rename, 'allow-once');
      expect(calls[0]).toMatchObject({ tool: 'move', state: 'done', undo: 'available' });
      expect(readFileSync(join(reports, 'final.txt'), 'utf8')).toBe('the draft');
      await host.invoke('toolcalls.undo', { id: calls[0]!.id });
      expect(readFileSync(join(reports, 'draft.txt'), 'utf8')).toBe('the draft');
      expect(existsSync(join(reports, 'final.txt'))).toBe(false);
    });

    it('does nothing when the user denies, and the task records why', async () => {
      const { calls } = await ask(PROMPTS.move, 'deny');
      expect(calls[0]).toMatchObject({ tool: 'move', state: 'denied', reason: 'not now' });
      expect(existsSync(join(reports, 'invoice-2023.pdf'))).toBe(true);
    });

    it('never runs a permanent delete from the chat: it waits in the queue until approved', async () => {
      const { reply, calls } = await ask(PROMPTS.delete);
      expect(reply.state).toBe('complete');
      expect(calls[0]).toMatchObject({ tool: 'delete_permanently', gate: 'queue', state: 'pending' });
      expect(existsSync(join(reports, 'tmp.log'))).toBe(true);
      expect((await host.invoke('approvals.list', {})).calls.map((c) => c.id)).toContain(calls[0]!.id);
      const approved = await host.invoke('approvals.approve', { ids: [calls[0]!.id] });
      expect(approved.calls[0]?.state).toBe('done');
      expect(existsSync(join(reports, 'tmp.log'))).toBe(false);
    });

    it('keeps every proposal, decision and execution in the audit log', async () => {
      const { events } = await host.invoke('audit.list', {});
      const kinds = new Set(events.map((e) => e.kind));
      for (const kind of ['proposed', 'decided', 'started', 'finished', 'queued', 'undone', 'policy-changed'])
        expect(kinds).toContain(kind);
    });
  });
});
