/**
 * llama-server's streamed `/v1/chat/completions` answer, read as tools/server/server-task.cpp writes it: server-sent
 * events, one `data: {json}` per chunk and a blank line after each, `data: [DONE]` at the end, `:` lines as pings
 * while it works, and an `{"error": ...}` chunk when it fails. The first chunk (`delta: {role, content: null}`)
 * comes with the first generated token; the last carries `timings` (cache_n: prompt tokens reused, prompt_n:
 * evaluated, predicted_n and predicted_per_second) and, with `stream_options.include_usage`, `usage` (prompt_tokens,
 * prompt_tokens_details.cached_tokens).
 */

export interface ChatChunkDelta {
  readonly role?: string;
  readonly content?: string | null;
  readonly reasoning_content?: string;
  readonly tool_calls?: readonly unknown[];
}

export interface ChatChunk {
  readonly choices?: readonly { readonly delta?: ChatChunkDelta; readonly finish_reason?: string | null }[];
  readonly usage?: {
    readonly prompt_tokens?: number;
    readonly completion_tokens?: number;
    readonly prompt_tokens_details?: { readonly cached_tokens?: number };
  };
  readonly timings?: {
    readonly cache_n?: number;
    readonly prompt_n?: number;
    readonly predicted_n?: number;
    readonly predicted_per_second?: number;
  };
  readonly error?: unknown;
}

/** What one event's data line is: a chunk, the end, or nothing of interest (a ping, a blank, another field). */
export type SseData = { readonly kind: 'chunk'; readonly chunk: ChatChunk } | { readonly kind: 'done' };

/** Reads events as the response's text arrives in pieces, which may split a line anywhere. */
export class SseReader {
  private pending = '';

  /** The complete data lines in `text` (with what came before it), in order. */
  push(text: string): SseData[] {
    this.pending += text;
    const lines = this.pending.split('\n');
    this.pending = lines.pop() ?? '';
    return lines.flatMap((line) => {
      const data = parseSseLine(line);
      return data ? [data] : [];
    });
  }

  /** Whatever was left without a line end, when the response is over. */
  end(): SseData[] {
    const rest = parseSseLine(this.pending);
    this.pending = '';
    return rest ? [rest] : [];
  }
}

export function parseSseLine(raw: string): SseData | null {
  const line = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
  if (!line.startsWith('data:')) return null;
  const data = line.slice('data:'.length).trim();
  if (data === '[DONE]') return { kind: 'done' };
  try {
    const parsed: unknown = JSON.parse(data);
    return parsed !== null && typeof parsed === 'object' ? { kind: 'chunk', chunk: parsed as ChatChunk } : null;
  } catch {
    throw new Error(`llama-server streamed a line that is not JSON: ${data.slice(0, 200)}`);
  }
}

/** A chunk that carries a delta of any kind: the role, text, a thought or a tool call. */
export function isDelta(chunk: ChatChunk): boolean {
  return chunk.choices?.some((c) => c.delta !== undefined && Object.keys(c.delta).length > 0) ?? false;
}

/** A chunk whose delta carries something the user sees: text, a thought or a tool call. */
export function hasContent(chunk: ChatChunk): boolean {
  return (
    chunk.choices?.some(
      ({ delta }) => !!delta && (!!delta.content || !!delta.reasoning_content || (delta.tool_calls?.length ?? 0) > 0),
    ) ?? false
  );
}

export interface StreamTotals {
  /** The whole prompt, reused part included. */
  readonly promptTokens: number | null;
  /** Prompt tokens reused from the cache. */
  readonly cachedTokens: number | null;
  readonly completionTokens: number | null;
  /** Generation speed as llama-server measured it; null when it generated at most one token. */
  readonly decodeTokensPerSecond: number | null;
  readonly finishReason: string | null;
  /**
   * llama-server's error at the end of an answer it had streamed: its parser of the model's format refused what the
   * random-weight model wrote ("does not match the expected peg-native format"). The deltas before it stand.
   */
  readonly endError?: string;
}

const finite = (value: unknown): number | null => (typeof value === 'number' && Number.isFinite(value) ? value : null);

/**
 * The figures of a whole streamed answer, from its chunks. An error chunk before any delta throws, with
 * llama-server's message (the request failed); one after deltas is kept as `endError` (the answer was streamed, and
 * only its end was refused).
 */
export function streamTotals(chunks: readonly ChatChunk[]): StreamTotals {
  const failedAt = chunks.findIndex((c) => c.error !== undefined);
  let endError: string | undefined;
  if (failedAt >= 0) {
    const error = chunks[failedAt]!.error as { message?: unknown } | null;
    const message = typeof error?.message === 'string' ? error.message : JSON.stringify(error);
    if (!chunks.slice(0, failedAt).some(isDelta)) throw new Error(`llama-server answered with an error: ${message}`);
    endError = message;
  }
  const usage = [...chunks].reverse().find((c) => c.usage)?.usage;
  const timings = [...chunks].reverse().find((c) => c.timings)?.timings;
  const finishReason = chunks.flatMap((c) => c.choices ?? []).find((c) => c.finish_reason)?.finish_reason ?? null;
  const cacheN = finite(timings?.cache_n);
  const promptN = finite(timings?.prompt_n);
  const predicted = finite(timings?.predicted_n) ?? finite(usage?.completion_tokens);
  const speed = finite(timings?.predicted_per_second);
  return {
    promptTokens: finite(usage?.prompt_tokens) ?? (cacheN !== null && promptN !== null ? cacheN + promptN : null),
    cachedTokens: finite(usage?.prompt_tokens_details?.cached_tokens) ?? cacheN,
    completionTokens: predicted,
    decodeTokensPerSecond: predicted !== null && predicted > 1 && speed !== null && speed > 0 ? speed : null,
    finishReason,
    ...(endError === undefined ? {} : { endError }),
  };
}
