import { freemem } from 'node:os';
import {
  getLlama,
  type Token,
  TokenBias,
  type ChatSessionModelFunctions,
  type GbnfJsonSchema,
  type LlamaContextSequence,
  LlamaChatSession,
  resolveChatWrapper,
  type ChatWrapper,
  LlamaLogLevel,
  type ChatHistoryItem,
  type Llama,
  type LlamaContext,
  type LlamaModel,
} from 'node-llama-cpp';
import { HomebodyError, type AppError, type ModelInfo, type ModelState } from '../../src-shared/contract/index.js';
import type { EngineConfig } from './engineConfig.js';
import type {
  ChatEngine,
  ChatTurn,
  EngineTool,
  GenerateOptions,
  GenerateResult,
  GenerateStopReason,
  PrepareRequest,
} from './engineTypes.js';
import {
  checkMessageLength,
  clipToolResult,
  contextOverflowDuringReply,
  planContext,
  planContextBy,
  replyReserve,
  toolResultLimit,
} from './contextFit.js';
import { inspectGguf, type GgufSummary } from './gguf/ggufInspect.js';
import { ensurePrefix, modelFileIdentity, PrefixStateCache, sharedPrefixTokens } from './prefixCache.js';
import { kvCacheTypeOf, kvFactsOf } from './kvShape.js';
import { contextMemoryOptions, modelMemoryOptions } from './memoryPlan.js';
import { SerialQueue } from './serialQueue.js';
import { ToolGrammarCheck } from './toolGrammars.js';
import { SYNTHETIC_MODEL_KEY } from './synthetic/makeModel.js';
import { templateThinking, templateThinkingDefault } from './chatTemplates/templateThinking.js';
import { detectDialect } from './dialect/detectDialect.js';
import { DialectGrammars, dialectReply, scriptedCallText } from './dialect/dialectReply.js';
import type { TemplateMessage } from './dialect/templateTypes.js';
import { asPlainText, toolsForTemplate, type ParsedCall, type ToolDialect } from './dialect/toolDialect.js';
import { plainValue, type WrittenValue } from './writtenJson.js';

/** The user's model settings that apply when a model loads (see modelSettings.ts); read at every load. */
export interface LoadSettings {
  readonly contextSize: number;
  readonly gpuLayers: 'auto' | number;
  readonly threads: number;
  /** The active model's thinking choice; 'auto' follows its GGUF chat template (read at every reply). */
  readonly thinking: 'auto' | 'on' | 'off';
}

interface Loaded {
  readonly model: LlamaModel;
  readonly context: LlamaContext;
  /** The one sequence, kept across replies so the evaluated prefix (system prompt, earlier turns) is reused. */
  readonly sequence: LlamaContextSequence;
  readonly info: ModelInfo;
  /** The model file's identity (path, size, modification time), part of every prefix cache key. */
  readonly identity: string;
  /**
   * The model's chat wrapper, resolved once at load: node-llama-cpp resolves it again (its Jinja template checks)
   * for every session made with "auto", which cost 1.7 to 2.5 s of blocking CPU before each reply on a 2-core machine.
   */
  readonly chatWrapper: ChatWrapper;
  /** The model's own tool-call dialect when its template is one Homebody speaks exactly; else node-llama-cpp's wrapper. */
  readonly dialect: ToolDialect | undefined;
  /** The shared prompt prefix (system prompt + every tool) per system prompt and tool set, as tokens. */
  readonly prefixes: Map<string, DialectPrefix>;
}

/**
 * What the template does about thinking when nothing is asked: a dialect knows; for another template, a prompt
 * that opens a thought by itself is 'on', and so is one that only closes an empty thought when thinking is turned
 * off (Qwen3's: the model opens its thought itself).
 */
function thinkingDefaultOf(
  template: string | undefined,
  dialect: ToolDialect | undefined,
): ModelInfo['thinkingDefault'] {
  if (dialect) return dialect.thinksByDefault ? 'on' : 'off';
  if (!template) return 'none';
  const unset = templateThinkingDefault(template);
  if (unset !== 'none') return unset;
  if (templateThinking(template, false) === 'off') return 'on';
  return templateThinking(template, true) === 'on' ? 'off' : 'none';
}

/** A control token (`<|im_start|>`, `<tool_call>`): text after it tokenizes alone as it does within the whole. */
function isControl(model: LlamaModel, token: Token): boolean {
  return model.detokenize([token], false) === '' && model.detokenize([token], true) !== '';
}

async function closeLoaded(loaded: Loaded): Promise<void> {
  await loaded.context.dispose();
  await loaded.model.dispose();
}

