import { spawnSync } from 'node:child_process';
import { X509Certificate } from 'node:crypto';
import { mkdtempSync, readFileSync } from 'node:fs';
import { createServer, type Server, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer, type Server as HttpsServer } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EgressEvent, ModelState } from '../../../src-shared/contract/index.js';
import { EgressGuard } from '../../privacy/egressGuard.js';
import { MemoryEgressLedger } from '../../privacy/egressLedger.js';
import {
  llamaBinaries,
  startLlamaServer,
  startRpcServer,
  type RunningServer,
} from '../../testing/llamaServerProcess.js';
import { ensureTestModel } from '../../testing/testModels.js';
import { chatTemplateText } from '../chatTemplates/chatTemplates.js';
import { gbnfLiteral } from '../dialect/schemaGrammar.js';
import type { EngineTool, GenerateOptions } from '../engineTypes.js';
import { WrittenNumber } from '../writtenJson.js';
import { RemoteEngine, type RemoteEngineOptions, type RemoteStep } from './remoteEngine.js';

const ADD: EngineTool = {
  name: 'add',
  description: 'Adds two numbers.',
  parameters: {
    type: 'object',
    properties: { a: { type: 'integer' }, b: { type: 'integer' } },
    required: ['a', 'b'],
  },
};

/** A guard that lets the loopback node through (a rule names it), and its ledger. */
function allowedGuard(offline = true) {
  const ledger = new MemoryEgressLedger();
  const guard = new EgressGuard({
    sink: ledger,
    bytesIntervalMs: 0,
    settings: { offline, rules: offline ? [{ feature: 'remote-model', host: '127.0.0.1' }] : [] },
  });
  const remote = (): EgressEvent[] => ledger.list().filter((e) => e.feature === 'remote-model');
  return { guard, ledger, remote };
}

function engineFor(url: string, guard: EgressGuard, extra: Partial<RemoteEngineOptions> = {}): RemoteEngine {
  return new RemoteEngine({
    node: { url, label: 'the test node' },
    gate: (target, carried) => guard.check(target, 'remote-model', 'model on the test node', carried),
    systemPrompt: 'You are a test.',
    ...extra,
  });
}

/**
 * Makes the node's first free-text step open a call and write `add(2, 3)`, through llama-server's own grammar
 * sampling; every later step is the model's own. A random-weight model never calls a tool by itself.
 */
function forceOneCall(): (step: RemoteStep) => string | undefined {
  let forced = 0;
  return (step) => {
    if (step.mode === 'text') return forced++ === 0 ? `root ::= ${gbnfLiteral('<tool_call>')}` : undefined;
    const args = { a: new WrittenNumber('2'), b: new WrittenNumber('3') };
    const body = step.dialect.callBody({ type: 'function', function: { name: 'add', arguments: args } });
    return `root ::= ${gbnfLiteral(body)}`;
  };
}

function generateOptions(extra: Partial<GenerateOptions> = {}): GenerateOptions & { streamed: string[] } {
  const streamed: string[] = [];
  return {
    streamed,
    history: [],
    prompt: 'What is 2 + 3?',
    maxTokens: 8,
    temperature: 0,
    signal: new AbortController().signal,
    onText: (text) => streamed.push(text),
    onReasoning: (text) => streamed.push(text),
    ...extra,
  };
}

const ready = (state: ModelState) => (state.status === 'ready' ? state.info : undefined);

