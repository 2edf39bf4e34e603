import type { ChatStats, ModelState } from '../../src-shared/contract/index.js';
import type { WrittenValue } from './writtenJson.js';

export interface ChatTurn {
  readonly role: 'user' | 'assistant';
  readonly text: string;
}

/** A tool as the model is offered it: a name, what it does, and a JSON Schema its arguments must match. */
export interface EngineTool {
  readonly name: string;
  readonly description: string;
  readonly parameters: Readonly<Record<string, unknown>>;
}

export interface GenerateOptions {
  /** Earlier turns of the task, oldest first, without the new prompt. */
  readonly history: readonly ChatTurn[];
  readonly prompt: string;
  /** Replaces the configured system prompt for this reply (an evaluation case that brings its own). */
  readonly systemPrompt?: string;
  readonly maxTokens: number;
  readonly temperature: number;
  readonly signal: AbortSignal;
  readonly onText: (text: string) => void;
  readonly onReasoning: (text: string) => void;
  /** Tools the model may call, through grammar-constrained function calling. */
  readonly tools?: readonly EngineTool[];
  /**
   * The names among `tools` the model may call in this reply (the ones ranked relevant); all when absent. A model
   * spoken to in its own dialect reads every tool in one stable prompt prefix and is steered by the grammar to these;
   * any other model is offered these only.
   */
  readonly callableTools?: readonly string[];
  /**
   * Runs a call the model made and returns what the model is told. Required when `tools` is given. `written` is
   * the same arguments as the model wrote them, numbers keeping their literal (`5.0` is not `5`), where the
   * engine's dialect parses them so; the evaluation scores on it as BFCL does.
   */
  readonly onToolCall?: (name: string, args: unknown, written?: WrittenValue) => Promise<string>;
  /**
   * How many tool results the history and prompt already hold (earlier calls of the task): a model on another
   * computer is sent them, and the ledger says so.
   */
  readonly priorToolResults?: number;
}

export interface PrepareRequest {
  readonly tools: readonly EngineTool[];
  readonly systemPrompt?: string;
  /** The replies' length cap, for the room a reply needs (default: a quarter of the context). */
  readonly maxTokens?: number;
}

/** complete: the model ended its turn; maxTokens: the length cap ended it; aborted: the user stopped it. */
export type GenerateStopReason = 'complete' | 'maxTokens' | 'aborted';

export interface GenerateResult {
  readonly text: string;
  readonly reasoning: string;
  readonly stopReason: GenerateStopReason;
  readonly stats: ChatStats;
  /** Prompt tokens evaluated for this reply; the rest came from the cached prefix. */
  readonly evaluatedPromptTokens: number;
  /** Earlier turns left out so the reply fits the model's context (absent or 0: none were). */
  readonly droppedTurns?: number;
}

/**
 * What the agent needs of a model runtime. The real one wraps node-llama-cpp;
 * unit tests hand the agent a fake one, integration tests a LlamaEngine steered by a script
 * (src-main/testing/scriptedEngine.ts).
 */
export interface ChatEngine {
  readonly state: ModelState;
  onStateChange(listener: (state: ModelState) => void): () => void;
  /**
   * Loads a GGUF file, replacing (and first stopping) whatever runs now. A first load never throws: the result is a
   * state. A change of model that fails rejects with why, and the model in use stays as it was.
   */
  load(path: string): Promise<ModelState>;
  generate(options: GenerateOptions): Promise<GenerateResult>;
  /**
   * Throws CONTEXT_OVERFLOW when a message is too long for the loaded model to take at all, so it is refused before
   * anything is saved; a message that fits may still leave earlier turns out (the reply says so).
   */
  checkMessage?(text: string): void;
  /**
   * The tools (and system prompt) the next task will start with, told when they change: an engine that keeps an
   * evaluated prompt prefix evaluates it now, in the background, so that task starts at once. A reply that arrives
   * meanwhile goes first.
   */
  prepare?(request: PrepareRequest): void;
  dispose(): Promise<void>;
}