/**
 * Whether a model of this file size can load beside the current one: its file, its context and llama.cpp's buffers
 * (about the file again on the CPU, where quantized weights are repacked and the KV cache and compute buffers come
 * on top) within what the system can hand out now. When not, the current model is closed first.
 */
function roomForBoth(fileBytes: number): boolean {
  return freemem() > fileBytes * 2 + SWITCH_MARGIN_BYTES;
}

/** Kept free beyond a new model's own needs when it loads beside the current one. */
const SWITCH_MARGIN_BYTES = 1024 * 2 ** 20;

/** Messages that start as a user's can (trimmed): a letter either case, a digit, punctuation, a quote, CJK. */
const NEW_TURN_PROBES = ['a', 'B', '7', '"x"', "'s", '(', '-', '<', 'é', '中', '😀'];

/** A system prompt and tool set's shared prompt start. */
interface DialectPrefix {
  /** Up to its last control token: the rest of any prompt is tokenized on its own after it. */
  readonly tokens: Token[];
  readonly text: string;
  /** What is evaluated ahead and saved: `tokens`, and the first user turn's opening where every message shares it. */
  readonly evaluated: Token[];
}

/** Tokens kept free after a tool result: its markup and the start of what the model writes next. */
const RESULT_MARGIN_TOKENS = 160;

function toAppError(error: unknown, fallback: AppError['code'], path: string): AppError {
  if (error instanceof HomebodyError) return error.toJSON();
  const message = error instanceof Error ? error.message : String(error);
  if (/unknown model architecture/i.test(message)) {
    return { code: 'MODEL_UNSUPPORTED', message: `llama.cpp cannot run ${path}: ${message}` };
  }
  return { code: fallback, message: `Loading ${path} failed: ${message}` };
}

interface ToolPromptOptions {
  functions?: ChatSessionModelFunctions;
  maxParallelFunctionCalls?: number;
  tokenBias?: () => TokenBias;
  onFunctionCallParamsChunk?: (chunk: { callIndex: number; paramsChunk: string }) => void;
}

/** What one reply has done so far; the steering hook reads it. */
export interface ReplyProgress {
  /** How many calls the model has made so far in this reply. */
  handled: number;
  /** The parameters text of the call being written. */
  params: string;
  /** Calls whose handler has not answered yet. */
  inFlight: number;
  /** The steering ended the reply: it is complete, not stopped by the user. */
  finished: boolean;
  /** The model went past the length cap inside a function call. */
  overrun: boolean;
  /** When the first generated text (reply or call) arrived: the end of prompt evaluation, near enough. */
  decodeStartedAt?: number;
  /** In a dialect reply: the raw text written since the current step's prompt, tags included. */
  text: string;
}

/** The little of a loaded model that steering needs: its tokenizer and its end-of-generation token. */
export interface SteeredModel {
  tokenize(text: string): readonly number[];
  readonly eos: number | null;
  /**
   * In a dialect reply: the text the model would write, from the start of the current step, to make this call
   * (the template's own rendering of it). Absent when node-llama-cpp's chat wrapper speaks to the model.
   */
  readonly callText?: (name: string, args: { readonly [key: string]: WrittenValue }) => string;
}

/**
 * Steers one reply: before each token it names the tokens to favour next (none: the model chooses alone); `end()`
 * ends the reply as complete. A favoured token the grammar does not allow at that point is ignored, so
 * node-llama-cpp's grammar and parser keep doing their work. The engine itself steers nothing
 * (see `LlamaEngine.steering`).
 */
export type ReplySteering = (
  model: SteeredModel,
  options: GenerateOptions,
  progress: Readonly<ReplyProgress>,
  end: () => void,
) => (() => readonly number[]) | undefined;

/** How the Host makes its engines (the chat's and each evaluation's); tests hand it one that wraps LlamaEngine. */
export type EngineFactory = (config: EngineConfig, loadSettings?: () => LoadSettings) => LlamaEngine;

export const createLlamaEngine: EngineFactory = (config, loadSettings) => new LlamaEngine(config, loadSettings);

/**
 * The model runtime around node-llama-cpp: one model and one context at a
 * time, loaded, replaced and disposed under one queue (as node-llama-cpp's
 * Electron template does), with state kept as a value for the UI rather than
 * thrown across processes.
 */
