/**
 * Test support: a LlamaEngine that a script steers. A generated (random-weight) model never calls a tool by itself
 * and never ends its turn, so for each prompt a test names, the model is pushed, token by token, to make the named
 * calls and then end its reply; node-llama-cpp's grammar and parser still do their real work on what it writes.
 * A reply no script names is capped at a handful of tokens, so no test waits for a random model to ramble; in a
 * scripted reply, a call the random model opens past the script's never reaches the app.
 *
 * Production code never sees this module: the Host takes it through `createEngine` (CreateHostOptions) and the
 * browser-mode entry for end-to-end tests is src-main/testing/scriptedServe.ts.
 */
import { defaultEngineConfig, type EngineConfig } from '../llm/engineConfig.js';
import type { EngineTool, GenerateOptions, GenerateResult } from '../llm/engineTypes.js';
import {
  LlamaEngine,
  type EngineFactory,
  type LoadSettings,
  type ReplyProgress,
  type ReplySteering,
  type SteeredModel,
} from '../llm/llamaEngine.js';
import { BUILTIN_TOOLS } from '../tools/builtin/index.js';
import { normalizeParameters, normalizeToolName } from '../tools/schema/index.js';
import { parseWrittenJson, type WrittenValue } from '../llm/writtenJson.js';
import { requestLine } from '../agent/chatRunner.js';
import type { ScriptedCall } from './scriptedCall.js';

export type Scripts = Readonly<Record<string, readonly ScriptedCall[]>>;

export interface ScriptOptions {
  /** Longest reply to a prompt no script names; default 8 tokens. `Infinity` keeps the caller's maxTokens. */
  readonly unscriptedTokens?: number;
  /** Tools a script may call that are not built in (an MCP server's), as the model would be offered them. */
  readonly extraTools?: readonly EngineTool[];
}

export const UNSCRIPTED_TOKENS = 8;

/**
 * A script's calls, with the given prompt trimmed as the chat stores it: the script named by the prompt, else the
 * first whose name has a `*` (any text, new lines included) and matches it whole. A task that goes on after the
 * approval queue is told a prompt Homebody writes (the outcomes, then the request), which a script names as
 * `*Go on with their request ("...")*`.
 */
export function scriptFor(scripts: Scripts, prompt: string): readonly ScriptedCall[] | undefined {
  const text = prompt.trim();
  if (Object.hasOwn(scripts, text)) return scripts[text];
  const matching = Object.keys(scripts).find((key) => key.includes('*') && wildcard(key).test(text));
  return matching === undefined ? undefined : scripts[matching];
}

function wildcard(key: string): RegExp {
  const parts = key.split('*').map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
  return new RegExp(`^${parts.join('[\\s\\S]*')}$`);
}

/**
 * The script's calls under the names the model is offered: an evaluation offers `math.factorial` as
 * `math_factorial` (tools/schema's safe names), and a script names the tool as the case does.
 */
function asOffered(calls: readonly ScriptedCall[], tools: readonly EngineTool[]): ScriptedCall[] {
  const offered = new Set(tools.map((tool) => tool.name));
  return calls.map((call) =>
    offered.has(call.name) || !offered.has(normalizeToolName(call.name))
      ? call
      : { ...call, name: normalizeToolName(call.name) },
  );
}

/** The built-in tools as the model is offered them, by name. */
function builtinEngineTools(): ReadonlyMap<string, EngineTool> {
  return new Map(
    BUILTIN_TOOLS.map((tool) => [
      tool.name,
      { name: tool.name, description: tool.description, parameters: normalizeParameters(tool.parameters) },
    ]),
  );
}

/**
 * Pushes `calls`, one after the other, then ends the reply. Each call's opening (`<tool_call>` and the name) is
 * pushed token by token; its parameters are aligned by text with what node-llama-cpp reports of them, since its
 * grammar writes parts of the call itself; then the call is closed and the calls section ended, so node-llama-cpp
 * runs it and feeds the result back.
 */
export function scriptSteering(calls: readonly ScriptedCall[]): ReplySteering {
  return (model: SteeredModel, options, progress, end) => {
    if (model.callText) return dialectSteering(calls, model, progress, end);
    // Qwen's closing of a call; a random model would not write it by itself.
    const closing = model.tokenize('}\n</tool_call>');
    const eos = model.eos === null ? [] : [model.eos];
    let current = -1;
    let opening: readonly number[] = [];
    let next = 0;
    let closed = 0;
    return () => {
      const call = calls[progress.handled];
      if (!call) {
        // A call's handler is still running. The end token is favoured, though node-llama-cpp ignores a bias on it:
        // what keeps the model from opening calls of its own meanwhile is that a steered reply makes one call at a time.
        if (progress.inFlight > 0) return eos;
        // The script is played and its results are in: end the reply here (a random model would ramble, or open a
        // call it never closes).
        end();
        return [];
      }
      if (current !== progress.handled) {
        current = progress.handled;
        // Up to the name: the grammar writes what follows. (A name that begins another tool's name, as `move` would
        // begin `move_to_trash`, could not be pushed to its end; the built-in tools avoid such names.)
        opening = model.tokenize(`<tool_call>\n{"name": "${call.name}`);
        next = 0;
        closed = 0;
      }
      if (next < opening.length) return [opening[next++]!];
      if (!call.params.startsWith(progress.params)) return [];
      if (progress.params === call.params) {
        if (closed < closing.length) return [closing[closed++]!];
        return eos;
      }
      const token = model.tokenize(call.params.slice(progress.params.length))[0];
      return token === undefined ? [] : [token];
    };
  };
}

