/**
 * One reply in a model's own dialect, on node-llama-cpp's sequence API: the dialect renders the conversation as the
 * model's template does, the sequence keeps what it already evaluated of that text, and the model writes freely
 * until it opens a call; the call is then written under a grammar derived from the callable tools' schemas, read
 * back with its numbers as written, run, and its result rendered into the next prompt, as the template says. The
 * prompt of every step is the template's rendering of the conversation so far, so what the model reads back is
 * what it was trained on, whatever it wrote itself.
 */
import {
  LlamaGrammar,
  LlamaGrammarEvaluationState,
  TokenBias,
  type Llama,
  type LlamaContextSequence,
  type LlamaModel,
  type Token,
} from 'node-llama-cpp';
import type { EngineTool } from '../engineTypes.js';
import type { WrittenValue } from '../writtenJson.js';
import { ReplyText } from './replyText.js';
import type { TemplateMessage, TemplateToolCall } from './templateTypes.js';
import {
  CALL_CLOSE,
  CALL_OPEN,
  THINK_OPEN,
  toolsForTemplate,
  type ParsedCall,
  type ToolDialect,
} from './toolDialect.js';

/** What one step of a reply has written so far; the steering reads it. */
export interface DialectProgress {
  /** Calls made so far in this reply. */
  handled: number;
  /** Calls whose handler has not answered yet. */
  inFlight: number;
  /** The raw text the model has written in this step (since the last prompt), tags included. */
  text: string;
  /** The steering ended the reply: it is complete, not stopped by the user. */
  finished: boolean;
  /** The model went past the length cap inside a call. */
  overrun: boolean;
  decodeStartedAt?: number;
}

export interface DialectReplyOptions {
  readonly model: LlamaModel;
  readonly sequence: LlamaContextSequence;
  readonly dialect: ToolDialect;
  readonly grammars: DialectGrammars;
  /** System prompt, earlier turns and the new user message. */
  readonly messages: readonly TemplateMessage[];
  /** Every tool in the prompt (one stable prefix). */
  readonly tools: readonly EngineTool[];
  /** The tools the grammar lets the model call now (the relevant ones); all of `tools` when absent. */
  readonly callable?: readonly EngineTool[];
  readonly enableThinking: boolean | undefined;
  readonly maxTokens: number;
  readonly temperature: number;
  readonly signal: AbortSignal;
  readonly maxParallelCalls: number;
  readonly onText: (text: string) => void;
  readonly onReasoning: (text: string) => void;
  /** Runs a call; returns what the model is told. */
  readonly onToolCall?: (call: ParsedCall) => Promise<string>;
  /** Tokens to favour before each sampled token (a test's script); none when absent. */
  readonly favoured?: () => readonly number[];
  readonly progress: DialectProgress;
  /** Told the conversation at the start of each step (the steering writes a script's call after it). */
  readonly onStep?: (conversation: readonly TemplateMessage[]) => void;
  /** The prompt's tokens (special tokens parsed); the engine reuses the shared prefix's tokens it knows. */
  readonly tokenize: (text: string) => Token[];
  /** Makes the sequence start with the shared prefix (kept, loaded from disk, or evaluated and saved). */
  readonly ensurePrefix: (promptTokens: readonly Token[]) => Promise<number>;
}

export interface DialectReplyResult {
  readonly text: string;
  readonly reasoning: string;
  readonly reasoningTokens: number;
  readonly completionTokens: number;
  readonly stopReason: 'complete' | 'maxTokens' | 'aborted';
  readonly firstTokenAt: number | undefined;
  /** The last step's prompt length (the cached prefix included). */
  readonly promptTokens: number;
}

/** Parsed grammars, kept per text: parsing one for 35 tools costs more than a token. */
export class DialectGrammars {
  private readonly cache = new Map<string, LlamaGrammar>();
  constructor(private readonly llama: () => Llama) {}

  get(gbnf: string): LlamaGrammar {
    let grammar = this.cache.get(gbnf);
    if (!grammar) {
      grammar = new LlamaGrammar(this.llama(), { grammar: gbnf });
      if (this.cache.size >= 16) this.cache.delete(this.cache.keys().next().value!);
      this.cache.set(gbnf, grammar);
    }
    return grammar;
  }
}

