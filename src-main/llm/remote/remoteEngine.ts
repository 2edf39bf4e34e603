/**
 * A model on another computer, behind the same ChatEngine as the local one. The node only writes text: every call it
 * proposes comes back here as `onToolCall`, where the broker decides it and the local sandbox runs it, exactly as for
 * the local model. Two ways of speaking to it:
 *
 * - `dialect`: llama-server with a chat template Homebody speaks (Qwen3, Qwen3.5/BotPsy). Homebody renders the
 *   prompt in the model's own words, as the local engine does, and uses llama-server's completion endpoint: the model
 *   writes freely until it opens a call (a stop word), then writes the call under a grammar of the callable tools'
 *   schemas, on the server. The prompt of every step is the template's rendering of the conversation so far, which
 *   the server's prompt cache mostly already holds.
 * - `openai`: the OpenAI-compatible chat API that llama-server, vLLM and Ollama all serve, with the tools as the API's
 *   `tools`, the server's own template and parser doing the rest.
 */
import { HomebodyError, type ModelState } from '../../../src-shared/contract/index.js';
import { detectDialect } from '../dialect/detectDialect.js';
import { assistantTurn } from '../dialect/dialectReply.js';
import { ReplyText } from '../dialect/replyText.js';
import type { TemplateMessage } from '../dialect/templateTypes.js';
import {
  CALL_CLOSE,
  CALL_OPEN,
  THINK_OPEN,
  asPlainText,
  toolsForTemplate,
  type ToolDialect,
} from '../dialect/toolDialect.js';
import type { ChatEngine, EngineTool, GenerateOptions, GenerateResult } from '../engineTypes.js';
import { parseWrittenJson, plainValue, type WrittenValue } from '../writtenJson.js';
import {
  nodeAnswer,
  nodeJson,
  origin,
  quote,
  refusal,
  remoteError,
  sendToNode,
  serverSentData,
  type NodeEndpoint,
  type NodeGate,
  type NodeRequest,
  type NodeTimeouts,
} from './nodeRequest.js';

export type RemoteProtocol = 'dialect' | 'openai';

/** One step of a dialect reply, as the steering sees it. */
export interface RemoteStep {
  /** `text`: the model writes freely (until it opens a call); `call`: it writes a call after the opening tag. */
  readonly mode: 'text' | 'call';
  readonly conversation: readonly TemplateMessage[];
  readonly callable: readonly EngineTool[];
  readonly dialect: ToolDialect;
}

export interface RemoteEngineOptions {
  readonly node: NodeEndpoint;
  /** What its state names as the model's path (`remote:<id>`, so the Host remembers it as the last model); default the URL. */
  readonly reference?: string;
  readonly gate: NodeGate;
  readonly systemPrompt: string;
  /** `auto` (default): the dialect where the server shows a template Homebody speaks, else the OpenAI API. */
  readonly protocol?: 'auto' | 'openai';
  /** The model the node must serve (as its API names it); a node serving another is refused. */
  readonly expectedModel?: string;
  readonly timeouts?: Partial<NodeTimeouts>;
  /** The most one answer may send (default DEFAULT_MAX_ANSWER_BYTES; tests set less). */
  readonly maxAnswerBytes?: number;
  /** The user's thinking choice (undefined: the template's default). */
  readonly enableThinking?: () => boolean | undefined;
  /**
   * A grammar (GBNF) for the next step on the server, in place of Homebody's own; dialect only. Tests make a
   * random-weight model's reply a call with it, through the server's real sampling path.
   */
  readonly steering?: (step: RemoteStep) => string | undefined;
}

/** What the node answered when Homebody connected. */
export interface NodeConnection {
  readonly protocol: RemoteProtocol;
  /** The model it serves, and every one its API lists. */
  readonly model: string;
  readonly models: readonly string[];
  readonly contextSize: number;
  /** The certificate it showed (https). */
  readonly fingerprint: string | undefined;
}

interface Connected extends NodeConnection {
  readonly dialect: ToolDialect | undefined;
}

/** When a server says nothing of its context (Ollama's OpenAI API): the least any chat model has. */
const UNKNOWN_CONTEXT = 4096;

export class RemoteEngine implements ChatEngine {
  private current: ModelState = { status: 'none' };
  private readonly listeners = new Set<(state: ModelState) => void>();
  private connected: Connected | undefined;
  private readonly replies = new Set<AbortController>();

