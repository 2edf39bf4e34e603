import { parseArgs } from 'node:util';
import { intOption, UsageError, usageErrors } from '../cli/args.js';
import { DEFAULT_MESSAGES_PER_TASK, DEFAULT_TASKS, runHistoryBench } from './historyBench.js';
import { BENCH_PRESETS, runModelBench } from './modelBench.js';
import { runNewTaskBench } from './newTaskBench.js';
import { runRemoteBench } from './remoteBench.js';
import { MCP_TOOLS_KEPT } from './newTaskRequests.js';
import { formatTable, toJson, type SectionReport } from './report.js';

const USAGE = `Usage: npm run bench -- [--json] [--only SECTION]... [--tasks N] [--messages-per-task M] [--runs N] [--cold-runs N] [--quant q4_0|q8_0]... [--arch qwen35|qwen3] [--model FILE]

Sections:
  model     on generated models (q4_0, the headline, and q8_0; made once in .cache/models) of --arch: qwen35 (the
            default: ${BENCH_PRESETS.qwen35}, Qwen3.5-0.8B's hybrid linear/full-attention layers, BotPsy's architecture) or
            qwen3 (${BENCH_PRESETS.qwen3}). Load time,
            first token with 5 and 40 tools (cold, next task, after a restart with the prefix saved), prompt and
            decode speed through Homebody's engine and through node-llama-cpp directly, peak memory. Medians of
            --runs (default 3) runs after a warm-up; the 40-tool cold run (about 35 s) --cold-runs times (default 2).
            --quant picks the files (the first is the headline).
  newtask   what a new task costs the user: through the app (a Host in a process of its own, as \`homebody run\`
            builds it: every built-in tool on, a granted folder, ${MCP_TOOLS_KEPT.length} MCP tools), a warm-up process, then a restart
            whose first task is "after a restart" and four more new tasks; first token from chat.send to the first
            streamed event, prompt and evaluated prompt tokens, peak RSS against file + 400 MB. Beside it llama.cpp's
            llama-server (built once from node-llama-cpp's bundled source when missing) on the same q4_0 file of
            --arch, context, threads, system prompt and tools: first token of each task, cached tokens, decode
            tokens/s, peak RSS. Replies capped at 8 tokens. --model FILE measures that GGUF file instead.
  history   imports N tasks × M messages (default ${DEFAULT_TASKS.toLocaleString('en-US')} × ${DEFAULT_MESSAGES_PER_TASK}) into a temporary data folder,
            then times the history list, search (p50, p95), the integrity check and a deletion.
  remote    a model on another computer: Homebody's RemoteEngine against llama-server on loopback serving the q4_0
            file of --arch (or --model), beside the local engine on the same file: first token and decode speed
            (medians of --runs fresh prompts, 32 tokens each), the round trip of a small request, and the ledger's
            count of the requests it made.

--json prints one JSON object on stdout (progress goes to stderr); otherwise a table.
npm run -s bench -- --json keeps npm's banner out of stdout.`;

interface BenchArgs {
  readonly tasks: number | undefined;
  readonly messagesPerTask: number | undefined;
  readonly runs: number | undefined;
  readonly coldRuns: number | undefined;
  readonly quants: readonly string[] | undefined;
  readonly arch: string | undefined;
  readonly model: string | undefined;
  readonly log: (line: string) => void;
}

/** Every section, in the order they run; a section is a function that returns its report. */
const SECTIONS: Record<string, (args: BenchArgs) => Promise<SectionReport>> = {
  // First, so the process's peak memory is the model's own.
  model: ({ runs, coldRuns, quants, arch, log }) =>
    runModelBench({ runs, coldRuns, log, ...(quants ? { quants } : {}), ...(arch ? { arch } : {}) }),
  // After the model section, whose peak memory is the bench process's own: this one runs the app and llama-server in
  // processes of their own.
  newtask: ({ arch, model, log }) => runNewTaskBench({ log, ...(arch ? { arch } : {}), ...(model ? { model } : {}) }),
  history: ({ tasks, messagesPerTask, log }) => runHistoryBench({ tasks, messagesPerTask, log }),
  remote: ({ runs, arch, model, log }) =>
    runRemoteBench({ log, ...(runs ? { runs } : {}), ...(arch ? { arch } : {}), ...(model ? { model } : {}) }),
};

async function main(argv: string[]): Promise<number> {
  const { values } = usageErrors(() =>
    parseArgs({
      args: argv,
      options: {
        json: { type: 'boolean', default: false },
        only: { type: 'string', multiple: true },
        tasks: { type: 'string' },
        'messages-per-task': { type: 'string' },
        runs: { type: 'string' },
        'cold-runs': { type: 'string' },
        quant: { type: 'string', multiple: true },
        arch: { type: 'string' },
        model: { type: 'string' },
        help: { type: 'boolean', short: 'h', default: false },
      },
      strict: true,
    }),
  );
  if (values.help) {
    console.log(USAGE);
    return 0;
  }
  const only = values.only ?? Object.keys(SECTIONS);
  const unknown = only.filter((name) => !(name in SECTIONS));
  if (unknown.length) {
    throw new UsageError(
      `no section named ${unknown.join(', ')}; the sections are ${Object.keys(SECTIONS).join(', ')}`,
    );
  }
  const args: BenchArgs = {
    tasks: intOption(values.tasks, 'tasks', 1, 1_000_000),
    messagesPerTask: intOption(values['messages-per-task'], 'messages-per-task', 1, 1000),
    runs: intOption(values.runs, 'runs', 1, 100),
    coldRuns: intOption(values['cold-runs'], 'cold-runs', 1, 100),
    quants: values.quant,
    arch: values.arch,
    model: values.model,
    log: (line) => process.stderr.write(`${line}\n`),
  };

  const reports: SectionReport[] = [];
  for (const name of Object.keys(SECTIONS).filter((n) => only.includes(n))) reports.push(await SECTIONS[name]!(args));
  process.stdout.write(values.json ? `${JSON.stringify(toJson(reports))}\n` : formatTable(reports));
  return 0;
}

try {
  process.exitCode = await main(process.argv.slice(2));
} catch (error) {
  if (!(error instanceof UsageError)) throw error;
  console.error(`bench: ${error.message}\n\n${USAGE}`);
  process.exitCode = 2;
}