describe('the remote engine against llama-server on loopback', () => {
  let server: RunningServer;
  let binaries: { server: string; rpc: string };
  const model = ensureTestModel('tiny', 'q8_0');

  beforeAll(async () => {
    binaries = llamaBinaries();
    server = await startLlamaServer(binaries.server, { model, contextSize: 4096 });
  }, 600_000);
  afterAll(async () => server?.stop());

  it('reads the model, its context length and its dialect from the server', async () => {
    const { guard, remote } = allowedGuard();
    const engine = engineFor(server.url, guard);
    const info = ready(await engine.load());
    expect(info, JSON.stringify(engine.state)).toBeDefined();
    expect(info!.contextSize).toBe(4096);
    expect(info!.remote).toMatchObject({ url: server.url, protocol: 'dialect' });
    expect(info!.remote!.model).toMatch(/tiny/);
    expect(remote().map((e) => [e.url, e.allowed, e.carried])).toEqual([
      [`${server.url}/v1/models`, true, 'a check'],
      [`${server.url}/props`, true, 'a check'],
    ]);
    await engine.dispose();
  });

  it('streams a reply with its token counts, and the ledger has the request with its bytes both ways', async () => {
    const { guard, remote } = allowedGuard();
    const engine = engineFor(server.url, guard);
    await engine.load();
    const options = generateOptions();
    const result = await engine.generate(options);
    expect(result.stats.completionTokens).toBeGreaterThan(0);
    expect(result.stats.completionTokens).toBeLessThanOrEqual(8);
    expect(result.stats.promptTokens).toBeGreaterThan(10);
    expect(result.text + result.reasoning).toBe(options.streamed.join(''));
    const completion = remote().find((e) => e.url.endsWith('/completion'))!;
    expect(completion).toMatchObject({ allowed: true, carried: 'the conversation' });
    expect(completion.sent).toBeGreaterThan(100); // the rendered prompt
    expect(completion.bytes).toBeGreaterThan(0);
    await engine.dispose();
  });

  it('stops when the user stops, keeping what arrived', async () => {
    const { guard } = allowedGuard();
    const engine = engineFor(server.url, guard);
    await engine.load();
    const controller = new AbortController();
    const options = generateOptions({
      maxTokens: 400,
      signal: controller.signal,
      onText: () => controller.abort(),
      onReasoning: () => controller.abort(),
    });
    const result = await engine.generate(options);
    expect(result.stopReason).toBe('aborted');
    expect(result.stats.completionTokens).toBeLessThan(400);
    await engine.dispose();
  });

  it('makes a call the node wrote, once, and sends its result back in the next request', async () => {
    const { guard, remote } = allowedGuard();
    const engine = engineFor(server.url, guard, { steering: forceOneCall() });
    await engine.load();
    const calls: unknown[] = [];
    const result = await engine.generate(
      generateOptions({
        tools: [ADD],
        onToolCall: async (name, args) => {
          calls.push({ name, args });
          return '5';
        },
      }),
    );
    expect(calls).toEqual([{ name: 'add', args: { a: 2, b: 3 } }]);
    expect(['complete', 'maxTokens']).toContain(result.stopReason);
    const completions = remote().filter((e) => e.url.endsWith('/completion'));
    // The free text that opened the call, the call under its grammar, then the step that reads the result.
    expect(completions.map((e) => e.carried)).toEqual([
      'the conversation',
      'the conversation',
      'the conversation, 1 tool result',
    ]);
    for (const event of completions) expect(event.sent! > 0 && event.bytes! > 0).toBe(true);
    await engine.dispose();
  });

  it('offline, connects to no node that no rule allows, and says why', async () => {
    const ledger = new MemoryEgressLedger();
    const guard = new EgressGuard({ sink: ledger }); // offline, no rules: the default
    const engine = engineFor(server.url, guard);
    const state = await engine.load();
    expect(state.status).toBe('error');
    const error = state.status === 'error' ? state.error : undefined;
    expect(error?.code).toBe('NETWORK_BLOCKED');
    expect(error?.message).toMatch(/offline/i);
    expect(error?.message).toContain('a model on another computer');
    expect(ledger.list()).toMatchObject([{ feature: 'remote-model', allowed: false, host: '127.0.0.1' }]);
  });

  it('runs the same task with the model spread over two ggml-rpc-server workers', async () => {
    const workers = [await startRpcServer(binaries.rpc), await startRpcServer(binaries.rpc)];
    const spread = await startLlamaServer(binaries.server, {
      model,
      contextSize: 4096,
      rpc: workers.map((w) => w.url),
    });
    try {
      const { guard } = allowedGuard();
      const engine = engineFor(spread.url, guard, { steering: forceOneCall() });
      expect(ready(await engine.load())).toBeDefined();
      const calls: string[] = [];
      const result = await engine.generate(
        generateOptions({ tools: [ADD], onToolCall: async (name) => (calls.push(name), '5') }),
      );
      expect(calls).toEqual(['add']);
      expect(result.stats.completionTokens).toBeGreaterThan(0);
      // llama-server reached both workers for the model's layers.
      for (const worker of workers) expect(worker.log()).toContain('Accepted client connection');
      await engine.dispose();
    } finally {
      await spread.stop();
      for (const worker of workers) await worker.stop();
    }
  }, 300_000);
});