  constructor(private readonly options: RemoteEngineOptions) {}

  get state(): ModelState {
    return this.current;
  }

  onStateChange(listener: (state: ModelState) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private setState(state: ModelState): void {
    this.current = state;
    for (const listener of this.listeners) listener(state);
  }

  /** What the node answered at the last successful connection (for the Models page's probe). */
  get connection(): NodeConnection | undefined {
    return this.connected;
  }

  /** Connects to the node: which model it serves, its context length, how to speak to it. Never throws: a state. */
  async load(): Promise<ModelState> {
    const { node } = this.options;
    const path = this.options.reference ?? node.url;
    this.setState({ status: 'loading', path, progress: 0 });
    try {
      const connected = await this.connect();
      this.connected = connected;
      this.setState({
        status: 'ready',
        info: {
          path,
          name: connected.model,
          architecture: 'remote',
          sizeBytes: 0,
          contextSize: connected.contextSize,
          trainContextSize: connected.contextSize,
          synthetic: false,
          gpu: `on ${origin(node.url)}`,
          ...(connected.dialect
            ? { thinkingDefault: connected.dialect.thinksByDefault ? ('on' as const) : ('off' as const) }
            : {}),
          remote: {
            url: node.url,
            label: node.label,
            model: connected.model,
            protocol: connected.protocol,
            ...(connected.fingerprint ? { fingerprint: connected.fingerprint } : {}),
          },
        },
      });
    } catch (error) {
      this.connected = undefined;
      const known = error instanceof HomebodyError ? error : remoteError('REMOTE_UNREACHABLE', String(error));
      this.setState({ status: 'error', path, error: { code: known.code, message: known.message } });
    }
    return this.current;
  }

  private async connect(): Promise<Connected> {
    const { node, gate } = this.options;
    const answer = await nodeAnswer(node, gate, this.check('/v1/models'));
    const listed = answer.body as {
      data?: { id?: unknown; max_model_len?: unknown; meta?: { n_ctx?: unknown; n_ctx_train?: unknown } }[];
    };
    const models = Array.isArray(listed?.data) ? listed.data.filter((m) => typeof m?.id === 'string') : [];
    if (models.length === 0) {
      throw remoteError(
        'REMOTE_BAD_REPLY',
        `${node.label} (${origin(node.url)}) lists no model at /v1/models: is it an OpenAI-compatible server?`,
      );
    }
    const expected = this.options.expectedModel;
    const entry = expected ? models.find((m) => m.id === expected) : models[0];
    if (!entry) {
      throw remoteError(
        'REMOTE_WRONG_MODEL',
        `${node.label} (${origin(node.url)}) serves ${models.map((m) => `"${String(m.id)}"`).join(', ')}, not "${expected}". Start it with that model, or change the model in the Models page.`,
      );
    }
    let contextSize = numberOr(entry.meta?.n_ctx) ?? numberOr(entry.max_model_len);
    let dialect: ToolDialect | undefined;
    if (this.options.protocol !== 'openai') {
      // llama-server's own endpoint: the template the model came with, and the context each slot has.
      const props = await nodeJson(node, gate, this.check('/props')).catch(() => undefined);
      const p = props as { chat_template?: unknown; default_generation_settings?: { n_ctx?: unknown } } | undefined;
      contextSize = numberOr(p?.default_generation_settings?.n_ctx) ?? contextSize;
      dialect = typeof p?.chat_template === 'string' ? detectDialect(p.chat_template) : undefined;
    }
    return {
      protocol: dialect ? 'dialect' : 'openai',
      model: String(entry.id),
      models: models.map((m) => String(m.id)),
      fingerprint: answer.fingerprint,
      dialect,
      contextSize: contextSize ?? UNKNOWN_CONTEXT,
    };
  }

  /**
   * For the Doctor: the round trip of one small request (the node's model list), then a short reply to a fixed
   * prompt, for its first token and decode speed. Connects first when needed; throws the node's error.
   */
  async measure(maxTokens = 16): Promise<{ roundTripMs: number; result: GenerateResult }> {
    if (!this.connected) {
      const state = await this.load();
      if (state.status === 'error') throw new HomebodyError(state.error.code, state.error.message);
    }
    const { node, gate } = this.options;
    const started = performance.now();
    await nodeJson(node, gate, this.check('/v1/models'));
    const roundTripMs = performance.now() - started;
    const result = await this.generate({
      history: [],
      prompt: 'Say hello in one short sentence.',
      systemPrompt: 'You are a speed test.',
      maxTokens,
      temperature: 0,
      signal: new AbortController().signal,
      onText: () => {},
      onReasoning: () => {},
    });
    return { roundTripMs, result };
  }

  async generate(options: GenerateOptions): Promise<GenerateResult> {
    const connected = this.connected;
    if (!connected || this.current.status !== 'ready') {
      throw new HomebodyError('NO_MODEL', 'The model on the other computer is not connected.');
    }
    const controller = new AbortController();
    const abort = () => controller.abort(options.signal.reason);
    options.signal.addEventListener('abort', abort, { once: true });
    this.replies.add(controller);
    const reply = new ReplyTally();
    reply.carriesToolResults = options.priorToolResults ?? 0;
    // What streams to the chat is also what the reply's result holds.
    const streaming: GenerateOptions = {
      ...options,
      onText: (chunk) => {
        reply.text += chunk;
        options.onText(chunk);
      },
      onReasoning: (chunk) => {
        reply.reasoning += chunk;
        options.onReasoning(chunk);
      },
    };
    try {
      if (connected.protocol === 'dialect') await this.dialectReply(connected, streaming, controller.signal, reply);
      else await this.openAiReply(connected, streaming, controller.signal, reply);
    } catch (error) {
      if (!controller.signal.aborted) throw error;
      reply.stopReason = 'aborted';
    } finally {
      options.signal.removeEventListener('abort', abort);
      this.replies.delete(controller);
    }
    return reply.result();
  }

  /** The timeouts and byte limit every request to the node is made under. */
  private limits(): Pick<NodeRequest, 'timeouts' | 'maxBytes'> {
    return {
      ...(this.options.timeouts ? { timeouts: this.options.timeouts } : {}),
      ...(this.options.maxAnswerBytes ? { maxBytes: this.options.maxAnswerBytes } : {}),
    };
  }

  /** A small GET that carries nothing of the user's, under the engine's limits like every other request. */
  private check(path: string): NodeRequest {
    return {
      method: 'GET',
      path,
      carried: 'a check',
      ...this.limits(),
    };
  }

  private conversation(options: GenerateOptions): TemplateMessage[] {
    return [
      { role: 'system', content: options.systemPrompt ?? this.options.systemPrompt },
      ...options.history.map((turn): TemplateMessage => ({ role: turn.role, content: asPlainText(turn.text) })),
      { role: 'user', content: asPlainText(options.prompt) },
    ];
  }

  private callable(options: GenerateOptions): EngineTool[] {
    if (!options.onToolCall || !options.tools?.length) return [];
    const names = options.callableTools && new Set(options.callableTools);
    return names ? options.tools.filter((tool) => names.has(tool.name)) : [...options.tools];
  }

  /** A reply on llama-server's completion endpoint, the prompt rendered in the model's dialect. */
  private async dialectReply(
    connected: Connected,
    options: GenerateOptions,
    signal: AbortSignal,
    tally: ReplyTally,
  ): Promise<void> {
    const dialect = connected.dialect!;
    const conversation = this.conversation(options);
    const tools = toolsForTemplate(options.tools ?? []);
    const callable = this.callable(options);
    const thinking = this.options.enableThinking?.();
    for (;;) {
      const prompt = dialect.render({
        messages: conversation,
        tools,
        add_generation_prompt: true,
        ...(thinking === undefined ? {} : { enable_thinking: thinking }),
      });
      const text = new ReplyText(prompt.endsWith(`${THINK_OPEN}\n`), options.onText, options.onReasoning);
      const steer = (mode: RemoteStep['mode']) => this.options.steering?.({ mode, conversation, callable, dialect });
      const step = await this.completion(
        connected,
        signal,
        tally,
        'the conversation',
        {
          prompt,
          n_predict: Math.max(1, options.maxTokens - tally.generated),
          temperature: options.temperature,
          // The call's opening tag ends the free text: the call itself is written under its grammar.
          stop: callable.length ? [CALL_OPEN] : [],
          ...grammarField(steer('text')),
        },
        (content) => text.update(content),
      );
      text.update(step.content, true);
      tally.generated += step.predicted;
      if (step.stopType === 'limit') {
        tally.stopReason = 'maxTokens';
        return;
      }
      if (!(step.stopType === 'word' && step.stoppingWord === CALL_OPEN && callable.length)) return;
      const callPrompt = `${prompt}${step.content}${CALL_OPEN}`;
      const call = await this.completion(connected, signal, tally, 'the conversation', {
        prompt: callPrompt,
        n_predict: options.maxTokens * 2 + 256,
        temperature: options.temperature,
        grammar: steer('call') ?? dialect.callGrammar(callable),
      });
      tally.generated += call.predicted;
      if (!call.content.endsWith(CALL_CLOSE)) {
        tally.stopReason = 'maxTokens';
        return;
      }
      let told: string;
      let parsed;
      try {
        parsed = dialect.parseCall(call.content, callable);
      } catch (error) {
        told = `Error: ${error instanceof Error ? error.message : String(error)}`;
      }
      conversation.push(assistantTurn(text.reasoning, text.text, parsed ? [parsed] : []));
      if (parsed) told = await options.onToolCall!(parsed.name, plainValue(parsed.arguments), parsed.arguments);
      conversation.push({ role: 'tool', content: told! });
      // The result goes back in the next step's prompt: that request carries a tool result.
      tally.carriesToolResults++;
      if (signal.aborted) return;
    }
  }

  /** One streamed request to llama-server's /completion; answers how it ended. */
  private async completion(
    connected: Connected,
    signal: AbortSignal,
    tally: ReplyTally,
    carried: string,
    body: Record<string, unknown>,
    onContent?: (content: string) => void,
  ): Promise<{ content: string; predicted: number; stopType: string; stoppingWord: string }> {
    const { node, gate } = this.options;
    const response = await sendToNode(node, gate, {
      method: 'POST',
      path: '/completion',
      carried: tally.carried(carried),
      body: { ...body, stream: true, cache_prompt: true },
      signal,
      ...this.limits(),
    });
    if (response.status < 200 || response.status >= 300)
      throw refusal(node, response.status, await readAll(response.chunks));
    let content = '';
    let streamed = 0;
    const asked = numberOr(body.n_predict);
    for await (const data of serverSentData(response.chunks)) {
      const chunk = parseChunk(node, data, '/completion') as {
        content?: unknown;
        stop?: unknown;
        stop_type?: unknown;
        stopping_word?: unknown;
        tokens_predicted?: unknown;
        tokens_evaluated?: unknown;
        model?: unknown;
        timings?: { predicted_per_second?: unknown };
        error?: unknown;
      };
      if (chunk.error !== undefined) {
        // After the last token the server parses the whole text as a chat reply, which Homebody does not use (it
        // reads the thought and the calls itself); output that parse cannot take (bytes that are not UTF-8, an odd
        // layout) ends the stream with this error in place of the final chunk. The text it streamed is the reply.
        if (content && unparsedOutput(chunk.error)) {
          return {
            content,
            predicted: streamed,
            stopType: asked && streamed >= asked ? 'limit' : 'eos',
            stoppingWord: '',
          };
        }
        throw refusal(node, 500, data);
      }
      if (typeof chunk.content !== 'string') throw badReply(node, '/completion', data);
      if (chunk.content) {
        streamed++;
        tally.firstToken();
        content += chunk.content;
        onContent?.(content);
      }
      // A server that ignores n_predict would write on until the byte limit: the cap is Homebody's to keep.
      if (asked && pastCap(streamed, asked))
        return { content, predicted: streamed, stopType: 'limit', stoppingWord: '' };
      if (chunk.stop === true) {
        this.checkModel(connected, chunk.model);
        tally.promptTokens = numberOr(chunk.tokens_evaluated) ?? tally.promptTokens;
        tally.serverSpeed = numberOr(chunk.timings?.predicted_per_second) ?? tally.serverSpeed;
        return {
          content,
          predicted: numberOr(chunk.tokens_predicted) ?? 0,
          stopType: typeof chunk.stop_type === 'string' ? chunk.stop_type : 'none',
          stoppingWord: typeof chunk.stopping_word === 'string' ? chunk.stopping_word : '',
        };
      }
    }
    throw dropped(node);
  }

  /** A reply over the OpenAI-compatible chat API: the server's template, tools as the API's `tools`. */
  private async openAiReply(
    connected: Connected,
    options: GenerateOptions,
    signal: AbortSignal,
    tally: ReplyTally,
  ): Promise<void> {
    const { node, gate } = this.options;
    const callable = this.callable(options);
    const messages: Record<string, unknown>[] = this.conversation(options).map((m) => ({
      role: m.role,
      content: m.content,
    }));
    for (;;) {
      const response = await sendToNode(node, gate, {
        method: 'POST',
        path: '/v1/chat/completions',
        carried: tally.carried('the conversation'),
        body: {
          model: connected.model,
          messages,
          stream: true,
          stream_options: { include_usage: true },
          max_tokens: Math.max(1, options.maxTokens - tally.generated),
          temperature: options.temperature,
          ...(callable.length ? { tools: toolsForTemplate(callable) } : {}),
        },
        signal,
        ...this.limits(),
      });
      if (response.status < 200 || response.status >= 300) {
        throw refusal(node, response.status, await readAll(response.chunks));
      }
      let text = '';
      let finish: string | undefined;
      let done = false;
      const calls: { id: string; name: string; arguments: string }[] = [];
      let stepTokens = 0;
      let deltas = 0;
      const asked = Math.max(1, options.maxTokens - tally.generated);
      for await (const data of serverSentData(response.chunks)) {
        if (data.trim() === '[DONE]') {
          done = true;
          break;
        }
        const chunk = parseChunk(node, data, '/v1/chat/completions') as OpenAiChunk;
        if (chunk.error !== undefined) throw refusal(node, 500, data);
        if (!Array.isArray(chunk.choices)) throw badReply(node, '/v1/chat/completions', data);
        this.checkModel(connected, chunk.model);
        if (chunk.usage) {
          tally.promptTokens = numberOr(chunk.usage.prompt_tokens) ?? tally.promptTokens;
          stepTokens = numberOr(chunk.usage.completion_tokens) ?? stepTokens;
        }
        const choice = chunk.choices[0];
        if (!choice) continue;
        const delta = choice.delta ?? {};
        const reasoning = delta.reasoning_content ?? delta.reasoning;
        if (reasoning || delta.content || delta.tool_calls?.length) deltas++;
        if (typeof reasoning === 'string' && reasoning) {
          tally.firstToken();
          options.onReasoning(reasoning);
        }
        if (typeof delta.content === 'string' && delta.content) {
          tally.firstToken();
          text += delta.content;
          options.onText(delta.content);
        }
        for (const part of delta.tool_calls ?? []) {
          tally.firstToken();
          const index = typeof part.index === 'number' ? part.index : calls.length;
          const call = (calls[index] ??= { id: '', name: '', arguments: '' });
          if (typeof part.id === 'string') call.id = part.id;
          if (typeof part.function?.name === 'string') call.name += part.function.name;
          if (typeof part.function?.arguments === 'string') call.arguments += part.function.arguments;
        }
        if (typeof choice.finish_reason === 'string') finish = choice.finish_reason;
        // A server that ignores max_tokens would write on until the byte limit: the cap is Homebody's to keep.
        if (pastCap(deltas, asked)) {
          finish = 'length';
          break;
        }
      }
      if (!done && finish === undefined) throw dropped(node);
      // A server that reports no usage streams one token per delta (llama-server, vLLM, Ollama): counted as they came.
      tally.generated += stepTokens || deltas;
      if (finish === 'length') {
        tally.stopReason = 'maxTokens';
        return;
      }
      const made = calls.filter((call) => call && call.name);
      if (made.length === 0 || !options.onToolCall) return;
      messages.push({
        role: 'assistant',
        content: text || null,
        tool_calls: made.map((call, i) => ({
          id: call.id || `call_${i}`,
          type: 'function',
          function: { name: call.name, arguments: call.arguments },
        })),
      });
      for (const [i, call] of made.entries()) {
        let told: string;
        let written: WrittenValue | undefined;
        try {
          written = parseWrittenJson(call.arguments || '{}');
        } catch (error) {
          told = `Error: the arguments are not JSON (${error instanceof Error ? error.message : String(error)}).`;
        }
        if (written !== undefined) told = await options.onToolCall(call.name, plainValue(written), written);
        messages.push({ role: 'tool', tool_call_id: call.id || `call_${i}`, content: told! });
        tally.carriesToolResults++;
      }
      if (signal.aborted) return;
    }
  }

  /** A reply that names another model than the one connected to: the node was swapped under the task. */
  private checkModel(connected: Connected, said: unknown): void {
    if (typeof said !== 'string' || said === '' || said === connected.model) return;
    const { node } = this.options;
    throw remoteError(
      'REMOTE_WRONG_MODEL',
      `${node.label} (${origin(node.url)}) answered as "${said}", not "${connected.model}", the model it served when Homebody connected. The reply was stopped; connect again in the Models page.`,
    );
  }

  async dispose(): Promise<void> {
    for (const reply of this.replies) reply.abort();
    this.connected = undefined;
    this.setState({ status: 'none' });
  }
}

interface OpenAiChunk {
  model?: unknown;
  error?: unknown;
  usage?: { prompt_tokens?: unknown; completion_tokens?: unknown };
  choices?: {
    finish_reason?: unknown;
    delta?: {
      content?: unknown;
      reasoning_content?: unknown;
      reasoning?: unknown;
      tool_calls?: { index?: unknown; id?: unknown; function?: { name?: unknown; arguments?: unknown } }[];
    };
  }[];
}

/** What a reply has written and counted so far, over all its requests. */
class ReplyTally {
  text = '';
  reasoning = '';
  generated = 0;
  promptTokens = 0;
  stopReason: GenerateResult['stopReason'] = 'complete';
  serverSpeed: number | undefined;
  carriesToolResults = 0;
  private readonly started = performance.now();
  private firstAt: number | undefined;

