/**
 * A node that fails the user, through the Host's contract: a server speaking the OpenAI API badly on purpose (on
 * loopback) drops the connection mid-reply after a call ran, answers garbage, or starts serving another model. Each
 * time the reply ends with an error naming the node and what happened, the task and everything it did are kept,
 * and no call runs twice, however the task goes on. Its API key goes nowhere but its header; over https the
 * certificate the user saw is the one pinned, and one that changes is refused.
 */
import { spawnSync } from 'node:child_process';
import { X509Certificate } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { createServer, type Server, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer, type Server as HttpsServer } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { COMPILED_TOOL_WORKER } from '../testing/compiledApp.js';
import { settledReply } from '../testing/settledTask.js';
import { createHost, type HostInternals } from './createHost.js';

const work = realpathSync(mkdtempSync(join(tmpdir(), 'hb-node-faults-')));
const reports = join(work, 'Reports');
mkdirSync(reports);
writeFileSync(join(reports, 'draft.txt'), 'the draft');

type Answer = (res: ServerResponse, body: { messages: { role: string; content?: unknown }[] }) => void;

describe('a node that fails mid-task, through the Host', () => {
  let fake: Server;
  let url = '';
  let models = ['botpsy'];
  let answer: Answer = () => {};
  /** The authorization header of every request the server received. */
  const authorizations: (string | undefined)[] = [];
  let host: HostInternals;
  let taskId = '';
  let nodeId = '';

  const sse = (res: ServerResponse, chunk: unknown) => res.write(`data: ${JSON.stringify(chunk)}\n\n`);
  const delta = (d: Record<string, unknown>, finish: string | null = null) => ({
    model: models[0],
    choices: [{ index: 0, delta: d, finish_reason: finish }],
  });
  const done = (res: ServerResponse) => res.end('data: [DONE]\n\n');
  const words = (res: ServerResponse, text: string) => {
    sse(res, delta({ content: text }));
    sse(res, delta({}, 'stop'));
    done(res);
  };

  beforeAll(async () => {
    fake = createServer((req, res) => {
      let text = '';
      authorizations.push(req.headers.authorization);
      req.on('data', (chunk) => (text += chunk));
      req.on('end', () => {
        if (req.url === '/v1/models') {
          res.setHeader('content-type', 'application/json');
          res.end(JSON.stringify({ data: models.map((id) => ({ id, max_model_len: 8192 })) }));
        } else if (req.url === '/props') {
          res.statusCode = 404;
          res.end('{"error":"not found"}');
        } else {
          res.setHeader('content-type', 'text/event-stream');
          answer(res, JSON.parse(text) as Parameters<Answer>[1]);
        }
      });
    });
    await new Promise<void>((resolve) => fake.listen(0, '127.0.0.1', resolve));
    const address = fake.address();
    url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;

    host = await createHost({
      dataDir: join(work, 'data'),
      shell: 'cli',
      toolWorker: COMPILED_TOOL_WORKER,
      loadModelOnStart: false,
      engineConfig: { gpu: false },
      reply: { maxTokens: 32, temperature: 0 },
      remoteEngine: { timeouts: { connectMs: 2000, firstByteMs: 5000, idleMs: 2000 } },
    });
    await host.invoke('policy.grantFolder', { path: reports, untrusted: false });
    // Every prompt the node's calls raise is allowed once, as a user would.
    host.subscribe((event) => {
      if (event.type === 'toolcall.updated' && event.call.state === 'pending' && event.call.gate === 'prompt') {
        void host.call('toolcalls.answer', { id: event.call.id, answer: 'allow-once', reason: null });
      }
    });
    nodeId = (await host.invoke('nodes.add', { url, allowOffline: true, label: 'the flaky node' })).id;
    expect(await host.invoke('nodes.use', { id: nodeId })).toMatchObject({ status: 'ready' });
  });
  afterAll(async () => {
    await host?.dispose();
    await new Promise<void>((resolve) => fake.close(() => resolve()));
  });

  const task = () => host.invoke('tasks.get', { taskId });

  it('a connection dropped after a call ran: the reply says so, the call ran once, the task is kept', async () => {
    answer = (res, body) => {
      // The call's outcome is in the conversation (the task goes on after the prompt, told what the user decided):
      // the node writes its answer.
      if (body.messages.some((m) => m.role === 'tool' || String(m.content).includes('[Homebody] The user decided'))) {
        sse(res, delta({ content: 'Your Reports folder has' }));
        setTimeout(() => res.socket?.destroy(), 20);
        return;
      }
      const args = JSON.stringify({ path: reports });
      sse(res, delta({ tool_calls: [{ index: 0, id: 'c1', function: { name: 'list_folder', arguments: args } }] }));
      sse(res, delta({}, 'tool_calls'));
      done(res);
    };
    const sent = await host.invoke('chat.send', {
      taskId: null,
      text: "what's in my Reports folder?",
      allowRemote: true,
    });
    taskId = sent.taskId;
    const reply = await settledReply(host, taskId);
    expect(reply.state).toBe('failed');
    expect(reply.error).toMatch(/the flaky node .*dropped in the middle of the reply.*nothing is sent again by itself/);
    expect(reply.text).toBe('Your Reports folder has');
    const detail = await task();
    expect(detail.toolCalls).toHaveLength(1);
    expect(detail.toolCalls[0]).toMatchObject({ tool: 'list_folder', state: 'done' });
    expect(JSON.stringify(detail.toolCalls[0]?.result)).toContain('draft.txt');
  });

  it('garbage in place of a reply: a clear error quoting it; the task goes on after, nothing run again', async () => {
    answer = (res) => {
      res.write('data: {"choices": [{"delta": {"content": "ok"}}]}\n\n');
      res.end('<html>502 Bad Gateway</html>\n');
    };
    const sent = await host.invoke('chat.send', { taskId, text: 'and the rest?' });
    const reply = await settledReply(host, sent.taskId);
    expect(reply.state).toBe('failed');
    expect(reply.error).toContain('<html>502 Bad Gateway</html>');

    answer = (res) => words(res, 'It has draft.txt.');
    const again = await host.invoke('chat.send', { taskId, text: 'try again' });
    expect(await settledReply(host, again.taskId)).toMatchObject({ state: 'complete', text: 'It has draft.txt.' });
    expect((await task()).toolCalls).toHaveLength(1);
  });

  it('a node that now serves another model is refused with both names, and the task is kept', async () => {
    models = ['llama-3-8b'];
    answer = (res) => words(res, 'I am another model.');
    const sent = await host.invoke('chat.send', { taskId, text: 'one more thing' });
    const reply = await settledReply(host, sent.taskId);
    expect(reply.state).toBe('failed');
    expect(reply.error).toMatch(/llama-3-8b/);
    expect(reply.error).toMatch(/botpsy/);
    expect(reply.text).not.toContain('I am another model');
    const detail = await task();
    expect(detail.messages.filter((m) => m.role === 'user').map((m) => m.text)).toEqual([
      "what's in my Reports folder?",
      'and the rest?',
      'try again',
      'one more thing',
    ]);
    expect(detail.toolCalls).toHaveLength(1);
  });

  it('an API key goes in a header to its node and nowhere else: not the settings, the ledger, the audit or a reply', async () => {
    models = ['botpsy'];
    await host.invoke('nodes.remove', { id: nodeId });
    const key = 'sk-node-key-7f3a9c';
    authorizations.length = 0;
    const added = await host.invoke('nodes.add', { url, apiKey: key, allowOffline: true, label: 'the keyed node' });
    expect(added.hasApiKey).toBe(true);
    await host.invoke('nodes.use', { id: added.id });
    answer = (res) => words(res, 'Fine.');
    const sent = await host.invoke('chat.send', { taskId: null, text: 'hello', allowRemote: true });
    expect(await settledReply(host, sent.taskId)).toMatchObject({ state: 'complete', text: 'Fine.' });
    expect(authorizations.length).toBeGreaterThan(2);
    expect(authorizations.every((a) => a === `Bearer ${key}`)).toBe(true);

    const everywhere = JSON.stringify([
      host.store.settings.get('remoteNodes'),
      await host.invoke('nodes.list', {}),
      await host.invoke('privacy.ledger', {}),
      await host.invoke('audit.list', {}),
      await host.invoke('tasks.get', { taskId: sent.taskId }),
      await host.invoke('doctor.report', {}),
    ]);
    expect(everywhere).toContain('the keyed node');
    expect(everywhere).not.toContain(key);
  });

  it("the Doctor's report lists a node that never replies as timed out, beside one that does", async () => {
    // Lists its model, then answers nothing else (neither /props nor a reply).
    const silent = createServer((req, res) => {
      if (req.url !== '/v1/models') return;
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify({ data: [{ id: 'botpsy', max_model_len: 8192 }] }));
    });
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const address = silent.address();
    const silentUrl = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
    try {
      await host.invoke('nodes.add', { url: silentUrl, allowOffline: true, label: 'the silent node' });
      answer = (res) => words(res, 'Fine.');
      const { nodes } = await host.invoke('doctor.report', {});
      expect(nodes?.map((n) => [n.label, n.error?.code ?? 'ok'])).toEqual([
        ['the keyed node', 'ok'],
        ['the silent node', 'REMOTE_TIMEOUT'],
      ]);
      expect(nodes?.[1]?.error?.message).toContain('the silent node');
    } finally {
      silent.closeAllConnections();
      await new Promise<void>((resolve) => silent.close(() => resolve()));
    }
  });
});

