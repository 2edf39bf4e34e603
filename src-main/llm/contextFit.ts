import type { ChatHistoryItem, ChatModelFunctions, ChatWrapper, LlamaModel } from 'node-llama-cpp';
import { HomebodyError, messageTooLong } from '../../src-shared/contract/index.js';
import type { ChatTurn, EngineTool, GenerateOptions } from './engineTypes.js';
import { fitHistory, omissionNote } from './fitHistory.js';

/** The chat template's markup around one turn, near enough (Qwen: `<|im_start|>role\n … <|im_end|>\n`, thoughts). */
const TURN_OVERHEAD = 12;

/** Room kept for the reply (its text and its tool calls and results): at most a quarter of the context. */
export function replyReserve(contextSize: number, maxTokens: number): number {
  return Math.min(maxTokens, Math.floor(contextSize / 4));
}

/** A tool result longer than this many tokens is cut before the model reads it. */
export function toolResultLimit(contextSize: number): number {
  return Math.max(32, Math.floor(contextSize / 4));
}

export interface ContextPlan {
  /** The turns to give the model: all of them, or the ones that fit with a note where others were left out. */
  readonly history: ChatTurn[];
  readonly droppedTurns: number;
}

export function toChatHistory(systemPrompt: string, turns: readonly ChatTurn[]): ChatHistoryItem[] {
  return [
    { type: 'system', text: systemPrompt },
    ...turns.map((turn): ChatHistoryItem =>
      turn.role === 'user' ? { type: 'user', text: turn.text } : { type: 'model', response: [turn.text] },
    ),
  ];
}

function asFunctions(tools: readonly EngineTool[] | undefined): ChatModelFunctions | undefined {
  if (!tools?.length) return undefined;
  return Object.fromEntries(
    tools.map((t) => [t.name, { description: t.description, params: t.parameters }]),
  ) as ChatModelFunctions;
}

/**
 * Which earlier turns the next reply can see: the system prompt, the tool definitions, the new prompt and room
 * for the reply always fit, or the reply is refused with CONTEXT_OVERFLOW saying what to change; the history gets
 * the rest, by `fitHistory`'s rule.
 */
export function planContext(
  model: LlamaModel,
  chatWrapper: ChatWrapper,
  contextSize: number,
  systemPrompt: string,
  options: Pick<GenerateOptions, 'history' | 'prompt' | 'tools' | 'maxTokens'>,
): ContextPlan {
  const functions = asFunctions(options.tools);
  const count = (turns: readonly ChatTurn[]) =>
    chatWrapper
      .generateContextState({
        chatHistory: [
          ...toChatHistory(systemPrompt, turns),
          { type: 'user', text: options.prompt },
          { type: 'model', response: [] },
        ],
        ...(functions ? { availableFunctions: functions } : {}),
      })
      .contextText.tokenize(model.tokenizer).length;
  return planContextBy(model, contextSize, count, options);
}

/**
 * Refuses a message longer than half the model's context (CONTEXT_OVERFLOW, in the words every too-long message
 * gets): the rest is for the instructions, the tools, earlier turns and the reply.
 */
export function checkMessageLength(model: LlamaModel, contextSize: number, text: string): void {
  const tokens = model.tokenize(text).length;
  if (tokens <= contextSize / 2) return;
  throw new HomebodyError(
    'CONTEXT_OVERFLOW',
    messageTooLong(
      `it is ${tokens.toLocaleString('en-US')} tokens long, and this model takes at most ${Math.floor(contextSize / 2).toLocaleString('en-US')} in one message (half its context; a larger context size in the model settings takes more)`,
    ),
  );
}

/** `planContext` for any prompt format: `count` gives the prompt's length in tokens with these earlier turns. */
export function planContextBy(
  model: LlamaModel,
  contextSize: number,
  count: (turns: readonly ChatTurn[]) => number,
  options: Pick<GenerateOptions, 'history' | 'prompt' | 'tools' | 'maxTokens'>,
): ContextPlan {
  checkMessageLength(model, contextSize, options.prompt);
  const reserve = replyReserve(contextSize, options.maxTokens);
  const fixed = count([]);
  if (fixed + reserve > contextSize) {
    throw new HomebodyError(
      'CONTEXT_OVERFLOW',
      `The instructions, the ${options.tools?.length ?? 0} tools offered and the message take ${fixed} tokens, which leaves too little of this model's ${contextSize}-token context for a reply. Shorten the message, switch off tools you do not need, or raise the context size in the model settings.`,
    );
  }
  if (options.history.length === 0) return { history: [], droppedTurns: 0 };

  const room = contextSize - fixed - reserve;
  const sized = options.history.map((turn) => ({ turn, tokens: model.tokenize(turn.text).length + TURN_OVERHEAD }));
  const noteTokens = model.tokenize(omissionNote(sized.length)).length + TURN_OVERHEAD;
  // The per-turn sizes are close, not exact: check the result as the model will read it, and tighten if needed.
  for (let budget = room; budget > 0; budget = Math.floor(budget * 0.8)) {
    const fitted = fitHistory(sized, budget, noteTokens);
    if (count(fitted.history) + reserve <= contextSize)
      return { history: fitted.history, droppedTurns: fitted.dropped };
    if (fitted.history.length === 0) break;
  }
  return { history: [], droppedTurns: options.history.length };
}

/** A tool result cut to `limit` tokens, with a line telling the model that it was. */
export function clipToolResult(model: LlamaModel, result: string, limit: number): string {
  const tokens = model.tokenize(result);
  if (tokens.length <= limit) return result;
  return `${model.detokenize(tokens.slice(0, limit))}\n[Truncated: the result was ${tokens.length} tokens long; only the first ${limit} are shown, to fit the model's context.]`;
}

/** node-llama-cpp's "context too small" failure, as the error the user is shown. */
export function contextOverflowDuringReply(error: unknown, contextSize: number): unknown {
  const message = error instanceof Error ? error.message : String(error);
  // "The context size is too small to generate a response", "The default context shift strategy did not return a
  // history that fits the context size. …"
  if (!/context (size|shift)/i.test(message) || !/too small|fits? the context/i.test(message)) return error;
  return new HomebodyError(
    'CONTEXT_OVERFLOW',
    `The model's ${contextSize}-token context filled up while it was replying (long tool results take room too), so Homebody stopped the reply. Start a new task, or raise the context size in the model settings.`,
  );
}