/** A server that speaks the OpenAI API badly on purpose: each test sets how it answers. */
describe('the remote engine against a server that misbehaves', () => {
  let fake: Server;
  let url = '';
  let models = ['botpsy'];
  /** What /props shows; none: the server has no template to show, so Homebody speaks the OpenAI API. */
  let props: Record<string, unknown> | undefined;
  let answer: (res: ServerResponse, body: Record<string, unknown>) => void = () => {};
  const bodies: Record<string, unknown>[] = [];

  beforeAll(async () => {
    fake = createServer((req, res) => {
      let text = '';
      req.on('data', (chunk) => (text += chunk));
      req.on('end', () => {
        if (req.url === '/v1/models') {
          res.setHeader('content-type', 'application/json');
          res.end(JSON.stringify({ data: models.map((id) => ({ id, max_model_len: 8192 })) }));
        } else if (req.url === '/props') {
          res.statusCode = props ? 200 : 404;
          res.end(props ? JSON.stringify(props) : '{"error":"not found"}');
        } else {
          const body = JSON.parse(text) as Record<string, unknown>;
          bodies.push(body);
          res.setHeader('content-type', 'text/event-stream');
          answer(res, body);
        }
      });
    });
    await new Promise<void>((done) => fake.listen(0, '127.0.0.1', done));
    const address = fake.address();
    url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  });
  afterAll(() => new Promise<void>((done) => fake.close(() => done())));

  const sse = (res: ServerResponse, chunk: unknown) => res.write(`data: ${JSON.stringify(chunk)}\n\n`);
  const delta = (d: Record<string, unknown>, finish: string | null = null, model = 'botpsy') => ({
    model,
    choices: [{ index: 0, delta: d, finish_reason: finish }],
  });

  async function connected(extra: Partial<RemoteEngineOptions> = {}) {
    const { guard } = allowedGuard();
    const engine = engineFor(url, guard, { expectedModel: 'botpsy', ...extra });
    const info = ready(await engine.load());
    expect(info?.remote).toMatchObject({ protocol: 'openai', model: 'botpsy' });
    expect(info?.contextSize).toBe(8192);
    return engine;
  }

  it('speaks the OpenAI API where the server shows no template: text, tool calls and their results', async () => {
    bodies.length = 0;
    answer = (res, body) => {
      const messages = body.messages as { role: string }[];
      if (messages.at(-1)!.role === 'tool') {
        sse(res, delta({ content: 'It is 5.' }));
        sse(res, delta({}, 'stop'));
      } else {
        sse(res, delta({ tool_calls: [{ index: 0, id: 'c1', function: { name: 'add', arguments: '{"a": 2,' } }] }));
        sse(res, delta({ tool_calls: [{ index: 0, function: { arguments: ' "b": 3}' } }] }, 'tool_calls'));
      }
      sse(res, { model: 'botpsy', choices: [], usage: { prompt_tokens: 30, completion_tokens: 4 } });
      res.end('data: [DONE]\n\n');
    };
    const engine = await connected();
    const calls: unknown[] = [];
    const options = generateOptions({
      tools: [ADD],
      onToolCall: async (name, args) => (calls.push({ name, args }), '5'),
    });
    const result = await engine.generate(options);
    expect(calls).toEqual([{ name: 'add', args: { a: 2, b: 3 } }]);
    expect(result.text).toBe('It is 5.');
    expect(result.stats).toMatchObject({ promptTokens: 30, completionTokens: 8 });
    expect(bodies[0]).toMatchObject({ model: 'botpsy', stream: true, tools: [{ type: 'function' }] });
    expect(bodies[1]!.messages).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ role: 'assistant', tool_calls: [expect.objectContaining({ id: 'c1' })] }),
        { role: 'tool', tool_call_id: 'c1', content: '5' },
      ]),
    );
  });

  it('a connection dropped mid-reply is a clear error, what arrived streamed, and no call runs twice', async () => {
    answer = (res, body) => {
      const messages = body.messages as { role: string }[];
      if (messages.at(-1)!.role === 'tool') {
        sse(res, delta({ content: 'It is' }));
        setTimeout(() => res.socket?.destroy(), 20);
      } else {
        sse(
          res,
          delta({ tool_calls: [{ index: 0, id: 'c1', function: { name: 'add', arguments: '{"a":2,"b":3}' } }] }),
        );
        sse(res, delta({}, 'tool_calls'));
        res.end('data: [DONE]\n\n');
      }
    };
    const engine = await connected();
    let runs = 0;
    const options = generateOptions({ tools: [ADD], onToolCall: async () => (runs++, '5') });
    await expect(engine.generate(options)).rejects.toMatchObject({
      code: 'REMOTE_DROPPED',
      message: expect.stringMatching(/dropped|ended before the reply/),
    });
    expect(runs).toBe(1);
    expect(options.streamed.join('')).toBe('It is');
  });

  it('counts the tokens streamed where the server reports no usage', async () => {
    answer = (res) => {
      for (const word of ['It', ' is', ' 5.']) sse(res, delta({ content: word }));
      sse(res, delta({}, 'stop'));
      res.end('data: [DONE]\n\n');
    };
    const engine = await connected();
    const result = await engine.generate(generateOptions());
    expect(result).toMatchObject({ text: 'It is 5.', stopReason: 'complete' });
    expect(result.stats.completionTokens).toBe(3);
  });

  it("a reply the server's own chat parse fails is still the reply it streamed; another error stops it", async () => {
    // llama-server parses every finished /completion as a chat reply; a model's odd bytes fail that parse, and the
    // stream ends with its error in place of the final chunk. Homebody reads the text itself.
    props = { chat_template: chatTemplateText('qwen3.5'), default_generation_settings: { n_ctx: 8192 } };
    let error = 'The model produced output that does not match the expected Content-only format';
    answer = (res) => {
      // The template's prompt leaves a thought open: the reply closes it first.
      for (const word of ['</think>\n\n', 'It is', ' 5.']) sse(res, { content: word, stop: false });
      sse(res, { error: { code: 500, message: error, type: 'server_error' } });
      res.end();
    };
    try {
      const { guard } = allowedGuard();
      const engine = engineFor(url, guard, { expectedModel: 'botpsy' });
      expect(ready(await engine.load())?.remote).toMatchObject({ protocol: 'dialect' });
      const result = await engine.generate(generateOptions({ maxTokens: 64 }));
      expect(result).toMatchObject({ text: 'It is 5.', stopReason: 'complete' });
      expect(result.stats.completionTokens).toBe(3);
      // At the limit it asked for, the reply was cut, not complete.
      expect(await engine.generate(generateOptions({ maxTokens: 3 }))).toMatchObject({ stopReason: 'maxTokens' });
      error = 'failed to decode the batch';
      await expect(engine.generate(generateOptions({ maxTokens: 64 }))).rejects.toMatchObject({
        message: expect.stringContaining('failed to decode the batch'),
      });
    } finally {
      props = undefined;
    }
  });

  it('a server that streams on without end is stopped at the byte limit, with what arrived kept', async () => {
    let written = 0;
    answer = (res) => {
      const word = 'x'.repeat(1000);
      const more = () => {
        // Until the client hangs up: it must, since the server never ends the reply itself.
        while (!res.destroyed && res.write(`data: ${JSON.stringify(delta({ content: word }))}\n\n`)) written += 1;
        if (!res.destroyed) res.once('drain', more);
      };
      more();
    };
    const engine = await connected({ maxAnswerBytes: 1024 * 1024 });
    // A cap of tokens this server's thousand-character deltas would not reach before the byte limit.
    const options = generateOptions({ maxTokens: 100_000 });
    await expect(engine.generate(options)).rejects.toMatchObject({
      code: 'REMOTE_BAD_REPLY',
      message: expect.stringMatching(/sent more than 1 MB for one answer to \/v1\/chat\/completions/),
    });
    expect(options.streamed.join('').length).toBeGreaterThan(500_000);
    expect(written).toBeGreaterThan(0);
  });

  it('a server that ignores the token cap is cut off at it: the reply ends as too long, not run on', async () => {
    answer = (res) => {
      for (let i = 0; i < 500; i++) sse(res, delta({ content: 'x' }));
      sse(res, delta({}, 'stop'));
      res.end('data: [DONE]\n\n');
    };
    const engine = await connected();
    const result = await engine.generate(generateOptions({ maxTokens: 16 }));
    expect(result.stopReason).toBe('maxTokens');
    // The margin past the cap (a delta may hold less than a token), then no more.
    expect(result.text.length).toBe(16 * 2 + 64 + 1);
  });

  it('garbage in the stream is a clear error quoting it', async () => {
    answer = (res) => {
      res.write('data: {"choices": [{"delta": {"content": "ok"}}]}\n\n');
      res.end('<html>proxy error</html>\n');
    };
    const engine = await connected();
    await expect(engine.generate(generateOptions())).rejects.toMatchObject({
      code: 'REMOTE_BAD_REPLY',
      message: expect.stringContaining('<html>proxy error</html>'),
    });
  });

  it('a node that serves another model is refused at connection, and one swapped under a reply stops it', async () => {
    models = ['llama-3-8b'];
    const { guard } = allowedGuard();
    const wrong = engineFor(url, guard, { expectedModel: 'botpsy' });
    const state = await wrong.load();
    expect(state.status === 'error' && state.error).toMatchObject({
      code: 'REMOTE_WRONG_MODEL',
      message: expect.stringContaining('"llama-3-8b", not "botpsy"'),
    });
    models = ['botpsy'];
    const engine = await connected();
    let runs = 0;
    answer = (res) => {
      sse(
        res,
        delta(
          { tool_calls: [{ index: 0, id: 'c1', function: { name: 'add', arguments: '{"a":2,"b":3}' } }] },
          null,
          'other',
        ),
      );
      res.end('data: [DONE]\n\n');
    };
    await expect(
      engine.generate(generateOptions({ tools: [ADD], onToolCall: async () => (runs++, '5') })),
    ).rejects.toMatchObject({ code: 'REMOTE_WRONG_MODEL' });
    expect(runs).toBe(0);
  });

  it('a refused connection and a node too slow to answer say so', async () => {
    const { guard } = allowedGuard();
    const nobody = engineFor('http://127.0.0.1:9', guard);
    const state = await nobody.load();
    expect(state.status === 'error' && state.error).toMatchObject({
      code: 'REMOTE_UNREACHABLE',
      message: expect.stringContaining('connection refused'),
    });
    const engine = await connected({ timeouts: { firstByteMs: 200 } });
    answer = () => {}; // never answers
    await expect(engine.generate(generateOptions())).rejects.toMatchObject({
      code: 'REMOTE_TIMEOUT',
      message: expect.stringContaining('did not answer within 0.2 s'),
    });
  });

  it('an API key the server refuses is named as the problem', async () => {
    answer = (res) => {
      res.statusCode = 401;
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify({ error: { message: 'Invalid API Key' } }));
    };
    const engine = await connected();
    await expect(engine.generate(generateOptions())).rejects.toMatchObject({
      code: 'REMOTE_REFUSED',
      message: expect.stringContaining('refused the API key (HTTP 401): "Invalid API Key"'),
    });
  });
});

