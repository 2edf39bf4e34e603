import { percentile, round2 } from './stats.js';

/**
 * What the `newtask` section reports, as `npm run bench -- --json` prints it (`appNewTask`, `llamaServer`), and the
 * table that sets the two side by side. Pure: the benches that fill these in are appNewTaskBench.ts and
 * llamaServerBench.ts.
 */

const MB = 1024 * 1024;
/** Peak memory a new task may take beyond the model file itself (issue 20: "file + 400 MB"). */
export const RSS_HEADROOM_BYTES = 400 * MB;

export interface AppNewTaskResult {
  readonly prompt: string;
  /** The first task of a process started on a data folder an earlier process left (a restart). */
  readonly afterRestart: boolean;
  readonly firstTokenMs: number;
  /** What came first: reply text, a thought, a tool call; `end` when the reply streamed nothing. */
  readonly firstEvent: string;
  readonly promptTokens: number | null;
  readonly evaluatedPromptTokens: number | null;
  readonly completionTokens: number | null;
  readonly state: string;
}

export interface AppNewTask {
  readonly model: string;
  readonly fileBytes: number;
  readonly contextSize: number;
  readonly threads: number;
  /** Every tool offered to the model: the built-in ones and the MCP ones. */
  readonly tools: number;
  readonly builtinTools: number;
  readonly mcpTools: number;
  readonly maxTokens: number;
  readonly loadMs: number;
  readonly tasks: readonly AppNewTaskResult[];
  readonly p50Ms: number;
  readonly maxMs: number;
  readonly firstAfterRestartMs: number;
  /** Median over the tasks that generated more than one token; null when none did. */
  readonly decodeTokensPerSecond: number | null;
  /** The measured (restarted) app process's high-water mark. */
  readonly peakRssBytes: number;
  readonly rssBudgetBytes: number;
  /** The warm-up process, which set up the data folder and left on disk what the app keeps there. */
  readonly warmUp: { readonly tasks: readonly AppNewTaskResult[]; readonly peakRssBytes: number };
}

export interface LlamaServerTask {
  readonly prompt: string;
  /** From the request to the first streamed delta of any kind. */
  readonly firstTokenMs: number;
  /** From the request to the first delta with text, a thought or a tool call; null when none came. */
  readonly firstContentMs: number | null;
  readonly promptTokens: number | null;
  readonly cachedTokens: number | null;
  readonly completionTokens: number | null;
  readonly decodeTokensPerSecond: number | null;
  /** llama-server refused the end of the answer it streamed (its parser of the model's format); see StreamTotals. */
  readonly endError?: string;
}

export interface LlamaServerRun {
  readonly binary: string;
  readonly model: string;
  readonly contextSize: number;
  readonly threads: number;
  readonly tools: number;
  readonly maxTokens: number;
  /** From the start of the process to its first healthy answer. */
  readonly loadMs: number;
  readonly tasks: readonly LlamaServerTask[];
  readonly p50Ms: number;
  readonly maxMs: number;
  readonly firstTaskMs: number;
  readonly decodeTokensPerSecond: number | null;
  /** null where the OS has no /proc to read it from. */
  readonly peakRssBytes: number | null;
}

/** llama-server's half, or why it could not run (e.g. no cmake to build it); the app's half runs regardless. */
export type LlamaServerReport = LlamaServerRun | { readonly error: string };

export function rssBudgetBytes(fileBytes: number): number {
  return fileBytes + RSS_HEADROOM_BYTES;
}

/** p50 and max of the first-token times, rounded as the report keeps milliseconds. */
export function firstTokenFigures(samples: readonly number[]): { p50Ms: number; maxMs: number } {
  return { p50Ms: round2(percentile(samples, 50)), maxMs: round2(percentile(samples, 100)) };
}

/** The median of the finite rates given, or null when there are none. */
export function medianRate(rates: readonly (number | null)[]): number | null {
  const finite = rates.filter((r): r is number => r !== null && Number.isFinite(r) && r > 0);
  return finite.length ? round2(percentile(finite, 50)) : null;
}

const ms = (value: number) => `${Math.round(value).toLocaleString('en-US')} ms`;
const mb = (bytes: number | null) => (bytes === null ? '-' : `${Math.round(bytes / MB).toLocaleString('en-US')} MB`);
const count = (value: number | null) => (value === null ? '-' : value.toLocaleString('en-US'));
const rate = (value: number | null) => (value === null ? '-' : value.toFixed(1));

function columns(rows: readonly (readonly string[])[]): string[] {
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => r[i]!.length)));
  return rows.map((r) =>
    r.map((cell, i) => (i === 0 ? cell.padEnd(widths[i]!) : cell.padStart(widths[i]!))).join('  '),
  );
}

/** The two halves side by side, then each task: the lines under the section's heading in the table. */
export function sideBySideLines(app: AppNewTask, server: LlamaServerReport): string[] {
  const run = 'error' in server ? null : server;
  const lines: string[] = [];
  const summary: string[][] = [
    ['', 'Homebody', 'llama-server'],
    ['first token, p50', ms(app.p50Ms), run ? ms(run.p50Ms) : '-'],
    ['first token, max', ms(app.maxMs), run ? ms(run.maxMs) : '-'],
    ['first task (after a restart / after start)', ms(app.firstAfterRestartMs), run ? ms(run.firstTaskMs) : '-'],
    ['decode tokens/s (median)', rate(app.decodeTokensPerSecond), run ? rate(run.decodeTokensPerSecond) : '-'],
    ['peak RSS', mb(app.peakRssBytes), run ? mb(run.peakRssBytes) : '-'],
    ['load', ms(app.loadMs), run ? ms(run.loadMs) : '-'],
  ];
  lines.push(...columns(summary));
  const within = app.peakRssBytes <= app.rssBudgetBytes ? 'within' : 'over';
  lines.push(
    `Homebody's peak RSS is ${within} its budget of ${mb(app.rssBudgetBytes)} (the ${mb(app.fileBytes)} file + 400 MB).`,
    `Tools offered: ${app.tools} (${app.builtinTools} built-in, ${app.mcpTools} MCP) on both sides; replies capped at ${app.maxTokens} tokens.`,
  );
  if (!run) lines.push(`llama-server did not run: ${(server as { error: string }).error}`);
  const perTask: string[][] = [['task', 'Homebody', 'prompt / evaluated', 'llama-server', 'prompt / cached']];
  app.tasks.forEach((task, i) => {
    const other = run?.tasks[i];
    perTask.push([
      `${task.prompt}${task.afterRestart ? ' (after a restart)' : ''}`,
      ms(task.firstTokenMs),
      `${count(task.promptTokens)} / ${count(task.evaluatedPromptTokens)}`,
      other ? ms(other.firstTokenMs) : '-',
      other ? `${count(other.promptTokens)} / ${count(other.cachedTokens)}` : '-',
    ]);
  });
  lines.push('', ...columns(perTask));
  return lines;
}
