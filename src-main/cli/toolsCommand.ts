import { basisSentence } from '../../src-shared/contract/index.js';
import type { ProposalResult } from '../agent/toolActions.js';
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

export function toCallJson(outcome: ProposalResult): ToolCallJson {
  switch (outcome.status) {
    case 'done':
      return { status: 'done', result: outcome.result };
    case 'queued':
      return { status: 'queued', approvalId: outcome.call.id };
    case 'needs-permission':
      return {
        status: 'needs-permission',
        error: `${outcome.call.description.title} needs permission, because of ${
          outcome.call.basis ? basisSentence(outcome.call.basis) : 'the policy'
        }; no one can be asked here.`,
      };
    case 'denied':
      return { status: 'denied', error: outcome.error };
    case 'failed':
    case 'rejected':
      return { status: 'failed', error: outcome.error };
    default:
      return outcome satisfies never;
  }
}

function printHuman(json: ToolCallJson): void {
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
      await host.mcp.ready();
      const tools = host.registry.info();
      if (values.json) printJson(tools);
      else
        for (const t of tools) console.log(`${t.name.padEnd(20)} ${t.risk.padEnd(12)} ${t.description.split('\n')[0]}`);
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
      if (values.task && !host.store.tasks.get(values.task)) throw new UsageError(`there is no task ${values.task}`);
      await host.mcp.ready();
      const outcome = await host.tools.propose({
        taskId: values.task ?? null,
        tool: name,
        args: parsed,
        actor: 'cli',
        interactive: false,
      });
      const json = toCallJson(outcome);
      if (values.json) printJson(json);
      else printHuman(json);
      return json.status === 'done' || json.status === 'queued' ? 0 : 1;
    });
  }
  throw new UsageError(`tools takes list or call, not "${sub ?? ''}"`);
}