export class LlamaEngine implements ChatEngine {
  private llama: Promise<Llama> | undefined;
  private loaded: Loaded | undefined;
  private current: ModelState = { status: 'none' };
  private readonly listeners = new Set<(state: ModelState) => void>();
  private readonly queue = new SerialQueue();
  private activeGeneration: AbortController | undefined;
  private readonly prefixCache: PrefixStateCache | undefined;
  private readonly grammars: ToolGrammarCheck;
  private readonly dialectGrammars = new DialectGrammars(() => this.loadedLlama!);
  private loadedLlama: Llama | undefined;

  constructor(
    private readonly config: EngineConfig,
    private readonly loadSettings?: () => LoadSettings,
  ) {
    this.grammars = new ToolGrammarCheck(() => this.getLlama(), config.log ?? ((line) => console.warn(line)));
    if (config.prefixCacheDir) {
      this.prefixCache = new PrefixStateCache({
        dir: config.prefixCacheDir,
        log: config.log ?? ((line) => console.warn(line)),
      });
    }
  }

  /**
   * A per-token bias for a reply: none here. A subclass may steer a reply while node-llama-cpp's grammar and parser
   * keep doing their work (src-main/testing/scriptedEngine.ts makes a generated model make the calls a test names).
   */
  protected steering: ReplySteering = () => undefined;

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

  /** The text the model's context holds now, special tokens written out (for the Doctor and for tests). */
  contextText(): string | undefined {
    const loaded = this.loaded;
    return loaded ? loaded.model.detokenize(loaded.sequence.contextTokens, true) : undefined;
  }

  /** The llama.cpp runtime this engine uses (started on first use), for the Doctor's probes and benchmark. */
  runtime(): Promise<Llama> {
    return this.getLlama();
  }

  private getLlama(): Promise<Llama> {
    this.llama ??= getLlama({
      gpu: this.config.gpu,
      maxThreads: this.config.threads,
      // A missing prebuilt binary must be an error, never a silent attempt to download and compile llama.cpp.
      build: 'never',
      logLevel: LlamaLogLevel.error,
    });
    return this.llama;
  }

  /**
   * Opens a model. A change of model is safe: the current one stays loaded until the new one has loaded (beside it
   * when memory allows, else it is closed first and opened again), so a missing, foreign or truncated file, or one
   * llama.cpp refuses, leaves everything as it was: the state is the current model's again, and the promise rejects
   * with why. Without a current model, a failure is the `error` state, as the first run shows it.
   */
  load(path: string): Promise<ModelState> {
    // Replacing the model stops a reply in progress rather than waiting for its end.
    this.activeGeneration?.abort(new HomebodyError('MODEL_LOAD_FAILED', 'the model is being replaced'));
    return this.queue.run(async () => {
      const previous = this.loaded;
      let previousClosed = false;
      this.setState({ status: 'loading', path, progress: 0 });
      try {
        // The file's header first: a file that is not a whole GGUF fails before anything changes.
        const summary = inspectGguf(path);
        if (previous && !roomForBoth(summary.fileBytes)) {
          this.loaded = undefined;
          await closeLoaded(previous);
          previousClosed = true;
        }
        const opened = await this.open(path, summary);
        if (previous && !previousClosed) await closeLoaded(previous);
        this.loaded = opened;
        // The prefix the model's last task started with (its tools), loaded now, so the first task after a restart
        // starts at once; a task with other tools evaluates its own as before.
        await this.prefixCache?.loadLatest(opened.sequence, opened.identity).catch(() => false);
        this.setState({ status: 'ready', info: opened.info });
      } catch (error) {
        const failure = toAppError(error, 'MODEL_LOAD_FAILED', path);
        if (!previous) {
          this.setState({ status: 'error', path, error: failure });
          return this.current;
        }
        if (previousClosed) await this.reopen(previous, failure);
        else this.setState({ status: 'ready', info: previous.info });
        throw new HomebodyError(failure.code, `${failure.message} ${previous.info.name} is still the model in use.`);
      }
      return this.current;
    });
  }

  /** Opens the previous model again after a change that failed (it was closed to make room). */
  private async reopen(previous: Loaded, failure: AppError): Promise<void> {
    try {
      this.loaded = await this.open(previous.info.path, inspectGguf(previous.info.path));
      await this.prefixCache?.loadLatest(this.loaded.sequence, this.loaded.identity).catch(() => false);
      this.setState({ status: 'ready', info: this.loaded.info });
    } catch (error) {
      const again = toAppError(error, 'MODEL_LOAD_FAILED', previous.info.path);
      this.setState({ status: 'error', path: previous.info.path, error: again });
      throw new HomebodyError(
        failure.code,
        `${failure.message} ${previous.info.name}, closed to make room for it, could not be opened again: ${again.message}`,
      );
    }
  }

