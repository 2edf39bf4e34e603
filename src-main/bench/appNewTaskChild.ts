/**
 * One app process of the new-task benchmark, started by appNewTaskBench.ts (a restart is a new process): a Host as
 * `homebody run` builds it, reached only through the contract, on the given model, with a granted folder and an MCP
 * server. It answers each prompt as the first message of a new task and prints what the user felt, as JSON lines
 * (newTaskProtocol.ts). Run as `node build/tsc/src-main/bench/appNewTaskChild.js '<config JSON>'`.
 */
import type { Message } from '../../src-shared/contract/index.js';
import { createHost } from '../host/createHost.js';
import type { Host } from '../host/hostTypes.js';
import type { GenerateResult } from '../llm/engineTypes.js';
import { createLlamaEngine, type EngineFactory } from '../llm/llamaEngine.js';
import { modeFor } from '../permissions/policy.js';
import {
  formatChildLine,
  type NewTaskChildConfig,
  type NewTaskChildLine,
  type OfferedTool,
  type TaskLine,
} from './newTaskProtocol.js';
import { ownPeakRss } from './processMemory.js';

const print = (line: NewTaskChildLine) => process.stdout.write(formatChildLine(line));
const log = (line: string) => process.stderr.write(`${line}\n`);

/**
 * The Host's own engine factory, watched: the chat engine's configuration (its system prompt), and each reply's
 * evaluated prompt tokens, which the contract's message stats do not carry. Nothing the engine does is changed.
 */
function watchedEngines() {
  const seen: { systemPrompt?: string; lastResult?: GenerateResult } = {};
  const createEngine: EngineFactory = (config, loadSettings) => {
    const engine = createLlamaEngine(config, loadSettings);
    if (seen.systemPrompt !== undefined) return engine; // an evaluation's engine, made later
    seen.systemPrompt = config.systemPrompt;
    const generate = engine.generate.bind(engine);
    engine.generate = async (options) => {
      const result = await generate(options);
      seen.lastResult = result;
      return result;
    };
    return engine;
  };
  return { seen, createEngine };
}

/** The warm-up's setup, as a user makes it in Settings: a granted folder, and an MCP server with a few tools on. */
async function setUp(host: Host, config: NewTaskChildConfig): Promise<void> {
  await host.invoke('policy.grantFolder', { path: config.folder });
  const { name, command, args, keep } = config.mcp;
  await host.invoke('mcp.add', { server: { name, transport: { kind: 'stdio', command, args: [...args] } } });
  const { servers } = await host.invoke('mcp.setEnabled', { name, enabled: true });
  const server = servers.find((s) => s.name === name);
  if (server?.status !== 'running') {
    throw new Error(`the MCP server ${name} did not start: ${server?.error ?? server?.status ?? 'not added'}`);
  }
  const missing = keep.filter((tool) => !server.tools.some((t) => t.tool === tool));
  if (missing.length) throw new Error(`the MCP server ${name} offers no ${missing.join(', ')}`);
  for (const tool of server.tools) {
    if (!keep.includes(tool.tool)) await host.invoke('policy.setMode', { tool: tool.name, mode: 'off' });
  }
}

/** Every tool the model is offered: the Host's list, less what the policy switches off. */
async function offeredTools(host: Host): Promise<OfferedTool[]> {
  const listed = await host.invoke('tools.list', { waitForServers: true });
  const policy = await host.invoke('policy.get', {});
  return listed
    .filter((t) => modeFor(policy, t.name, t.risk, t.alwaysAsk) !== 'off')
    .map(({ name, description, parameters }) => ({ name, description, parameters }));
}

/**
 * Sends `prompt` as a new task and times it as the user sees it: from the send to the first streamed event of the
 * reply (text, a thought, or a tool call proposed), or to its end when it streamed nothing. A call that would ask
 * the user is denied, so the reply goes on.
 */