describe('a node over https, its certificate pinned on first use', () => {
  let server: HttpsServer;
  let url = '';
  let certificate = '';
  let requests = 0;

  beforeAll(async () => {
    const dir = mkdtempSync(join(tmpdir(), 'hb-node-tls-'));
    const made = spawnSync('openssl', [
      ...['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes'],
      ...['-subj', '/CN=study-computer', '-days', '2', '-keyout', join(dir, 'key.pem'), '-out', join(dir, 'cert.pem')],
    ]);
    expect(made.status, made.stderr?.toString()).toBe(0);
    certificate = readFileSync(join(dir, 'cert.pem'), 'utf8');
    server = createHttpsServer({ key: readFileSync(join(dir, 'key.pem')), cert: certificate }, (req, res) => {
      requests++;
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify(req.url === '/v1/models' ? { data: [{ id: 'botpsy', max_model_len: 4096 }] } : {}));
    });
    await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
    const address = server.address();
    url = `https://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  });
  afterAll(() => new Promise<void>((done) => server.close(() => done())));

  it('connects when the server shows the pinned certificate, and sends nothing to one that shows another', async () => {
    const { guard } = allowedGuard();
    const fingerprint = new X509Certificate(certificate).fingerprint256;
    const trusted = engineFor(url, guard, {
      protocol: 'openai',
      node: { url, label: 'the study computer', fingerprint },
    });
    const first = await trusted.load();
    expect(ready(first)?.remote, JSON.stringify(first)).toMatchObject({ model: 'botpsy', protocol: 'openai' });
    const before = requests;
    const otherPin = fingerprint.replace(/^../, fingerprint.startsWith('00') ? '11' : '00');
    const swapped = engineFor(url, guard, { node: { url, label: 'the study computer', fingerprint: otherPin } });
    const state = await swapped.load();
    expect(state.status === 'error' && state.error).toMatchObject({
      code: 'REMOTE_CERTIFICATE_CHANGED',
      message: expect.stringContaining(`now ${fingerprint}`),
    });
    expect(requests).toBe(before); // refused before a byte of the request was written
  });
});