/** A self-signed certificate as a home server has one: its PEM key and certificate, and its SHA-256 fingerprint. */
function selfSigned(name: string): { key: string; cert: string; fingerprint: string } {
  const dir = mkdtempSync(join(tmpdir(), 'hb-node-cert-'));
  const made = spawnSync('openssl', [
    ...['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes'],
    ...['-subj', `/CN=${name}`, '-days', '2', '-keyout', join(dir, 'key.pem'), '-out', join(dir, 'cert.pem')],
  ]);
  expect(made.status, made.stderr?.toString()).toBe(0);
  const cert = readFileSync(join(dir, 'cert.pem'), 'utf8');
  return {
    key: readFileSync(join(dir, 'key.pem'), 'utf8'),
    cert,
    fingerprint: new X509Certificate(cert).fingerprint256,
  };
}

describe('a node over https, through the Host: the certificate the user saw is the one pinned', () => {
  let server: HttpsServer;
  let url = '';
  let host: HostInternals;
  const first = selfSigned('study-computer');

  beforeAll(async () => {
    server = createHttpsServer({ key: first.key, cert: first.cert }, (req, res) => {
      res.setHeader('content-type', 'application/json');
      if (req.url === '/v1/models') res.end(JSON.stringify({ data: [{ id: 'botpsy', max_model_len: 8192 }] }));
      else {
        res.statusCode = 404;
        res.end('{"error":"not found"}');
      }
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const address = server.address();
    url = `https://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
    host = await createHost({
      dataDir: join(work, 'data-https'),
      shell: 'cli',
      toolWorker: COMPILED_TOOL_WORKER,
      loadModelOnStart: false,
      engineConfig: { gpu: false },
    });
  });
  afterAll(async () => {
    await host?.dispose();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  it('shows the fingerprint, refuses another than the one shown, pins it, and refuses a server that changed it', async () => {
    const probe = await host.invoke('nodes.probe', { url, allowOffline: true });
    expect(probe).toMatchObject({ url, fingerprint: first.fingerprint, plainHttp: false, model: 'botpsy' });

    await expect(host.invoke('nodes.add', { url, allowOffline: true })).rejects.toMatchObject({
      code: 'INVALID_REQUEST',
      message: expect.stringMatching(/Check the server first/),
    });
    const other = selfSigned('someone-else');
    await expect(
      host.invoke('nodes.add', { url, fingerprint: other.fingerprint, allowOffline: true }),
    ).rejects.toMatchObject({ code: 'REMOTE_CERTIFICATE_CHANGED' });
    expect((await host.invoke('nodes.list', {})).nodes).toEqual([]);
    expect((await host.invoke('privacy.network', {})).rules).toEqual([]);

    const node = await host.invoke('nodes.add', { url, fingerprint: first.fingerprint, allowOffline: true });
    expect(node.fingerprint).toBe(first.fingerprint);
    expect(await host.invoke('nodes.use', { id: node.id })).toMatchObject({
      status: 'ready',
      info: { remote: { fingerprint: first.fingerprint } },
    });

    // The server now shows another certificate (replaced, or someone in between): refused, before a byte is sent.
    server.setSecureContext({ key: other.key, cert: other.cert });
    await expect(host.invoke('nodes.use', { id: node.id })).rejects.toMatchObject({
      code: 'REMOTE_CERTIFICATE_CHANGED',
    });
  });
});