/**
 * The text of a growing list of tokens, decoded as they come: one token at a time (decoding the whole list again for
 * each token would cost a long reply its decode speed), a character split across tokens waiting for its last byte.
 */
class TokenText {
  private decoded = '';
  private pending: Token[] = [];
  private context: Token[] = [];
  constructor(private readonly model: LlamaModel) {}

  push(token: Token): void {
    this.pending.push(token);
    const text = this.model.detokenize(this.pending, true, this.context);
    // A UTF-8 character is at most 4 bytes: past that the replacement character is what the model wrote.
    if (text.endsWith('\uFFFD') && this.pending.length < 4) return;
    this.decoded += text;
    this.context = [...this.context, ...this.pending].slice(-4);
    this.pending = [];
  }

  /** All of it, a character still arriving shown as the replacement character. */
  get text(): string {
    return this.pending.length ? this.decoded + this.model.detokenize(this.pending, true, this.context) : this.decoded;
  }
}

/** After a call: another call, or the end of the turn (the template allows no text after calls). */
const AFTER_CALL_GRAMMAR = `root ::= ( "\\n"? "${CALL_OPEN}" )?`;

/** Below this many tokens after the shared prefix, no checkpoint is taken where the conversation ends. */
const CHECKPOINT_MIN_TOKENS = 64;

/** node-llama-cpp's words for a full context; the engine turns them into the error the user reads. */
const CONTEXT_FULL = 'The context size is too small to generate a response';

/**
 * The prompt's tokens, with the sequence made to hold as much of them as it can; returns what is left to feed.
 * A hybrid or recurrent model (Qwen3.5's) cannot drop the tail of its state, only go back to a checkpoint: one is
 * taken where the conversation ends and the generation prompt begins (`stable` tokens in), so the next turn, which
 * renders this reply differently (the template leaves earlier thoughts out), goes back there instead of to the
 * shared prefix.
 */
async function prepareInput(
  sequence: LlamaContextSequence,
  tokens: readonly Token[],
  stable: number,
  prefixEnd: number,
): Promise<Token[]> {
  if (tokens.length >= sequence.contextSize) throw new Error(CONTEXT_FULL);
  let keep = Math.min(sequence.compareContextTokens([...tokens]).firstDifferentIndex, tokens.length - 1);
  // A hybrid model goes back to the checkpoint before `keep` and evaluates up to it again in a pass of its own (about
  // 50 ms more than in the prompt's pass): a new task that begins with the last one's words ("What is ...") goes
  // back to the shared prefix's checkpoint instead and evaluates them with the rest of its prompt.
  const nearPrefix = prefixEnd > 0 && keep > prefixEnd && keep - prefixEnd < CHECKPOINT_MIN_TOKENS;
  if (sequence.needsCheckpoints && keep < sequence.nextTokenIndex && nearPrefix) keep = prefixEnd;
  if (keep < sequence.nextTokenIndex) {
    await sequence.eraseContextTokenRanges([{ start: keep, end: sequence.nextTokenIndex }]);
  }
  const start = sequence.nextTokenIndex;
  if (!sequence.needsCheckpoints || stable <= start || stable >= tokens.length) return tokens.slice(start);
  // A checkpoint costs a second pass over the prompt: not worth it for the few tokens of a new task's message
  // right after the shared prefix (which has its own), as a later turn evaluates them again for less.
  if (prefixEnd > 0 && start === prefixEnd && stable - start < CHECKPOINT_MIN_TOKENS) return tokens.slice(start);
  await sequence.evaluateWithoutGeneratingNewTokens(tokens.slice(start, stable));
  await sequence.takeCheckpoint();
  return tokens.slice(stable);
}

export function assistantTurn(reasoning: string, content: string, calls: readonly ParsedCall[]): TemplateMessage {
  return {
    role: 'assistant',
    content,
    reasoning_content: reasoning,
    ...(calls.length
      ? {
          tool_calls: calls.map((call): TemplateToolCall => ({
            type: 'function',
            function: { name: call.name, arguments: call.arguments },
          })),
        }
      : {}),
  };
}

