/**
 * How the new-task benchmark talks to each app process it starts (appNewTaskChild.ts): the configuration goes in as
 * the one argument (JSON), and the process prints JSON lines on stdout, each an object under LINE_KEY; anything
 * else on stdout is not the benchmark's and is ignored.
 */

export interface NewTaskChildConfig {
  /** warm-up: sets up the data folder (granted folder, MCP server) and leaves on disk what the app keeps there. */
  readonly phase: 'warm-up' | 'measure';
  readonly dataDir: string;
  readonly model: string;
  /** The folder to grant (warm-up); the grant stays in the data folder for the next process. */
  readonly folder: string;
  /** Each the first message of a new task, one after another. */
  readonly prompts: readonly string[];
  readonly maxTokens: number;
  readonly contextSize: number;
  readonly threads: number;
  readonly mcp: {
    readonly name: string;
    readonly command: string;
    readonly args: readonly string[];
    /** The server's own names of the tools left on; the rest are switched off in the policy. */
    readonly keep: readonly string[];
  };
}

/** A tool as the Host lists it and offers it to the model. */
export interface OfferedTool {
  readonly name: string;
  readonly description: string;
  readonly parameters: Readonly<Record<string, unknown>>;
}

/** The model is loaded and the tools are listed: what the app offers, as the Host says it. */
export interface ReadyLine {
  readonly kind: 'ready';
  /** Every tool offered to the model (not switched off), built-in and MCP, in the Host's order. */
  readonly tools: readonly OfferedTool[];
  readonly mcpTools: number;
  /** The system prompt the Host's chat engine was made with. */
  readonly systemPrompt: string;
  /** The context size the model was loaded with. */
  readonly contextSize: number;
  readonly loadMs: number;
}

/** What one new task's reply felt like. */
export interface TaskLine {
  readonly kind: 'task';
  readonly prompt: string;
  readonly taskId: string;
  /** From the send to the first streamed token event (reply text, thought or tool call), or to the end. */
  readonly firstTokenMs: number;
  /** What came first; `end` when the reply streamed nothing at all. */
  readonly firstEvent: 'text' | 'reasoning' | 'toolcall' | 'end';
  readonly promptTokens: number | null;
  /** Prompt tokens the engine evaluated for the reply; the rest came from what it had kept. */
  readonly evaluatedPromptTokens: number | null;
  readonly completionTokens: number | null;
  readonly tokensPerSecond: number | null;
  readonly state: string;
}

/** The process is about to exit: its own memory high-water mark. */
export interface DoneLine {
  readonly kind: 'done';
  readonly peakRssBytes: number;
}

export type NewTaskChildLine = ReadyLine | TaskLine | DoneLine;

export const LINE_KEY = 'newTaskBench';

export function formatChildLine(line: NewTaskChildLine): string {
  return `${JSON.stringify({ [LINE_KEY]: line })}\n`;
}

const KINDS: ReadonlySet<string> = new Set(['ready', 'task', 'done']);

/** One line of a child's stdout: the benchmark's line it carries, or null for any other output. */
export function parseChildLine(text: string): NewTaskChildLine | null {
  const trimmed = text.trim();
  if (!trimmed.startsWith('{')) return null;
  let parsed: unknown;
  try {
    parsed = JSON.parse(trimmed);
  } catch {
    return null;
  }
  const line = (parsed as Record<string, unknown> | null)?.[LINE_KEY] as { kind?: unknown } | undefined;
  return line && typeof line.kind === 'string' && KINDS.has(line.kind) ? (line as NewTaskChildLine) : null;
}
