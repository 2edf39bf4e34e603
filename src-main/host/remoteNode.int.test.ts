/**
 * A model on another computer through the Host's contract, against a real llama-server on loopback: asked, added
 * and used from the Models page's methods; a task's consent; a call the node proposes decided by the broker, run in
 * the local sandbox and its result sent back; every request in the ledger; offline mode refusing it with the reason;
 * the node remembered as the last model across a restart; and removed with what it brought.
 */
import { mkdirSync, mkdtempSync, realpathSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RemoteNode } from '../../src-shared/contract/index.js';
import { gbnfLiteral } from '../llm/dialect/schemaGrammar.js';
import type { RemoteStep } from '../llm/remote/remoteEngine.js';
import { COMPILED_TOOL_WORKER } from '../testing/compiledApp.js';
import { llamaBinaries, startLlamaServer, startRpcServer, type RunningServer } from '../testing/llamaServerProcess.js';
import { settledReply } from '../testing/settledTask.js';
import { ensureTestModel } from '../testing/testModels.js';
import { createHost, type HostInternals } from './createHost.js';

const work = realpathSync(mkdtempSync(join(tmpdir(), 'hb-node-')));
const reports = join(work, 'Reports');
mkdirSync(reports);
writeFileSync(join(reports, 'draft.txt'), 'the draft');
const dataDir = join(work, 'data');

/** How many of the next replies' first steps the node is made to open a list_folder call with. */
let callsToForce = 0;
/** A random-weight model calls no tool by itself: its first step is made `list_folder(Reports)` by the server's grammar. */
function steering(step: RemoteStep): string | undefined {
  if (step.mode === 'text') {
    if (callsToForce === 0 || step.conversation.some((m) => m.role === 'tool')) return undefined;
    callsToForce -= 1;
    return `root ::= ${gbnfLiteral('<tool_call>')}`;
  }
  const body = step.dialect.callBody({
    type: 'function',
    function: { name: 'list_folder', arguments: { path: reports } },
  });
  return `root ::= ${gbnfLiteral(body)}`;
}

async function newHost(loadModelOnStart = false): Promise<HostInternals> {
  return createHost({
    dataDir,
    shell: 'cli',
    toolWorker: COMPILED_TOOL_WORKER,
    loadModelOnStart,
    engineConfig: { gpu: false },
    reply: { maxTokens: 12, temperature: 0 },
    remoteEngine: { steering },
  });
}

