import { existsSync, mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { defaultEngineConfig } from '../llm/engineConfig.js';
import { compileApp, compiledModule, runNodeChild } from './benchProcesses.js';
import {
  parseChildLine,
  type DoneLine,
  type NewTaskChildConfig,
  type NewTaskChildLine,
  type OfferedTool,
  type ReadyLine,
  type TaskLine,
} from './newTaskProtocol.js';
import {
  GRANTED_FILES,
  MCP_SERVER_NAME,
  MCP_TOOLS_KEPT,
  NEW_TASK_PROMPTS,
  WARM_UP_PROMPT,
  everythingServerEntry,
} from './newTaskRequests.js';
import {
  firstTokenFigures,
  medianRate,
  rssBudgetBytes,
  type AppNewTask,
  type AppNewTaskResult,
} from './newTaskReport.js';
import { round2 } from './stats.js';

const CHILD_MODULE = 'bench/appNewTaskChild';

export interface AppNewTaskOptions {
  /** The GGUF file (the bench uses the generated qwen3.5-0.8b q4_0 file). */
  readonly model: string;
  /** Default 8192: every built-in tool's definition with a few MCP ones is about 6,500 tokens of prompt. */
  readonly contextSize?: number;
  /** Default: the machine's (HOMEBODY_THREADS, else every core), as the app runs. */
  readonly threads?: number;
  /** The measured process's tasks, in order; the first is the first after the restart. */
  readonly prompts?: readonly string[];
  /** The warm-up process's tasks. */
  readonly warmUpPrompts?: readonly string[];
  /** Each reply's cap: only the first token is timed. Default 8. */
  readonly maxTokens?: number;
  /** Bring tsc's output up to date first (default); off when the caller just did (the tests' global setup). */
  readonly compile?: boolean;
  /** How long one app process may run. Default 30 minutes (a cold prompt of 6,500 tokens takes minutes on 2 cores). */
  readonly timeoutMs?: number;
  readonly log?: (line: string) => void;
}

/** The report, and what the app offered the model, for llama-server to be offered the same. */
export interface AppNewTaskRun {
  readonly report: AppNewTask;
  readonly offered: { readonly systemPrompt: string; readonly tools: readonly OfferedTool[] };
}

interface PhaseLines {
  readonly ready: ReadyLine;
  readonly tasks: TaskLine[];
  readonly done: DoneLine;
}

/** Once the process said it is done, it has this long to exit before it is ended. */
const EXIT_GRACE_MS = 15_000;

async function runPhase(
  script: string,
  config: NewTaskChildConfig,
  timeoutMs: number,
  log: (line: string) => void,
): Promise<PhaseLines> {
  const outcome = await runNodeChild<NewTaskChildLine>({
    script,
    args: [JSON.stringify(config)],
    parse: parseChildLine,
    onLine: (line, child) => {
      if (line.kind === 'task')
        log(`${config.phase}: first token ${Math.round(line.firstTokenMs)} ms (${line.prompt})`);
      if (line.kind === 'done') setTimeout(() => child.kill('SIGKILL'), EXIT_GRACE_MS).unref();
    },
    log,
    timeoutMs,
  });
  const ready = outcome.lines.find((l): l is ReadyLine => l.kind === 'ready');
  const done = outcome.lines.find((l): l is DoneLine => l.kind === 'done');
  const tasks = outcome.lines.filter((l): l is TaskLine => l.kind === 'task');
  if (!ready || !done || tasks.length !== config.prompts.length) {
    const why = outcome.stderrTail.slice(-8).join('\n');
    throw new Error(`the app's ${config.phase} process ended (exit code ${outcome.code}) before it finished:\n${why}`);
  }
  return { ready, tasks, done };
}

const asResult = (task: TaskLine, afterRestart: boolean): AppNewTaskResult => ({
  prompt: task.prompt,
  afterRestart,
  firstTokenMs: round2(task.firstTokenMs),
  firstEvent: task.firstEvent,
  promptTokens: task.promptTokens,
  evaluatedPromptTokens: task.evaluatedPromptTokens,
  completionTokens: task.completionTokens,
  state: task.state,
});

/**
 * Five different new tasks through the app's real path, as the user feels them: a warm-up process sets up a data
 * folder (a granted folder with a couple of files, an MCP server with a few tools on, every built-in tool on) and
 * leaves on disk what the app keeps there; then a fresh process (a restart) answers the first task "after a
 * restart" and the others one after another. Each process is the compiled app in a child of its own; each times
 * from chat.send to the first streamed event, and reports its own peak memory.
 */
export async function runAppNewTaskBench(options: AppNewTaskOptions): Promise<AppNewTaskRun> {
  const log = options.log ?? (() => {});
  const model = resolve(options.model);
  if (!existsSync(model)) throw new Error(`the new-task benchmark's model ${model} does not exist`);
  const prompts = options.prompts ?? NEW_TASK_PROMPTS;
  if (prompts.length === 0) throw new Error('the new-task benchmark needs at least one prompt');
  const threads = options.threads ?? defaultEngineConfig().threads;
  const maxTokens = options.maxTokens ?? 8;
  const timeoutMs = options.timeoutMs ?? 30 * 60_000;
  const script = options.compile === false ? compiledModule(CHILD_MODULE) : compileApp(CHILD_MODULE, log);
  if (!existsSync(script)) throw new Error(`${script} is missing: run npx tsc -b`);

  const scratch = mkdtempSync(join(tmpdir(), 'hb-newtask-bench-'));
  try {
    const folder = join(scratch, 'Documents');
    mkdirSync(folder);
    for (const [name, text] of Object.entries(GRANTED_FILES)) writeFileSync(join(folder, name), text);
    const base = {
      dataDir: join(scratch, 'data'),
      model,
      folder,
      maxTokens,
      contextSize: options.contextSize ?? 8192,
      threads,
      mcp: {
        name: MCP_SERVER_NAME,
        command: process.execPath,
        args: [everythingServerEntry(), 'stdio'],
        keep: MCP_TOOLS_KEPT,
      },
    };
    log('new task: the warm-up process (sets up the data folder)');
    const warmUp = await runPhase(
      script,
      { ...base, phase: 'warm-up', prompts: options.warmUpPrompts ?? [WARM_UP_PROMPT] },
      timeoutMs,
      log,
    );
    log('new task: a fresh process (a restart), then one new task after another');
    const measured = await runPhase(script, { ...base, phase: 'measure', prompts }, timeoutMs, log);

    const tasks = measured.tasks.map((t, i) => asResult(t, i === 0));
    const { ready } = measured;
    const fileBytes = statSync(model).size;
    const report: AppNewTask = {
      model,
      fileBytes,
      contextSize: ready.contextSize,
      threads,
      tools: ready.tools.length,
      builtinTools: ready.tools.length - ready.mcpTools,
      mcpTools: ready.mcpTools,
      maxTokens,
      loadMs: round2(ready.loadMs),
      tasks,
      ...firstTokenFigures(tasks.map((t) => t.firstTokenMs)),
      firstAfterRestartMs: tasks[0]!.firstTokenMs,
      decodeTokensPerSecond: medianRate(
        measured.tasks.filter((t) => (t.completionTokens ?? 0) > 1).map((t) => t.tokensPerSecond),
      ),
      peakRssBytes: measured.done.peakRssBytes,
      rssBudgetBytes: rssBudgetBytes(fileBytes),
      warmUp: { tasks: warmUp.tasks.map((t) => asResult(t, false)), peakRssBytes: warmUp.done.peakRssBytes },
    };
    return { report, offered: { systemPrompt: ready.systemPrompt, tools: ready.tools } };
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}