  /** Loads a model file and its context; nothing of the engine's changes. */
  private async open(path: string, summary: GgufSummary): Promise<Loaded> {
    const llama = await this.getLlama();
    this.loadedLlama = llama;
    const tuning = this.loadSettings?.();
    const threads = tuning?.threads ?? this.config.threads;
    if (llama.maxThreads !== threads) llama.maxThreads = threads;
    let reported = 0;
    const memory = { cpuOnly: llama.gpu === false || tuning?.gpuLayers === 0 };
    const model = await llama.loadModel({
      modelPath: path,
      ...modelMemoryOptions(memory),
      ...(tuning && llama.gpu !== false ? { gpuLayers: tuning.gpuLayers } : {}),
      onLoadProgress: (progress) => {
        // Progress arrives per tensor; a percent step is enough for a progress bar.
        if (progress - reported >= 0.01 || progress === 1) {
          reported = progress;
          this.setState({ status: 'loading', path, progress });
        }
      },
    });
    let context: LlamaContext;
    try {
      const contextSize = Math.min(tuning?.contextSize ?? this.config.contextSize, model.trainContextSize);
      const kvCache = kvCacheTypeOf(this.config.kvCache, contextSize, kvFactsOf(summary).shape);
      context = await model.createContext({
        contextSize,
        threads,
        sequences: 1,
        ...contextMemoryOptions(kvCache, model.flashAttentionSupported),
      });
    } catch (error) {
      await model.dispose();
      throw error;
    }
    const template = summary.metadata.get('tokenizer.chat_template');
    const chatTemplate = typeof template === 'string' ? template : undefined;
    const dialect = detectDialect(chatTemplate);
    const info: ModelInfo = {
      path,
      name: summary.name ?? path.split(/[\\/]/).pop() ?? path,
      architecture: summary.architecture,
      sizeBytes: summary.fileBytes,
      contextSize: context.contextSize,
      trainContextSize: model.trainContextSize,
      synthetic: summary.metadata.get(SYNTHETIC_MODEL_KEY) === true,
      gpu: llama.gpu === false ? 'cpu' : llama.gpu,
      thinkingDefault: thinkingDefaultOf(chatTemplate, dialect),
    };
    return {
      model,
      context,
      sequence: context.getSequence(),
      info,
      identity: modelFileIdentity(path),
      chatWrapper: resolveChatWrapper(model),
      dialect,
      prefixes: new Map(),
    };
  }

  /** The background evaluation of the next task's prefix, stopped (at its next chunk) when a reply comes. */
  private preparing: AbortController | undefined;
  private prepareRequest: PrepareRequest | undefined;

  prepare(request: PrepareRequest): void {
    const first = this.prepareRequest === undefined;
    this.prepareRequest = request;
    if (!first) return; // one is queued already; it takes the latest request
    void this.queue.run(async () => {
      const next = this.prepareRequest;
      this.prepareRequest = undefined;
      const loaded = this.loaded;
      if (!next || !loaded?.dialect) return;
      const controller = new AbortController();
      this.preparing = controller;
      try {
        const tools = next.tools.length ? await this.grammars.usable(next.tools) : [];
        const systemPrompt = next.systemPrompt ?? this.config.systemPrompt;
        const enableThinking = this.enableThinking();
        const tokens = this.dialectPrefix(loaded, loaded.dialect, systemPrompt, tools, enableThinking);
        // Definitions that leave no room for a reply are never the prompt's (a task then offers the callable ones).
        const { contextSize } = loaded.context;
        if (tokens.length + replyReserve(contextSize, next.maxTokens ?? Infinity) > contextSize) return;
        await ensurePrefix({
          sequence: loaded.sequence,
          tokens,
          cache: this.prefixCache,
          model: loaded.identity,
          signal: controller.signal,
        });
      } catch (error) {
        (this.config.log ?? ((line) => console.warn(line)))(
          `prefix: evaluating the next task's tools failed: ${error instanceof Error ? error.message : String(error)}`,
        );
      } finally {
        if (this.preparing === controller) this.preparing = undefined;
      }
    });
  }

  checkMessage(text: string): void {
    const loaded = this.loaded;
    if (loaded) checkMessageLength(loaded.model, loaded.context.contextSize, text);
  }

