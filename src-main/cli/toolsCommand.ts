import { HomebodyError, basisSentence, type ToolCall, type ToolCallOutcome } from '../../src-shared/contract/index.js';
import { UsageError, dataDirFrom, parseSubcommand } from './args.js';
import { printJson, withCliHost } from './hostForCli.js';

export const TOOLS_USAGE = `homebody tools list [--json]
homebody tools call NAME 'ARGS_JSON' [--data-dir DIR] [--task ID] [--json]
  Runs one tool call through the same checks, policy, approval queue and sandbox as the app. No one can be
  asked here: a call that needs a permission prompt is not run (needs-permission) unless the policy says auto;
  an irreversible call is queued (approve it with \`homebody approvals approve ID\`).
  --json prints {"status":"done"|"queued"|"denied"|"needs-permission"|"failed","result"?,"error"?,"approvalId"?}.
  Exit code 0 when done or queued, 1 otherwise.`;

export interface ToolCallJson {
  status: 'done' | 'queued' | 'denied' | 'needs-permission' | 'failed';
  result?: unknown;
  error?: string;
  approvalId?: string;
}

/**
 * The command that lets a tool run here without a prompt, where one can: a tool that always asks, or a call that
 * asks because its task read untrusted content, is asked in the app (or `homebody serve`) instead.
 */
function allowItBy(call: ToolCall | null): string {
  const kind = call?.basis?.kind;
  if (!call || kind === 'always-asks' || kind === 'untrusted-content') {
    return 'Run it from the app (or homebody serve), where you are asked.';
  }
  return `To let it run without asking: homebody policy set ${call.tool} auto`;
}

/** A call's outcome as the contract answers it (tools.call, approvals.approve and .deny), for the terminal. */
export function toCallJson(outcome: ToolCallOutcome, call: ToolCall | null): ToolCallJson {
  const error = outcome.error ?? '';
  switch (outcome.status) {
    case 'done':
      return { status: 'done', result: outcome.result };
    case 'queued':
      return { status: 'queued', ...(call ? { approvalId: call.id } : {}) };
    case 'needs-permission':
      return {
        status: 'needs-permission',
        error: `${call?.description.title ?? 'The call'} needs permission, because of ${
          call?.basis ? basisSentence(call.basis) : 'the policy'
        }; no one can be asked here. ${allowItBy(call)}`,
      };
    case 'denied':
      return { status: 'denied', error };
    case 'failed':
    case 'rejected':
      return { status: 'failed', error };
    default:
      return outcome.status satisfies never;
  }
}

/**
 * The outcome for a person: what the call did in one line (the tool's summary, as the app shows it) on stderr, and
 * the result itself as data on stdout, so a pipe gets only the data.
 */
function printHuman(json: ToolCallJson, call: ToolCall | null = null): void {
  if (json.status === 'done' && call?.resultSummary) console.error(`Done: ${call.resultSummary}`);
  if (json.status === 'done')
    console.log(typeof json.result === 'string' ? json.result : JSON.stringify(json.result, null, 2));
  else if (json.status === 'queued') console.log(`Queued for approval: ${json.approvalId}`);
  else console.error(`${json.status}: ${json.error ?? ''}`);
}

export async function toolsCommand(args: string[]): Promise<number> {
  const [sub, ...rest] = args;
  const { values, positionals } = parseSubcommand(rest, {
    task: { type: 'string' },
    json: { type: 'boolean', default: false },
  });
  const dataDir = dataDirFrom(values);
  if (sub === 'list') {
    return withCliHost(dataDir, async (host) => {
      // The MCP servers the user enabled start with the Host; their tools are listed once they run.
      const tools = await host.invoke('tools.list', { waitForServers: true });
      if (values.json) printJson(tools);
      else
        // People read the title here, as in Settings; --json has the description the model is given too.
        for (const t of tools) console.log(`${t.name.padEnd(20)} ${t.risk.padEnd(12)} ${t.title}`);
      return 0;
    });
  }
  if (sub === 'call') {
    const [name, argsJson = '{}'] = positionals;
    if (!name)
      throw new UsageError(
        'tools call needs a tool name, e.g. homebody tools call list_folder \'{"path":"~/Reports"}\'',
      );
    let parsed: unknown;
    try {
      parsed = JSON.parse(argsJson);
    } catch (error) {
      const json: ToolCallJson = {
        status: 'failed',
        error: `ARGS_JSON is not valid JSON: ${(error as Error).message}`,
      };
      if (values.json) printJson(json);
      else printHuman(json);
      return 1;
    }
    return withCliHost(dataDir, async (host) => {
      let outcome;
      try {
        outcome = await host.invoke('tools.call', { tool: name, args: parsed, taskId: values.task ?? null });
      } catch (error) {
        if (error instanceof HomebodyError && error.code === 'TASK_NOT_FOUND') {
          throw new UsageError(`there is no task ${values.task}`);
        }
        throw error;
      }
      const json = toCallJson(outcome, outcome.call);
      if (values.json) printJson(json);
      else printHuman(json, outcome.call);
      return json.status === 'done' || json.status === 'queued' ? 0 : 1;
    });
  }
  throw new UsageError(`tools takes list or call, not "${sub ?? ''}"`);
}
