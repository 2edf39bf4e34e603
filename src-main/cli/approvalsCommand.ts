import { HomebodyError, type ToolCall } from '../../src-shared/contract/index.js';
import { UsageError, dataDirFrom, parseSubcommand } from './args.js';
import { printJson, replyEnds, withCliHost } from './hostForCli.js';
import { toCallJson } from './toolsCommand.js';

export const APPROVALS_USAGE = `homebody approvals list|approve ID|deny ID [--reason TEXT] [--no-continue] [--data-dir DIR] [--json]
  The approval queue: irreversible calls wait here until approved; an approved call runs once, never again.
  Once none of its calls waits, the call's task goes on here: the last model used is told the outcome and replies
  (printed). --no-continue decides the call only; the task goes on when the user next writes to it.`;

function line(call: ToolCall): string {
  const taint = call.taint.length ? ` [after untrusted content: ${call.taint.join(', ')}]` : '';
  return `${call.id}  ${call.state.padEnd(11)} ${call.description.title}: ${call.description.summary}${taint}`;
}

export async function approvalsCommand(args: string[]): Promise<number> {
  const [sub, ...rest] = args;
  const { values, positionals } = parseSubcommand(rest, {
    reason: { type: 'string' },
    'no-continue': { type: 'boolean', default: false },
    json: { type: 'boolean', default: false },
  });
  return withCliHost(dataDirFrom(values), async (host) => {
    if (sub === 'list') {
      const { calls: queue } = await host.invoke('approvals.list', {});
      if (values.json) printJson(queue);
      else if (queue.length === 0) console.log('Nothing waits for approval.');
      else for (const call of queue) console.log(line(call));
      return 0;
    }
    const [id] = positionals;
    if ((sub === 'approve' || sub === 'deny') && !id)
      throw new UsageError(`approvals ${sub} needs the call's ID (see approvals list)`);
    if (sub === 'approve' || sub === 'deny') {
      const go = !values['no-continue'];
      // The replies of tasks that go on are written in this process, so it stays until each has ended.
      const finished = replyEnds(host);
      const decided =
        sub === 'approve'
          ? await host.invoke('approvals.approve', { ids: [id!], continue: go })
          : await host.invoke('approvals.deny', { ids: [id!], reason: values.reason ?? null, continue: go });
      const [call] = decided.calls;
      const [outcome] = decided.outcomes;
      if (!call || !outcome) throw new HomebodyError('INTERNAL', `Homebody did not say what became of ${id}.`);
      const base = { ...toCallJson(outcome, call), id, state: call.state };
      if (!values.json)
        console.log(`${base.state}: ${base.error ?? (base.result === undefined ? '' : JSON.stringify(base.result))}`);
      const continued = [];
      for (const { taskId, messageId } of decided.continued) {
        const reply = await finished.of(messageId);
        continued.push({ taskId, messageId, state: reply.state, text: reply.text, error: reply.error });
        if (!values.json) {
          console.log(`The task goes on (${taskId}): ${reply.state}`);
          if (reply.text) console.log(reply.text);
          if (reply.error) console.log(reply.error);
        }
      }
      finished.stop();
      const json = { ...base, continued };
      if (values.json) printJson(json);
      const ok =
        sub === 'approve'
          ? json.status === 'done'
          : json.state === 'denied' && outcome.status === 'denied' && !/already decided/.test(json.error ?? '');
      return ok ? 0 : 1;
    }
    throw new UsageError(`approvals takes list, approve or deny, not "${sub ?? ''}"`);
  });
}