describe('a model on another computer, through the Host', () => {
  let server: RunningServer;
  let host: HostInternals;
  let node: RemoteNode;

  beforeAll(async () => {
    // Every tool in the dialect's prompt takes about 6,700 tokens.
    const model = ensureTestModel('tiny', 'q8_0');
    server = await startLlamaServer(llamaBinaries().server, { model, contextSize: 8192 });
    host = await newHost();
    await host.invoke('policy.grantFolder', { path: reports, untrusted: false });
  }, 600_000);
  afterAll(async () => {
    await host?.dispose();
    await server?.stop();
  });

  /**
   * "What's in my Reports folder?" as a new task on the node in use, agreed to: its first step made a list_folder
   * call, asked and allowed once, run here; answers when the task has settled, after checking the call ran once.
   */
  async function askedReportsTask() {
    const off = host.subscribe((event) => {
      if (event.type === 'toolcall.updated' && event.call.state === 'pending' && event.call.gate === 'prompt') {
        void host.call('toolcalls.answer', { id: event.call.id, answer: 'allow-once', reason: null });
      }
    });
    callsToForce = 1;
    try {
      const sent = await host.invoke('chat.send', {
        taskId: null,
        text: "what's in my Reports folder?",
        allowRemote: true,
      });
      const reply = await settledReply(host, sent.taskId);
      const detail = await host.invoke('tasks.get', { taskId: sent.taskId });
      expect(detail.toolCalls, JSON.stringify(detail.messages)).toHaveLength(1);
      expect(detail.toolCalls[0]).toMatchObject({ tool: 'list_folder', state: 'done', decision: 'allow-once' });
      expect(JSON.stringify(detail.toolCalls[0]?.result)).toContain('draft.txt');
      return { sent, reply, detail };
    } finally {
      off();
    }
  }

  const remoteEvents = async () =>
    (await host.invoke('privacy.ledger', {})).events.filter((e) => e.feature === 'remote-model').reverse();

  it('offline, a new user is told why the server cannot be asked; allowed for this host, it is asked and added', async () => {
    await expect(host.invoke('nodes.probe', { url: `${server.url}/v1/` })).rejects.toMatchObject({
      code: 'NETWORK_BLOCKED',
      message: expect.stringMatching(/Offline mode is on.*127\.0\.0\.1.*a model on another computer/),
    });
    expect(await remoteEvents()).toMatchObject([{ allowed: false, host: '127.0.0.1', via: 'guard' }]);

    await expect(host.invoke('nodes.probe', { url: 'ftp://127.0.0.1/' })).rejects.toMatchObject({
      code: 'INVALID_REQUEST',
    });
    const probe = await host.invoke('nodes.probe', { url: `${server.url}/v1/`, allowOffline: true });
    expect(probe).toMatchObject({
      url: server.url,
      contextSize: 8192,
      protocol: 'dialect',
      fingerprint: null,
      plainHttp: true,
    });
    expect(probe.model).toMatch(/tiny/);
    // Nothing is saved by a probe, the permission it was let through with included.
    expect((await host.invoke('nodes.list', {})).nodes).toEqual([]);
    expect((await host.invoke('privacy.network', {})).rules).toEqual([]);

    await expect(
      host.invoke('nodes.add', { url: server.url, fingerprint: `${'AB:'.repeat(31)}AB` }),
    ).rejects.toMatchObject({ code: 'INVALID_REQUEST', message: expect.stringMatching(/plain http/) });
    // An add that fails leaves no permission behind either.
    await expect(
      host.invoke('nodes.add', { url: server.url, model: 'another-model', allowOffline: true }),
    ).rejects.toMatchObject({ code: 'REMOTE_WRONG_MODEL' });
    expect((await host.invoke('privacy.network', {})).rules).toEqual([]);
    node = await host.invoke('nodes.add', { url: server.url, allowOffline: true, label: 'the test node' });
    expect((await host.invoke('privacy.network', {})).rules).toEqual([{ feature: 'remote-model', host: '127.0.0.1' }]);
    expect(node).toMatchObject({
      url: server.url,
      model: probe.model,
      label: 'the test node',
      allowOffline: true,
      hasApiKey: false,
      active: false,
    });
    await expect(host.invoke('nodes.add', { url: `${server.url}/` })).rejects.toMatchObject({
      code: 'MODEL_ALREADY_PRESENT',
    });
  });

  it('a task on the node: consent first, the call it proposes asked and run here, the reply marked, the ledger complete', async () => {
    const state = await host.invoke('nodes.use', { id: node.id });
    expect(state).toMatchObject({ status: 'ready', info: { path: `remote:${node.id}`, remote: { url: server.url } } });
    expect((await host.invoke('nodes.list', {})).nodes[0]?.active).toBe(true);

    // Without the user's agreement nothing is sent or saved.
    const before = (await remoteEvents()).length;
    await expect(
      host.invoke('chat.send', { taskId: null, text: "what's in my Reports folder?" }),
    ).rejects.toMatchObject({
      code: 'REMOTE_CONSENT_REQUIRED',
      message: expect.stringContaining(`the test node (${server.url})`),
    });
    expect((await host.invoke('tasks.list', {})).tasks).toEqual([]);
    expect(await remoteEvents()).toHaveLength(before);

    const { sent, reply, detail } = await askedReportsTask();
    // Every reply of the task came from the node, and says so; the user's message does not.
    const replies = detail.messages.filter((m) => m.role === 'assistant');
    expect(replies.length).toBeGreaterThanOrEqual(1);
    for (const m of replies) expect(m.remote).toEqual({ url: server.url, model: node.model, label: 'the test node' });
    expect(detail.messages.find((m) => m.role === 'user')).not.toHaveProperty('remote');
    expect(reply.state).toMatch(/complete|truncated/);
    const audit = await host.invoke('audit.list', { taskId: sent.taskId });
    expect(audit.events.filter((e) => e.kind === 'remote-consent')).toHaveLength(1);

    // The ledger: every request to the node, allowed, with its bytes both ways and what it carried.
    const requests = (await remoteEvents()).slice(before);
    expect(requests.length).toBeGreaterThanOrEqual(2);
    for (const e of requests) {
      expect(e).toMatchObject({ allowed: true, host: '127.0.0.1', source: 'the test node' });
      expect(e.sent).toBeGreaterThan(0);
      expect(e.bytes).toBeGreaterThan(0);
    }
    expect(
      requests.map((e) => e.carried),
      JSON.stringify(requests),
    ).toContain('the conversation, 1 tool result');

    // The same task again: the agreement holds for it.
    const again = await host.invoke('chat.send', { taskId: sent.taskId, text: 'thanks' });
    expect((await settledReply(host, again.taskId)).remote?.url).toBe(server.url);
  });

  it('offline mode without the rule refuses the reply with the reason, and keeps the task', async () => {
    const task = (await host.invoke('tasks.list', {})).tasks[0]!;
    const calls = (await host.invoke('tasks.get', { taskId: task.id })).toolCalls.length;
    expect(await host.invoke('nodes.setAllowOffline', { id: node.id, allow: false })).toMatchObject({
      allowOffline: false,
    });
    expect((await host.invoke('privacy.network', {})).rules).toEqual([]);
    const sent = await host.invoke('chat.send', { taskId: task.id, text: 'and now?' });
    const reply = await settledReply(host, sent.taskId);
    expect(reply.state).toBe('failed');
    expect(reply.error).toMatch(/Offline mode is on/);
    const detail = await host.invoke('tasks.get', { taskId: task.id });
    expect(detail.messages.filter((m) => m.role === 'user').map((m) => m.text)).toEqual([
      "what's in my Reports folder?",
      'thanks',
      'and now?',
    ]);
    expect(detail.toolCalls).toHaveLength(calls); // nothing run again
    // Refused before a byte was sent, and the ledger says what would have gone.
    const refused = await remoteEvents();
    expect(refused.at(-1), JSON.stringify(refused.at(-1))).toMatchObject({
      allowed: false,
      bytes: null,
      carried: 'the conversation, 1 tool result',
    });
    expect(refused.at(-1)?.sent ?? 0).toBe(0);
    await host.invoke('nodes.setAllowOffline', { id: node.id, allow: true });
  });

  it('the evaluation compares a model on this computer with the node in one run', async () => {
    const local = ensureTestModel('tiny', 'q8_0');
    const remote = `remote:${node.id}`;
    await expect(host.invoke('eval.start', { models: ['remote:nope'], suites: ['default'] })).rejects.toMatchObject({
      code: 'MODEL_NOT_FOUND',
    });
    const before = (await remoteEvents()).length;
    const { runId, total } = await host.invoke('eval.start', {
      models: [local, remote],
      suites: ['default'],
      limit: 1,
    });
    expect(total).toBe(2);
    for (;;) {
      const run = await host.invoke('eval.run', { runId });
      if (run.status !== 'running') {
        expect(run.status).toBe('done');
        expect(run.results.map((r) => [r.model, r.label])).toEqual([
          [local, basename(local)],
          [remote, `${node.model} on the test node`],
        ]);
        for (const result of run.results) {
          expect(result.error).toBeUndefined();
          expect(result.cases).toHaveLength(1);
        }
        break;
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    // The node's part went through the guard and is in the ledger like any other request.
    expect((await remoteEvents()).slice(before).filter((e) => e.url.endsWith('/completion')).length).toBeGreaterThan(0);
  });

  it("the same task with the node's model spread over two ggml-rpc-server workers", async () => {
    const binaries = llamaBinaries();
    const workers = [await startRpcServer(binaries.rpc), await startRpcServer(binaries.rpc)];
    const spread = await startLlamaServer(binaries.server, {
      model: ensureTestModel('tiny', 'q8_0'),
      contextSize: 8192,
      rpc: workers.map((w) => w.url),
    });
    try {
      const rpcNode = await host.invoke('nodes.add', { url: spread.url, allowOffline: true, label: 'the RPC node' });
      expect(await host.invoke('nodes.use', { id: rpcNode.id })).toMatchObject({ status: 'ready' });
      const { reply } = await askedReportsTask();
      expect(reply.remote).toEqual({ url: spread.url, model: rpcNode.model, label: 'the RPC node' });
      // llama-server reached both workers for the model's layers.
      for (const worker of workers) expect(worker.log()).toContain('Accepted client connection');

      // Removing it keeps the rule the first node on the same host still needs.
      await host.invoke('nodes.remove', { id: rpcNode.id });
      expect((await host.invoke('privacy.network', {})).rules).toEqual([
        { feature: 'remote-model', host: '127.0.0.1' },
      ]);
      expect(await host.invoke('nodes.use', { id: node.id })).toMatchObject({ status: 'ready' });
    } finally {
      await spread.stop();
      for (const worker of workers) await worker.stop();
    }
  }, 300_000);

  it('is the model a restart opens again, and goes with its rule when removed', async () => {
    await host.dispose();
    host = await newHost(true);
    const ready = await new Promise((resolve) => {
      const check = () => host.engine.state.status !== 'loading' && host.engine.state.status !== 'none';
      if (check()) resolve(host.engine.state);
      const off = host.engine.onStateChange(() => {
        if (!check()) return;
        off();
        resolve(host.engine.state);
      });
    });
    expect(ready, JSON.stringify(ready)).toMatchObject({ status: 'ready', info: { path: `remote:${node.id}` } });

    const removed = await host.invoke('nodes.remove', { id: node.id });
    expect(removed.message).toMatch(/Removed the test node/);
    expect(host.engine.state).toEqual({ status: 'none' });
    expect((await host.invoke('nodes.list', {})).nodes).toEqual([]);
    expect((await host.invoke('privacy.network', {})).rules).toEqual([]);
    await expect(host.invoke('nodes.use', { id: node.id })).rejects.toMatchObject({ code: 'MODEL_NOT_FOUND' });
    await expect(host.invoke('model.openLast', {})).rejects.toMatchObject({ code: 'NO_MODEL' });
  });
});