/** What the model would write, from the end of the current prompt, to make this call (a test's script). */
export function scriptedCallText(
  dialect: ToolDialect,
  context: { messages: readonly TemplateMessage[]; tools: readonly EngineTool[]; enableThinking: boolean | undefined },
  call: { readonly name: string; readonly arguments: { readonly [key: string]: WrittenValue } },
): string {
  const tools = toolsForTemplate(context.tools);
  const base = { tools, enable_thinking: context.enableThinking } as const;
  const prompt = dialect.render({ ...base, messages: context.messages, add_generation_prompt: true });
  const withCall = dialect.render({
    ...base,
    messages: [...context.messages, assistantTurn('', '', [call])],
    add_generation_prompt: false,
  });
  const end = withCall.lastIndexOf('<|im_end|>');
  const text = withCall.slice(0, end < 0 ? undefined : end);
  // A template that rewrites the turn's start once a call is in it: the call's own text is what the model writes.
  return text.startsWith(prompt)
    ? text.slice(prompt.length)
    : `${CALL_OPEN}${dialect.callBody({ type: 'function', function: call })}`;
}

export async function dialectReply(options: DialectReplyOptions): Promise<DialectReplyResult> {
  const { model, sequence, dialect, progress, signal } = options;
  const tools = toolsForTemplate(options.tools);
  const callable = options.onToolCall ? (options.callable ?? options.tools) : [];
  // Built when the model first opens a call: most replies' first token needs no grammar at all.
  let callGrammar: LlamaGrammar | undefined;
  const grammarOfCalls = (): LlamaGrammar => (callGrammar ??= options.grammars.get(dialect.callGrammar(callable)));
  const afterCallGrammar = options.grammars.get(AFTER_CALL_GRAMMAR);
  const [callOpenToken] = model.tokenize(CALL_OPEN, true);
  const conversation: TemplateMessage[] = [...options.messages];

  let text = '';
  let reasoning = '';
  let reasoningTokens = 0;
  let generated = 0;
  let callTokens = 0;
  let firstTokenAt: number | undefined;
  let promptTokens = 0;
  let stopReason: DialectReplyResult['stopReason'] = 'complete';
  let first = true;
  /** Where the shared prefix, and its checkpoint, end (0: it was too short to keep). */
  let prefixEnd = 0;

  for (;;) {
    options.onStep?.(conversation);
    const prompt = dialect.render({
      messages: conversation,
      tools,
      add_generation_prompt: true,
      ...(options.enableThinking === undefined ? {} : { enable_thinking: options.enableThinking }),
    });
    const tokens = options.tokenize(prompt);
    promptTokens = tokens.length;
    const conversationOnly = dialect.render({
      messages: conversation,
      tools,
      add_generation_prompt: false,
      ...(options.enableThinking === undefined ? {} : { enable_thinking: options.enableThinking }),
    });
    const stable = prompt.startsWith(conversationOnly) ? options.tokenize(conversationOnly).length : 0;
    if (first) {
      prefixEnd = await options.ensurePrefix(tokens);
      first = false;
    }
    if (signal.aborted) {
      stopReason = progress.finished ? 'complete' : 'aborted';
      break;
    }
    const input = await prepareInput(sequence, tokens, stable, prefixEnd);
    const thoughtOpen = prompt.endsWith(`${THINK_OPEN}\n`);
    const reply = new ReplyText(
      thoughtOpen,
      (chunk) => {
        text += chunk;
        options.onText(chunk);
      },
      (chunk) => {
        reasoning += chunk;
        options.onReasoning(chunk);
      },
    );

    type Mode = 'text' | 'call' | 'after-call';
    let mode: Mode = 'text';
    let grammarState: LlamaGrammarEvaluationState | undefined;
    const stepText = new TokenText(model);
    const answer = new TokenText(model);
    let callText = new TokenText(model);
    const calls: ParsedCall[] = [];
    const failures: string[] = [];
    progress.text = '';
    let ended: 'turn' | 'calls' | 'maxTokens' | 'aborted' | 'overrun' = 'turn';

    const bias = () => {
      const favoured = options.favoured?.() ?? [];
      const tokenBias = new TokenBias(model.tokenizer);
      // No call can be written when none is callable: the opening tag is never sampled then.
      if (callable.length === 0 && callOpenToken !== undefined && mode === 'text')
        tokenBias.set(callOpenToken, 'never');
      for (const token of favoured) tokenBias.set(token as Token, { logit: 1000 });
      return tokenBias;
    };
    const iterator = sequence.evaluate(input, {
      temperature: options.temperature,
      grammarEvaluationState: () => grammarState,
      tokenBias: bias,
    });
    try {
      let next = await iterator.next();
      while (!next.done) {
        const token = next.value;
        firstTokenAt ??= performance.now();
        progress.decodeStartedAt ??= firstTokenAt;
        stepText.push(token);
        progress.text = stepText.text;
        // The context is full: stopped here, rather than shifted (which would drop the system prompt and tools).
        if (sequence.nextTokenIndex >= sequence.contextSize - 1) throw new Error(CONTEXT_FULL);
        if (signal.aborted) {
          ended = 'aborted';
          break;
        }
        if (mode === 'text') {
          if (token === callOpenToken && callable.length > 0) {
            reply.update(answer.text, true);
            mode = 'call';
            callText = new TokenText(model);
            grammarState = new LlamaGrammarEvaluationState({ model, grammar: grammarOfCalls() });
          } else {
            answer.push(token);
            generated++;
            if (reply.thinking) reasoningTokens++;
            reply.update(answer.text);
            if (generated >= options.maxTokens) {
              ended = 'maxTokens';
              break;
            }
          }
        } else if (mode === 'call') {
          callText.push(token);
          // maxTokens does not count a call's text; a call that never closes is stopped by its length.
          if (++callTokens > options.maxTokens * 2 + 256) {
            ended = 'overrun';
            break;
          }
          const written = callText.text;
          if (written.endsWith(CALL_CLOSE)) {
            try {
              calls.push(dialect.parseCall(written, callable));
            } catch (error) {
              failures.push(error instanceof Error ? error.message : String(error));
            }
            if (calls.length + failures.length >= options.maxParallelCalls) {
              ended = 'calls';
              break;
            }
            mode = 'after-call';
            callText = new TokenText(model);
            grammarState = new LlamaGrammarEvaluationState({ model, grammar: afterCallGrammar });
          }
        } else {
          callText.push(token);
          if (callText.text.endsWith(CALL_OPEN)) {
            mode = 'call';
            callText = new TokenText(model);
            grammarState = new LlamaGrammarEvaluationState({ model, grammar: grammarOfCalls() });
          }
        }
        if (progress.finished) {
          ended = 'aborted';
          break;
        }
        next = await iterator.next();
      }
    } finally {
      await iterator.return();
    }
    if (mode === 'text') reply.update(answer.text, true);

    if (ended === 'aborted' || (signal.aborted && calls.length === 0)) {
      stopReason = progress.finished ? 'complete' : 'aborted';
      break;
    }
    if (ended === 'maxTokens' || ended === 'overrun') {
      stopReason = 'maxTokens';
      progress.overrun = ended === 'overrun';
      break;
    }
    if (calls.length === 0 && failures.length === 0) break;

    // The turn as the template writes it, then each result in its own tool message.
    conversation.push(assistantTurn(reply.reasoning, reply.text, calls));
    for (const call of calls) {
      progress.handled++;
      progress.inFlight++;
      let result: string;
      try {
        result = await options.onToolCall!(call);
      } finally {
        progress.inFlight--;
      }
      conversation.push({ role: 'tool', content: result });
    }
    for (const failure of failures) conversation.push({ role: 'tool', content: `Error: ${failure}` });
    if (signal.aborted) {
      stopReason = progress.finished ? 'complete' : 'aborted';
      break;
    }
  }
  return {
    text,
    reasoning,
    reasoningTokens,
    completionTokens: generated + callTokens,
    stopReason,
    firstTokenAt,
    promptTokens,
  };
}
