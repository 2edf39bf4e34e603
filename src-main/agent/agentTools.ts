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

/** What became of one call of the model's, for the reply that made it. */
export interface ToolReply {
  /** What the model is told. */
  readonly told: string;
  /**
   * The call waits for the user's answer to a prompt in the chat: the reply ends there, so the model is free for
   * other tasks meanwhile, and the task goes on once the user has answered (ChatRunner.continueTask).
   */
  readonly waitsForAnswer: boolean;
}

/** The tools as the agent loop uses them: offered to the model, and each call taken through ToolActions. */
export interface AgentTools {
  offered(): EngineTool[];
  call(taskId: string, name: string, args: unknown, signal: AbortSignal): Promise<ToolReply>;
  /** The task's prompts no one answered lapse (the user wrote again, or stopped the task); they never run. */
  lapsePrompts(taskId: string, why: 'new-message' | 'stopped'): void;
}

export interface AgentToolsOptions {
  /**
   * Someone can answer a prompt in the chat (the app, browser mode). A command-line Host cannot: a call that needs
   * permission is not run, and the model is told so.
   */
  readonly canAsk?: boolean;
}

export function agentToolsFrom(actions: ToolActions, options: AgentToolsOptions = {}): AgentTools {
  const interactive = options.canAsk ?? true;
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
      const result = await actions.propose({ taskId, tool: name, args, actor: 'model', interactive, signal });
      // Asked in the chat: the reply ends here. An answer already given (a quick click) is no different: answering
      // goes on with the task, after this reply has ended.
      const waitsForAnswer = interactive && result.status === 'needs-permission';
      return { told: describeForModel(result), waitsForAnswer };
    },
    lapsePrompts: (taskId, why) => actions.lapsePrompts(taskId, why),
  };
}
