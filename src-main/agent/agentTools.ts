import type { EngineTool } from '../llm/engineTypes.js';
import { FILE_TOOLS } from '../tools/builtin/files/index.js';
import type { ProposalResult, ToolActions } from './toolActions.js';

const FILE_TOOL_NAMES: ReadonlySet<string> = new Set(FILE_TOOLS.map((t) => t.name));

/** What the model is told of a call's outcome: short, factual, and clear about what did not happen. */
export function describeForModel(result: ProposalResult): string {
  switch (result.status) {
    case 'done':
      return typeof result.result === 'string' ? result.result : JSON.stringify(result.result);
    case 'failed':
      return `Error: ${result.error}`;
    case 'rejected':
      return `Error: ${result.error}`;
    case 'denied':
      return `Not done: ${result.error}`;
    case 'queued':
      return `Not done yet: "${result.call.description.title}" cannot be undone, so it waits in the user's approval queue. Tell the user it needs their approval there.`;
    case 'needs-permission':
      return 'Not done: the user has not allowed this.';
    default:
      return result satisfies never;
  }
}

/** The tools as the agent loop uses them: offered to the model, and each call taken through ToolActions. */
export interface AgentTools {
  offered(): EngineTool[];
  call(taskId: string, name: string, args: unknown, signal: AbortSignal): Promise<string>;
}

export function agentToolsFrom(actions: ToolActions): AgentTools {
  return {
    // File tools need a granted folder: until there is one they are left out (and the prompt stays shorter).
    // The packs (calendar, contacts, notes...) keep their own folders and are offered from the start.
    offered: () => {
      const noFolders = actions.roots().length === 0;
      return actions
        .offeredTools()
        .filter((t) => !(noFolders && FILE_TOOL_NAMES.has(t.name)))
        .map((t) => ({ name: t.name, description: t.description, parameters: t.parameters }));
    },
    async call(taskId, name, args, signal) {
      let result = await actions.propose({ taskId, tool: name, args, actor: 'model', interactive: true, signal });
      // A prompt in the chat: the reply waits for the user's answer (or for the user to stop it).
      if (result.status === 'needs-permission') result = await actions.awaitAnswer(result.call.id, signal);
      return describeForModel(result);
    },
  };
}