  firstToken(): void {
    this.firstAt ??= performance.now();
  }

  /** For the ledger: what this request carries. */
  carried(base: string): string {
    const results = this.carriesToolResults;
    return results === 0 ? base : `${base}, ${results} tool result${results === 1 ? '' : 's'}`;
  }

  result(): GenerateResult {
    const decodeSeconds = this.firstAt === undefined ? 0 : (performance.now() - this.firstAt) / 1000;
    return {
      text: this.text,
      reasoning: this.reasoning,
      stopReason: this.stopReason,
      evaluatedPromptTokens: this.promptTokens,
      stats: {
        promptTokens: this.promptTokens,
        completionTokens: this.generated,
        ttftMs: this.firstAt === undefined ? null : this.firstAt - this.started,
        tokensPerSecond:
          this.serverSpeed ?? (this.generated > 0 && decodeSeconds > 0 ? this.generated / decodeSeconds : null),
      },
    };
  }
}

function grammarField(grammar: string | undefined): { grammar?: string } {
  return grammar === undefined ? {} : { grammar };
}

function numberOr(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) && value > 0 ? value : undefined;
}

function parseChunk(node: NodeEndpoint, data: string, path: string): unknown {
  try {
    const parsed: unknown = JSON.parse(data);
    if (typeof parsed === 'object' && parsed !== null) return parsed;
  } catch {
    // said below
  }
  throw badReply(node, path, data);
}