/**
 * The steering of a reply in the model's own dialect: each call is written as the template writes it (thought
 * closed first where the prompt opened one), token by token from the model's own tokenization of that text, and
 * the call grammar checks every token; when the script is played and its results are in, the reply ends.
 */
function dialectSteering(
  calls: readonly ScriptedCall[],
  model: SteeredModel,
  progress: Readonly<ReplyProgress>,
  end: () => void,
): () => readonly number[] {
  let step = -1;
  let target = '';
  return () => {
    const call = calls[progress.handled];
    if (!call) {
      if (progress.inFlight === 0) end();
      return [];
    }
    if (step !== progress.handled || progress.text === '') {
      step = progress.handled;
      target = model.callText!(call.name, parseWrittenJson(call.params) as { readonly [key: string]: WrittenValue });
    }
    const written = progress.text;
    if (!target.startsWith(written) || written.length >= target.length) return [];
    const token = model.tokenize(target.slice(written.length))[0];
    return token === undefined ? [] : [token];
  };
}

/** A LlamaEngine that plays `scripts` on a generated model (see the module comment). */
export class ScriptedEngine extends LlamaEngine {
  private readonly toolsByName: ReadonlyMap<string, EngineTool>;
  private readonly unscriptedTokens: number;
  /**
   * The calls a script had left when its reply ended at a prompt, by the request they were for: the reply that goes
   * on after the user's answer (told `Go on with their request ("...")`) plays them, as the model would carry on
   * with its plan. A script that names that prompt itself comes first.
   */
  private readonly leftover = new Map<string, readonly ScriptedCall[]>();
  /** The calls the replies being generated play, by the prompt each was given (what the steering is handed). */
  private readonly playing = new Map<string, readonly ScriptedCall[]>();

  constructor(
    config: EngineConfig,
    loadSettings: (() => LoadSettings) | undefined,
    private readonly scripts: Scripts,
    options: ScriptOptions = {},
  ) {
    super(config, loadSettings);
    this.unscriptedTokens = options.unscriptedTokens ?? UNSCRIPTED_TOKENS;
    this.toolsByName = new Map([
      ...builtinEngineTools(),
      ...(options.extraTools ?? []).map((tool) => [tool.name, tool] as const),
    ]);
    this.steering = (model, generateOptions, progress, end) => {
      const calls = this.playing.get(generateOptions.prompt);
      if (!calls) return undefined;
      return scriptSteering(asOffered(calls, generateOptions.tools ?? []))(model, generateOptions, progress, end);
    };
  }

  /** The calls to play for a prompt, and the request they are for: its script, else what a prompt left of one. */
  private callsFor(prompt: string): { calls: readonly ScriptedCall[]; request: string } | undefined {
    const calls = scriptFor(this.scripts, prompt);
    if (calls) return { calls, request: prompt.trim() };
    for (const [request, rest] of this.leftover) {
      if (prompt.includes(requestLine(request))) return { calls: rest, request };
    }
    return undefined;
  }

  override async generate(options: GenerateOptions): Promise<GenerateResult> {
    const scripted = this.callsFor(options.prompt);
    if (!scripted) return super.generate({ ...options, maxTokens: Math.min(options.maxTokens, this.unscriptedTokens) });
    const { calls, request } = scripted;
    this.leftover.delete(request);
    this.playing.set(options.prompt, calls);
    if (this.state.status === 'ready' && !this.state.info.synthetic) {
      throw new Error('A script steers only a generated model; the loaded model is a real one.');
    }
    // A scripted call's tool is offered as a tool the model chose would be: the tool selection ranks by the
    // prompt's words, and a call to a tool left out of the offer could not be written at all.
    const offered = options.tools ?? [];
    const missing = asOffered(calls, offered)
      .map((call) => call.name)
      .filter((name, i, names) => names.indexOf(name) === i && !offered.some((tool) => tool.name === name))
      .map((name) => this.toolsByName.get(name))
      .filter((tool): tool is EngineTool => tool !== undefined);
    // Only the script's calls reach the app: a random model may open one more call while the last scripted one's
    // handler runs (the grammar allows parallel calls), and that noise would land beside the call a test looks at.
    const onToolCall = options.onToolCall;
    let made = 0;
    const names = asOffered(calls, offered).map((call) => call.name);
    const result = await super
      .generate({
        ...options,
        ...(options.tools ? { tools: [...offered, ...missing] } : {}),
        // A scripted call is one the ranking let through, as a call the model chose would be.
        ...(options.callableTools ? { callableTools: [...new Set([...options.callableTools, ...names])] } : {}),
        ...(onToolCall
          ? {
              onToolCall: (name: string, args: unknown, written?: WrittenValue) =>
                ++made > calls.length
                  ? Promise.resolve('Error: no such call was expected.')
                  : onToolCall(name, args, written),
            }
          : {}),
      })
      .finally(() => this.playing.delete(options.prompt));
    // Ended at a call (a prompt ends the reply): the rest of the script, maybe nothing, is for the reply after the
    // answer, which then ends as the script would have.
    if (made > 0 && options.signal.aborted) this.leftover.set(request, calls.slice(made));
    return result;
  }
}

/** The Host's `createEngine` for a test: every engine it makes (the chat's, each evaluation's) plays `scripts`. */
export function scriptedEngines(scripts: Scripts, options: ScriptOptions = {}): EngineFactory {
  return (config, loadSettings) => new ScriptedEngine(config, loadSettings, scripts, options);
}

/** A scripted engine on the default configuration, for tests that drive the engine without a Host. */
export function scriptedEngine(scripts: Scripts, config: Partial<EngineConfig> = {}, options: ScriptOptions = {}) {
  return new ScriptedEngine({ ...defaultEngineConfig(), ...config }, undefined, scripts, options);
}