  generate(options: GenerateOptions): Promise<GenerateResult> {
    // A user's task does not wait for a background evaluation of the tools beyond its current chunk.
    this.preparing?.abort();
    return this.queue.run(async () => {
      const loaded = this.loaded;
      if (!loaded) throw new HomebodyError('NO_MODEL', 'No model is loaded. Open a GGUF model first.');
      const controller = new AbortController();
      this.activeGeneration = controller;
      const abort = () => controller.abort();
      if (options.signal.aborted) abort();
      options.signal.addEventListener('abort', abort, { once: true });

      const sequence = loaded.sequence;
      const progress: ReplyProgress = {
        handled: 0,
        params: '',
        inFlight: 0,
        finished: false,
        overrun: false,
        text: '',
      };
      if (loaded.dialect) {
        try {
          return await this.generateInDialect(loaded, loaded.dialect, options, controller, progress);
        } finally {
          options.signal.removeEventListener('abort', abort);
          if (this.activeGeneration === controller) this.activeGeneration = undefined;
        }
      }
      // Any other model is offered only the callable tools: its wrapper would put every tool in every prompt.
      const callable = options.callableTools && new Set(options.callableTools);
      if (callable && options.tools) options = { ...options, tools: options.tools.filter((t) => callable.has(t.name)) };
      const session = new LlamaChatSession({
        contextSequence: sequence,
        chatWrapper: loaded.chatWrapper,
        autoDisposeSequence: false,
      });
      try {
        // What fits the context: the oldest turns may be left out (the reply says so), or the reply is refused.
        const { contextSize } = loaded.context;
        const systemPrompt = options.systemPrompt ?? this.config.systemPrompt;
        const plan = planContext(loaded.model, session.chatWrapper, contextSize, systemPrompt, options);
        const history = this.chatHistory({ ...options, history: plan.history });
        session.setChatHistory(history);
        const tools = options.tools?.length ? await this.grammars.usable(options.tools) : options.tools;
        const toolOptions = this.toolOptions(loaded, { ...options, ...(tools ? { tools } : {}) }, controller, progress);
        const meterBefore = sequence.tokenMeter.getState();
        const started = performance.now();
        // The system prompt and tool definitions every task starts with: kept in the sequence, else loaded from
        // their saved state, else evaluated (and saved) before the prompt, which then evaluates only its own part.
        await ensurePrefix({
          sequence,
          tokens: sharedPrefixTokens(session.chatWrapper, loaded.model.tokenizer, history[0]!, toolOptions.functions),
          cache: this.prefixCache,
          model: loaded.identity,
          signal: controller.signal,
        });
        let firstChunkAt: number | undefined;
        let text = '';
        let reasoning = '';
        let stopReason: GenerateStopReason = 'aborted';
        try {
          const result = await session.promptWithMeta(options.prompt, {
            ...toolOptions,
            maxTokens: options.maxTokens,
            temperature: options.temperature,
            signal: controller.signal,
            stopOnAbortSignal: true,
            onResponseChunk: (chunk) => {
              firstChunkAt ??= performance.now();
              progress.decodeStartedAt ??= firstChunkAt;
              if (chunk.type === undefined) {
                text += chunk.text;
                options.onText(chunk.text);
              } else if (chunk.segmentType === 'thought') {
                reasoning += chunk.text;
                options.onReasoning(chunk.text);
              }
            },
          });
          stopReason =
            result.stopReason === 'maxTokens' || progress.overrun
              ? 'maxTokens'
              : result.stopReason === 'abort' && !progress.finished
                ? 'aborted'
                : 'complete';
        } catch (error) {
          // An abort before the first token rejects instead of returning; it is still a stop, not a failure.
          if (!controller.signal.aborted) throw contextOverflowDuringReply(error, contextSize);
          if (progress.finished) stopReason = 'complete';
          if (progress.overrun) stopReason = 'maxTokens';
        }
        const ended = performance.now();
        const used = sequence.tokenMeter.diff(meterBefore);
        // Decode speed over every generated token (tool calls included), from the end of prompt evaluation.
        const decodeStart = progress.decodeStartedAt ?? firstChunkAt;
        const decodeSeconds = decodeStart === undefined ? 0 : (ended - decodeStart) / 1000;
        return {
          text,
          reasoning,
          stopReason,
          evaluatedPromptTokens: used.usedInputTokens,
          ...(plan.droppedTurns > 0 ? { droppedTurns: plan.droppedTurns } : {}),
          stats: {
            // The whole prompt as the model saw it, cached prefix included (the context holds prompt + reply).
            promptTokens: Math.max(0, sequence.nextTokenIndex - used.usedOutputTokens),
            completionTokens: used.usedOutputTokens,
            // node-llama-cpp does not count a thought's tokens apart: counted again from its text.
            reasoningTokens: reasoning ? loaded.model.tokenize(reasoning).length : 0,
            ttftMs: firstChunkAt === undefined ? null : firstChunkAt - started,
            tokensPerSecond:
              used.usedOutputTokens > 0 && decodeSeconds > 0 ? used.usedOutputTokens / decodeSeconds : null,
          },
        };
      } finally {
        options.signal.removeEventListener('abort', abort);
        if (this.activeGeneration === controller) this.activeGeneration = undefined;
        session.dispose({ disposeSequence: false });
      }
    });
  }

