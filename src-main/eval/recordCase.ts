/**
 * A task from history as an evaluation case: the user's turns, the tools it could use, and the calls that ran
 * (the user allowed them and they finished) as the right answer. The suite then grows from the user's own work.
 */
import type { EvalKind, TaskDetail } from '../../src-shared/contract/index.js';
import { HomebodyCaseSchema, type HomebodyCase } from './evalCase.js';

export class RecordError extends Error {}

/**
 * The case for `detail`, from its last user turn that led to tool calls (else its last user turn). `offered` is
 * the tools the task could use, `builtins` the names that can run on the fixtures.
 */
export function caseFromTask(
  detail: TaskDetail,
  options: { id: string; offered: readonly string[]; builtins: ReadonlySet<string> },
): HomebodyCase {
  const messages = detail.messages.filter((m) => m.text.trim() !== '' && (m.role === 'user' || m.role === 'assistant'));
  const users = messages.filter((m) => m.role === 'user');
  if (users.length === 0) throw new RecordError('This task has no message from the user to record.');
  const callsAfter = (userIndex: number) => {
    const from = users[userIndex]!.createdAt;
    const to = users[userIndex + 1]?.createdAt ?? Number.POSITIVE_INFINITY;
    return detail.toolCalls.filter((c) => c.createdAt >= from && c.createdAt < to);
  };
  let turn = users.length - 1;
  for (let i = users.length - 1; i >= 0; i--) {
    if (callsAfter(i).length > 0) {
      turn = i;
      break;
    }
  }
  const prompt = users[turn]!;
  const made = callsAfter(turn);
  const right = made.filter((c) => c.state === 'done');
  const foreign = made.map((c) => c.tool).filter((t) => !options.builtins.has(t));
  if (foreign.length > 0) {
    throw new RecordError(
      `This task used ${[...new Set(foreign)].join(', ')}, which evaluations cannot run (only built-in tools run on ` +
        'the evaluation fixtures).',
    );
  }
  const tools = [...new Set([...options.offered.filter((t) => options.builtins.has(t)), ...made.map((c) => c.tool)])];
  const kind: EvalKind = right.length === 0 ? 'none' : right.length === 1 ? 'single' : 'several';
  const history = messages
    .filter((m) => m.seq < prompt.seq)
    .map((m) => ({ role: m.role as 'user' | 'assistant', text: m.text }));
  const note =
    made.length > right.length
      ? `Recorded from "${detail.task.title}": ${made.length - right.length} call(s) the user denied or that failed are not part of the answer.`
      : `Recorded from "${detail.task.title}".`;
  const parsed = HomebodyCaseSchema.safeParse({
    id: options.id,
    kind,
    domain: 'recorded',
    history,
    prompt: prompt.text,
    tools,
    expected: right.map((c) => ({ [c.tool]: Object.fromEntries(Object.entries(c.args).map(([k, v]) => [k, [v]])) })),
    note,
  });
  if (!parsed.success) {
    throw new RecordError(`This task cannot become a case: ${parsed.error.issues.map((i) => i.message).join('; ')}`);
  }
  return parsed.data;
}