function badReply(node: NodeEndpoint, path: string, data: string): HomebodyError {
  return remoteError(
    'REMOTE_BAD_REPLY',
    `${node.label} (${origin(node.url)}) answered ${path} with something that is not its API's answer: ${quote(data)}. The reply was stopped.`,
  );
}

/**
 * Whether a step streamed well past the tokens it asked for. A delta is not always one token (a server may merge a
 * few, or split a character's bytes), hence the margin: only a server that ignores the cap goes past it.
 */
function pastCap(streamed: number, asked: number): boolean {
  return streamed > asked * 2 + 64;
}

/** llama-server's words when the text it generated fails its own chat parse (common_chat_parse). */
function unparsedOutput(error: unknown): boolean {
  const message = typeof error === 'object' && error !== null ? (error as { message?: unknown }).message : error;
  return typeof message === 'string' && /does not match the expected .* format/.test(message);
}

function dropped(node: NodeEndpoint): HomebodyError {
  return remoteError(
    'REMOTE_DROPPED',
    `The connection to ${node.label} (${origin(node.url)}) ended before the reply did. What arrived is kept; nothing is sent again by itself.`,
  );
}

async function readAll(chunks: AsyncIterable<string>): Promise<string> {
  let text = '';
  for await (const chunk of chunks) text += chunk;
  return text;
}