  /** The conversation as the dialect's template reads it: the system prompt, earlier turns, the new message. */
  private templateMessages(systemPrompt: string, history: readonly ChatTurn[], prompt: string): TemplateMessage[] {
    return [
      { role: 'system', content: systemPrompt },
      ...history.map((turn): TemplateMessage => ({ role: turn.role, content: asPlainText(turn.text) })),
      { role: 'user', content: asPlainText(prompt) },
    ];
  }

  /**
   * The tokens every prompt with this system prompt and these tools starts with (the system turn and every tool's
   * definition): the rendering of two requests that differ only in the user's text, up to where they part.
   */
  private dialectPrefix(
    loaded: Loaded,
    dialect: ToolDialect,
    systemPrompt: string,
    tools: readonly EngineTool[],
    enableThinking: boolean | undefined,
  ): Token[] {
    return this.prefixOf(loaded, dialect, systemPrompt, tools, enableThinking).evaluated;
  }

  /**
   * A prompt's tokens: those of the shared prefix (system prompt and every tool, thousands of tokens) as already
   * known, then the rest tokenized. The prefix ends after a control token (`<|im_start|>`), where tokenizing the
   * whole text would cut the same way.
   */
  private promptTokenizer(
    loaded: Loaded,
    dialect: ToolDialect,
    systemPrompt: string,
    tools: readonly EngineTool[],
    enableThinking: boolean | undefined,
  ): (text: string) => Token[] {
    const prefix = this.prefixOf(loaded, dialect, systemPrompt, tools, enableThinking);
    return (text) =>
      text.startsWith(prefix.text)
        ? [...prefix.tokens, ...loaded.model.tokenize(text.slice(prefix.text.length), true)]
        : loaded.model.tokenize(text, true);
  }

  private prefixOf(
    loaded: Loaded,
    dialect: ToolDialect,
    systemPrompt: string,
    tools: readonly EngineTool[],
    enableThinking: boolean | undefined,
  ): DialectPrefix {
    const key = JSON.stringify([systemPrompt, tools, enableThinking ?? null]);
    const known = loaded.prefixes.get(key);
    if (known) return known;
    const render = (text: string) =>
      dialect.render({
        messages: this.templateMessages(systemPrompt, [], text),
        tools: toolsForTemplate(tools),
        add_generation_prompt: true,
        ...(enableThinking === undefined ? {} : { enable_thinking: enableThinking }),
      });
    const a = loaded.model.tokenize(render('a'), true);
    const b = loaded.model.tokenize(render('b'), true);
    let shared = 0;
    while (shared < a.length && shared < b.length && a[shared] === b[shared]) shared++;
    // Up to the last control token before the parting, so the rest of any prompt tokenizes on its own as it would
    // within the whole text.
    let end = shared;
    while (end > 0 && !isControl(loaded.model, a[end - 1]!)) end--;
    const tokens = a.slice(0, end);
    const text = loaded.model.detokenize(tokens, true);
    // The first user turn's opening after that token (`user\n`) is the same for every message: evaluated with the
    // prefix, it is that many fewer tokens for a new task to evaluate once sent (about 25 ms each at this depth on
    // 2 cores). Only where it is how any message's turn tokenizes: a message reaches here trimmed (the contract
    // trims it), and these stand for the ways one can start.
    const head = a.slice(end, shared);
    const opensEveryTurn = NEW_TURN_PROBES.every((probe) => {
      const rendered = render(probe);
      if (!rendered.startsWith(text)) return false;
      const rest = loaded.model.tokenize(rendered.slice(text.length), true);
      return head.every((token, i) => rest[i] === token);
    });
    const prefix: DialectPrefix = { tokens, text, evaluated: opensEveryTurn ? a.slice(0, shared) : tokens };
    if (loaded.prefixes.size >= 4) loaded.prefixes.delete(loaded.prefixes.keys().next().value!);
    loaded.prefixes.set(key, prefix);
    return prefix;
  }

  /** The user's thinking choice for this model, as the template's `enable_thinking` (undefined: its default). */
  private enableThinking(): boolean | undefined {
    const choice = this.loadSettings?.().thinking ?? 'auto';
    return choice === 'auto' ? undefined : choice === 'on';
  }

