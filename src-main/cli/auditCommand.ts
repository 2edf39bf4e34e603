import { DecisionBasisKindSchema, basisSentence, type AuditEvent } from '../../src-shared/contract/index.js';
import { UsageError, dataDirFrom, intOption, parseSubcommand } from './args.js';
import { printJson, withCliHost } from './hostForCli.js';

export const AUDIT_USAGE = `homebody audit [--path FILE] [--call ID] [--task ID] [--basis KIND] [--limit N] [--json] [--data-dir DIR]
  What happened and why, newest first: every proposal, decision and run, with the basis of each decision and the
  files it touched. --path FILE answers "who allowed this, and why" for one absolute path.`;

function line(event: AuditEvent): string {
  const when = new Date(event.at).toISOString();
  const why = event.basis ? `  [${basisSentence(event.basis)}]` : '';
  const files = event.paths.map((p) => `\n      ${p.arg}: ${p.path}${p.root ? ` (in ${p.root})` : ''}`).join('');
  const task = event.taskId ? `  task ${event.taskId}` : '';
  return `${when}  ${event.actor.padEnd(6)} ${event.kind.padEnd(14)} ${event.summary}${why}${task}${files}`;
}

export async function auditCommand(args: string[]): Promise<number> {
  const { values, positionals } = parseSubcommand(args, {
    path: { type: 'string' },
    call: { type: 'string' },
    task: { type: 'string' },
    basis: { type: 'string' },
    limit: { type: 'string' },
    json: { type: 'boolean', default: false },
  });
  if (positionals.length > 0) throw new UsageError(`unexpected argument "${positionals[0]}"`);
  const basis = values.basis === undefined ? undefined : DecisionBasisKindSchema.safeParse(values.basis);
  if (basis && !basis.success) {
    throw new UsageError(`--basis takes one of ${DecisionBasisKindSchema.options.join(', ')}, not "${values.basis}"`);
  }
  const limit = intOption(values.limit, 'limit', 1, 1000) ?? 200;
  return withCliHost(dataDirFrom(values), async (host) => {
    const { events } = await host.invoke('audit.list', {
      limit,
      ...(values.path ? { path: values.path } : {}),
      ...(values.call ? { callId: values.call } : {}),
      ...(values.task ? { taskId: values.task } : {}),
      ...(basis?.success ? { basis: basis.data } : {}),
    });
    if (values.json) printJson({ events });
    else if (events.length === 0) console.log('Nothing recorded matches.');
    else for (const event of events) console.log(line(event));
    return 0;
  });
}
