/**
 * Test support: the end of a task's work, across the replies it takes. A reply ends at a prompt; once the user has
 * answered, the call runs and the task goes on in a new reply. A test that answers prompts waits here for the last
 * of them: no reply being written, and none of the task's calls allowed and not yet run (nor, when the test answers
 * prompts, one still asking).
 */
import type { Message, ToolCall } from '../../src-shared/contract/index.js';
import type { HostInternals } from '../host/hostInternals.js';

const POLL_MS = 20;

/** A call the task will still go on after: allowed and about to run or running, or (when answered) still asking. */
function stillDeciding(call: ToolCall, promptsAnswered: boolean): boolean {
  if (call.state === 'approved' || call.state === 'executing') return true;
  return promptsAnswered && call.state === 'pending' && call.gate === 'prompt';
}

/** The task's last reply once it has gone on after every answer; `promptsAnswered`: the test answers its prompts. */
export async function settledReply(
  host: HostInternals,
  taskId: string,
  { promptsAnswered = true }: { promptsAnswered?: boolean } = {},
): Promise<Message> {
  for (;;) {
    await host.chat.idle();
    const { messages, toolCalls } = await host.invoke('tasks.get', { taskId });
    // A reply begun since `idle` (the task went on as the call ended) is waited for too.
    const writing = messages.some((m) => m.state === 'streaming');
    if (!writing && !toolCalls.some((call) => stillDeciding(call, promptsAnswered))) {
      const last = messages.findLast((m) => m.role === 'assistant');
      if (!last) throw new Error(`The task ${taskId} has no reply.`);
      return last;
    }
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}