  /**
   * A reply in the model's own dialect (dialect/dialectReply.ts): every tool is in one stable prefix, evaluated
   * once and kept (in the sequence, and on disk across restarts); the relevant ones are the only names the call
   * grammar allows.
   */
  private async generateInDialect(
    loaded: Loaded,
    dialect: ToolDialect,
    options: GenerateOptions,
    controller: AbortController,
    progress: ReplyProgress,
  ): Promise<GenerateResult> {
    const { sequence, model } = loaded;
    const { contextSize } = loaded.context;
    const systemPrompt = options.systemPrompt ?? this.config.systemPrompt;
    const enableThinking = this.enableThinking();
    const allTools = options.tools?.length ? await this.grammars.usable(options.tools) : [];
    const callableNames = options.callableTools && new Set(options.callableTools);
    const callable = callableNames ? allTools.filter((tool) => callableNames.has(tool.name)) : allTools;
    const render = (turns: readonly ChatTurn[], tools: readonly EngineTool[]) =>
      dialect.render({
        messages: this.templateMessages(systemPrompt, turns, options.prompt),
        tools: toolsForTemplate(tools),
        add_generation_prompt: true,
        ...(enableThinking === undefined ? {} : { enable_thinking: enableThinking }),
      });
    // Every tool in the prompt when they fit with room for the reply; else, as for other models, the callable ones
    // (a new task then evaluates its own tool section: slower, but it runs).
    const fits = (tools: readonly EngineTool[]) =>
      this.promptTokenizer(loaded, dialect, systemPrompt, tools, enableThinking)(render([], tools)).length +
        replyReserve(contextSize, options.maxTokens) <=
      contextSize;
    const promptTools = callable.length < allTools.length && !fits(allTools) ? callable : allTools;
    const tokenize = this.promptTokenizer(loaded, dialect, systemPrompt, promptTools, enableThinking);
    const plan = planContextBy(model, contextSize, (turns) => tokenize(render(turns, promptTools)).length, {
      ...options,
      tools: promptTools,
    });
    const messages = this.templateMessages(systemPrompt, plan.history, options.prompt);
    const onToolCall = options.onToolCall;
    const steered: SteeredModel = {
      tokenize: (text) => model.tokenize(text, true),
      eos: model.tokens.eos,
      callText: (name, args) =>
        scriptedCallText(
          dialect,
          { messages: this.stepMessages, tools: promptTools, enableThinking },
          { name, arguments: args },
        ),
    };
    this.stepMessages = messages;
    const favoured = this.steering(steered, options, progress, () => {
      progress.finished = true;
      controller.abort();
    });
    const meterBefore = sequence.tokenMeter.getState();
    const started = performance.now();
    let result;
    try {
      result = await dialectReply({
        model,
        sequence,
        dialect,
        grammars: this.dialectGrammars,
        messages,
        tools: promptTools,
        callable,
        enableThinking,
        maxTokens: options.maxTokens,
        temperature: options.temperature,
        signal: controller.signal,
        // A steered reply makes its calls one at a time, as the script lists them.
        maxParallelCalls: favoured ? 1 : Infinity,
        onText: options.onText,
        onReasoning: options.onReasoning,
        progress,
        onStep: (conversation) => {
          this.stepMessages = conversation;
        },
        ...(favoured ? { favoured } : {}),
        ...(onToolCall
          ? {
              onToolCall: async (call: ParsedCall) => {
                const told = await onToolCall(call.name, plainValue(call.arguments), call.arguments);
                // A result gets at most a quarter of the context, and never more than the room left in it (every
                // tool's definition takes its share), with some kept for what the model writes next.
                const room = contextSize - sequence.nextTokenIndex - RESULT_MARGIN_TOKENS;
                return asPlainText(
                  clipToolResult(model, told, Math.max(32, Math.min(toolResultLimit(contextSize), room))),
                );
              },
            }
          : {}),
        tokenize,
        ensurePrefix: async () => {
          const outcome = await ensurePrefix({
            sequence,
            tokens: this.dialectPrefix(loaded, dialect, systemPrompt, promptTools, enableThinking),
            cache: this.prefixCache,
            model: loaded.identity,
            signal: controller.signal,
          });
          return outcome.source === 'skipped' ? 0 : outcome.prefixTokens;
        },
      });
    } catch (error) {
      throw contextOverflowDuringReply(error, contextSize);
    }
    const ended = performance.now();
    const used = sequence.tokenMeter.diff(meterBefore);
    const decodeStart = progress.decodeStartedAt ?? result.firstTokenAt;
    const decodeSeconds = decodeStart === undefined ? 0 : (ended - decodeStart) / 1000;
    const stopReason: GenerateStopReason = progress.overrun ? 'maxTokens' : result.stopReason;
    return {
      text: result.text,
      reasoning: result.reasoning,
      stopReason,
      evaluatedPromptTokens: used.usedInputTokens,
      ...(plan.droppedTurns > 0 ? { droppedTurns: plan.droppedTurns } : {}),
      stats: {
        promptTokens: result.promptTokens,
        completionTokens: used.usedOutputTokens,
        reasoningTokens: result.reasoningTokens,
        ttftMs: result.firstTokenAt === undefined ? null : result.firstTokenAt - started,
        tokensPerSecond: used.usedOutputTokens > 0 && decodeSeconds > 0 ? used.usedOutputTokens / decodeSeconds : null,
      },
    };
  }