async function timeNewTask(
  host: Host,
  prompt: string,
  lastResult: () => GenerateResult | undefined,
): Promise<TaskLine> {
  const finished = new Map<string, Message>();
  let first: { at: number; kind: TaskLine['firstEvent']; taskId: string | null } | undefined;
  let onFinished: (() => void) | undefined;
  const off = host.subscribe((event) => {
    const at = performance.now();
    if (event.type === 'message.delta' && (event.text || event.reasoning)) {
      first ??= { at, kind: event.text ? 'text' : 'reasoning', taskId: event.taskId };
    } else if (event.type === 'toolcall.updated') {
      first ??= { at, kind: 'toolcall', taskId: event.call.taskId };
    } else if (event.type === 'message.finished') {
      finished.set(event.message.id, event.message);
      onFinished?.();
    }
  });
  try {
    const sentAt = performance.now();
    const sent = await host.invoke('chat.send', { taskId: null, text: prompt });
    // The reply may end before chat.send has answered: every end is kept, by its message.
    const message = await new Promise<Message>((done) => {
      onFinished = () => {
        const found = finished.get(sent.assistantMessageId);
        if (found) done(found);
      };
      onFinished();
    });
    const endedAt = performance.now();
    if (message.state === 'failed') throw new Error(`the reply to "${prompt}" failed: ${message.error ?? 'no reason'}`);
    if (first && first.taskId !== sent.taskId) throw new Error(`a token of another task came before "${prompt}"'s`);
    const result = lastResult();
    return {
      kind: 'task',
      prompt,
      taskId: sent.taskId,
      firstTokenMs: (first?.at ?? endedAt) - sentAt,
      firstEvent: first?.kind ?? 'end',
      promptTokens: message.stats?.promptTokens ?? null,
      evaluatedPromptTokens: result?.evaluatedPromptTokens ?? null,
      completionTokens: message.stats?.completionTokens ?? null,
      tokensPerSecond: message.stats?.tokensPerSecond ?? null,
      state: message.state,
    };
  } finally {
    off();
  }
}

async function run(config: NewTaskChildConfig): Promise<void> {
  const { seen, createEngine } = watchedEngines();
  const host = await createHost({
    dataDir: config.dataDir,
    shell: 'cli',
    command: 'homebody bench',
    loadModelOnStart: false,
    // The benchmark answers no prompt: a call that needs one is not run, and the reply goes on without it (a prompt
    // would end the reply, and the task would go on after an answer, into the next task's measurement).
    canAsk: false,
    reply: { maxTokens: config.maxTokens, temperature: 0 },
    engineConfig: { contextSize: config.contextSize, threads: config.threads },
    createEngine,
    // The benchmark stands for the user who read the MCP server's command in Settings and confirmed it.
    confirmMcpCommand: { confirm: async () => ({ confirmed: true }) },
  });
  try {
    if (config.phase === 'warm-up') await setUp(host, config);
    const tools = await offeredTools(host);
    const { servers } = await host.invoke('mcp.list', {});
    const server = servers.find((s) => s.name === config.mcp.name);
    if (server?.status !== 'running') throw new Error(`the MCP server ${config.mcp.name} is ${server?.status}`);
    log(`${config.phase}: ${tools.length} tools offered; loading ${config.model}`);
    const loadStarted = performance.now();
    const state = await host.invoke('model.open', { path: config.model });
    if (state.status !== 'ready') {
      throw new Error(`the model did not load: ${state.status === 'error' ? state.error.message : state.status}`);
    }
    print({
      kind: 'ready',
      tools,
      mcpTools: tools.filter((t) => t.name.startsWith('mcp_')).length,
      systemPrompt: seen.systemPrompt ?? '',
      contextSize: state.info.contextSize,
      loadMs: performance.now() - loadStarted,
    });
    for (const prompt of config.prompts) {
      log(`${config.phase}: new task "${prompt}"`);
      seen.lastResult = undefined;
      print(await timeNewTask(host, prompt, () => seen.lastResult));
    }
  } finally {
    // What the app keeps on disk is written by now: disposing waits for it, as quitting the app does.
    await host.dispose();
  }
  print({ kind: 'done', peakRssBytes: ownPeakRss() });
}

const config = JSON.parse(process.argv[2] ?? 'null') as NewTaskChildConfig | null;
if (!config) {
  log('appNewTaskChild: give the configuration as the one argument (JSON); appNewTaskBench.ts starts this process');
  process.exitCode = 2;
} else {
  try {
    await run(config);
  } catch (error) {
    log(`appNewTaskChild: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
    process.exitCode = 1;
  }
}