  /** The conversation of the dialect reply's current step (what a script's call text is written after). */
  private stepMessages: readonly TemplateMessage[] = [];

  /** Function calling and any steering, as node-llama-cpp's prompt options. */
  private toolOptions(
    loaded: Loaded,
    options: GenerateOptions,
    controller: AbortController,
    progress: ReplyProgress,
  ): ToolPromptOptions {
    const extra: ToolPromptOptions = {};
    if (options.tools?.length) {
      const onToolCall = options.onToolCall;
      if (!onToolCall) throw new Error('tools were offered without a handler for their calls');
      extra.functions = Object.fromEntries(
        options.tools.map((tool) => [
          tool.name,
          {
            description: tool.description,
            // Schemas come normalized to the subset node-llama-cpp's grammar supports (tools/schema).
            params: tool.parameters as GbnfJsonSchema,
            handler: async (params: unknown) => {
              progress.decodeStartedAt ??= performance.now();
              progress.handled++;
              progress.params = '';
              progress.inFlight++;
              try {
                // A long result is cut to fit the context, and the model is told so.
                const result = await onToolCall(tool.name, params);
                return clipToolResult(loaded.model, result, toolResultLimit(loaded.context.contextSize));
              } finally {
                progress.inFlight--;
              }
            },
          },
        ]),
      );
    }
    const model: SteeredModel = {
      tokenize: (text) => loaded.model.tokenize(text, true),
      eos: loaded.model.tokens.eos,
    };
    const favoured = this.steering(model, options, progress, () => {
      progress.finished = true;
      controller.abort();
    });
    if (favoured) {
      // A steered reply makes its calls one at a time: steering cannot end a section of calls (node-llama-cpp's
      // TokenBias ignores end-of-generation tokens), so a model left to itself there while a handler runs would
      // open calls of its own.
      extra.maxParallelFunctionCalls = 1;
      extra.tokenBias = () => {
        const bias = new TokenBias(loaded.model.tokenizer);
        for (const token of favoured()) bias.set(token as Token, { logit: 1000 });
        return bias;
      };
    }
    if (options.tools?.length) {
      // maxTokens does not count what the model writes inside a function call: a model stuck in a call it never
      // closes is stopped here, by the length of what it wrote there.
      const cap = options.maxTokens * 2 + 256;
      let chunks = 0;
      extra.onFunctionCallParamsChunk = (chunk) => {
        progress.decodeStartedAt ??= performance.now();
        progress.params += chunk.paramsChunk;
        if (++chunks > cap) {
          progress.overrun = true;
          controller.abort();
        }
      };
    }
    return extra;
  }

  private chatHistory(options: GenerateOptions): ChatHistoryItem[] {
    return [
      { type: 'system', text: options.systemPrompt ?? this.config.systemPrompt },
      ...options.history.map((turn): ChatHistoryItem =>
        turn.role === 'user' ? { type: 'user', text: turn.text } : { type: 'model', response: [turn.text] },
      ),
    ];
  }

  private async unload(): Promise<void> {
    const loaded = this.loaded;
    this.loaded = undefined;
    if (loaded) await closeLoaded(loaded);
  }

  /** Closes the loaded model, so its file is no longer held (before it is deleted); the state becomes none. */
  close(): Promise<ModelState> {
    this.activeGeneration?.abort(new HomebodyError('MODEL_LOAD_FAILED', 'the model was closed'));
    return this.queue.run(async () => {
      await this.unload();
      this.setState({ status: 'none' });
      return this.current;
    });
  }

  dispose(): Promise<void> {
    this.activeGeneration?.abort();
    return this.queue.run(async () => {
      await this.unload();
      const llama = await this.llama;
      this.llama = undefined;
      await llama?.dispose();
      this.setState({ status: 'none' });
    });
  }
}
