import { randomBytes } from 'node:crypto';
import { renameSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import {
  callOutcomeWords,
  taskStatusWords,
  ExportFormatSchema,
  HistoryStatusSchema,
  HomebodyError,
  type HistoryEntry,
  type HistoryFilter,
  type TaskDetail,
} from '../../src-shared/contract/index.js';
import { UsageError, dataDirFrom, intOption, parseSubcommand, pathArgument } from './args.js';
import type { Host } from '../host/hostTypes.js';
import { printJson, withCliHost } from './hostForCli.js';

export const HISTORY_USAGE = `homebody history list|search QUERY|show ID|export [ID...]|import FILE|delete ID...|retention [DAYS|off]
      [--data-dir DIR] [--json]
  Past tasks, offline. list and search take --status S[,S...] (idle, running, completed, stopped,
  failed, waiting), --tool NAME, --from DATE and --to DATE (YYYY-MM-DD, both days included), --limit N.
  export takes --format md|json (default json) and --out FILE (default: standard output); with no ID
  it exports everything. delete --all deletes the whole history. Deleting is for real.`;

const DAY_MS = 86_400_000;

/**
 * A task as a person reads it in a terminal: its title, id and status, then its timeline (the messages and the
 * calls in the order they happened), each call with its state. `history export` is for files; this is for reading.
 */
export function taskText({ task, messages, toolCalls }: TaskDetail): string {
  const lines = [
    task.title || '(untitled)',
    `${task.id} · ${task.status} · ${new Date(task.updatedAt).toISOString()}`,
    '',
  ];
  const timeline = [
    ...messages.map((m) => ({
      at: m.createdAt,
      text: `${m.role === 'user' ? 'You' : 'Homebody'}: ${m.text || '(no text)'}${m.state === 'complete' || m.state === 'streaming' ? '' : ` [${m.state}${m.error ? `: ${m.error}` : ''}]`}`,
    })),
    ...toolCalls.map((c) => ({
      at: c.createdAt,
      text: `  [${c.tool}] ${c.description.title}: ${c.description.summary} (${c.state})`,
    })),
  ].sort((a, b) => a.at - b.at);
  for (const item of timeline) lines.push(item.text);
  return `${lines.join('\n')}\n`;
}

/** A date given as YYYY-MM-DD (UTC day) or a full ISO time; `endOfDay` moves a bare date to the next midnight. */
function dateOption(value: string | undefined, name: string, endOfDay: boolean): number | undefined {
  if (value === undefined) return undefined;
  const bareDay = /^\d{4}-\d{2}-\d{2}$/u.test(value);
  const ms = Date.parse(bareDay ? `${value}T00:00:00Z` : value);
  if (Number.isNaN(ms) || ms < 0) throw new UsageError(`--${name} must be a date like 2026-03-31, not "${value}"`);
  return bareDay && endOfDay ? ms + DAY_MS : ms;
}

function filterFrom(values: { status?: string; tool?: string; from?: string; to?: string }): HistoryFilter {
  const filter: HistoryFilter = {};
  if (values.status !== undefined) {
    const statuses = values.status.split(',').map((s) => s.trim());
    for (const s of statuses) {
      if (!HistoryStatusSchema.safeParse(s).success) {
        throw new UsageError(`--status takes ${HistoryStatusSchema.options.join(', ')}, not "${s}"`);
      }
    }
    filter.statuses = statuses as HistoryFilter['statuses'];
  }
  if (values.tool !== undefined) filter.tool = values.tool;
  const from = dateOption(values.from, 'from', false);
  const to = dateOption(values.to, 'to', true);
  if (from !== undefined) filter.from = from;
  if (to !== undefined) filter.to = to;
  return filter;
}

/** One task of the list, its status in the words the app uses (the contract's); `--json` keeps the raw fields. */
export function entryLine(e: HistoryEntry): string {
  const when = new Date(e.updatedAt).toISOString().slice(0, 16).replace('T', ' ');
  const outcomes = callOutcomeWords(e)
    .map((words) => `, ${words}`)
    .join('');
  const tools = e.tools.length ? `  [${e.tools.join(', ')}]` : '';
  return `${e.id}  ${when}  ${taskStatusWords(e).padEnd(15)} ${e.messageCount} msg${outcomes}  ${e.title}${tools}`;
}

/** Writes through a temporary file and a rename, so a failed export never leaves half a file at FILE. */
function writeFileAtomic(path: string, content: string): void {
  const temp = join(dirname(path), `.${randomBytes(6).toString('hex')}.homebody-export.tmp`);
  try {
    writeFileSync(temp, content, { flag: 'wx' });
    renameSync(temp, path);
  } catch (error) {
    rmSync(temp, { force: true });
    throw new HomebodyError('INVALID_REQUEST', `Cannot write ${path}: ${(error as Error).message}`);
  }
}

/** Whether the history holds task `id` (as tasks.get finds it). */
async function taskExists(host: Host, id: string): Promise<boolean> {
  try {
    await host.invoke('tasks.get', { taskId: id });
    return true;
  } catch (error) {
    if (error instanceof HomebodyError && (error.code === 'TASK_NOT_FOUND' || error.code === 'INVALID_REQUEST')) {
      return false;
    }
    throw error;
  }
}

export async function historyCommand(args: string[]): Promise<number> {
  const [sub, ...rest] = args;
  const { values, positionals } = parseSubcommand(rest, {
    json: { type: 'boolean', default: false },
    status: { type: 'string' },
    tool: { type: 'string' },
    from: { type: 'string' },
    to: { type: 'string' },
    limit: { type: 'string' },
    format: { type: 'string' },
    out: { type: 'string' },
    all: { type: 'boolean', default: false },
  });
  const limit = intOption(values.limit, 'limit', 1, 1000);
  return withCliHost(dataDirFrom(values), async (host) => {
    switch (sub) {
      case 'list': {
        const page = await host.invoke('history.list', { ...filterFrom(values), limit: limit ?? 200 });
        if (values.json) printJson(page);
        else if (page.total === 0) console.log('No tasks.');
        else {
          for (const e of page.entries) console.log(entryLine(e));
          if (page.total > page.entries.length) console.log(`… ${page.total - page.entries.length} more (use --limit)`);
        }
        return 0;
      }
      case 'search': {
        const query = positionals.join(' ');
        if (!query.trim()) throw new UsageError('history search needs the words to look for');
        const { hits } = await host.invoke('history.search', { query, filter: filterFrom(values), limit: limit ?? 20 });
        if (values.json) {
          printJson(hits.map((h) => ({ taskId: h.taskId, title: h.title, snippet: h.snippet, score: h.score })));
        } else if (hits.length === 0) console.log(`Nothing matches "${query}".`);
        else for (const h of hits) console.log(`${h.taskId}  ${h.title}\n    ${h.snippet}`);
        return 0;
      }
      case 'show': {
        const [id] = positionals;
        if (!id) throw new UsageError('history show needs a task ID (see history list)');
        const detail = await host.invoke('tasks.get', { taskId: id });
        if (values.json) printJson(detail);
        else process.stdout.write(taskText(detail));
        return 0;
      }
      case 'export': {
        const format = ExportFormatSchema.safeParse(values.format ?? 'json');
        if (!format.success) throw new UsageError(`--format takes md or json, not "${values.format}"`);
        const exported = await host.invoke('history.export', {
          format: format.data,
          ...(positionals.length ? { taskIds: positionals } : {}),
        });
        if (values.out) {
          const out = pathArgument(values.out, '--out');
          writeFileAtomic(out, exported.content);
          if (values.json) printJson({ file: out, tasks: exported.tasks, format: format.data });
          else console.log(`Exported ${exported.tasks} task(s) to ${out}`);
        } else process.stdout.write(exported.content);
        return 0;
      }
      case 'import': {
        const [file] = positionals;
        if (!file) throw new UsageError('history import needs the JSON file to import');
        let content: string;
        try {
          content = readFileSync(pathArgument(file, 'The history file'), 'utf8');
        } catch (error) {
          throw new HomebodyError('INVALID_REQUEST', `Cannot read ${file}: ${(error as Error).message}`);
        }
        const report = await host.invoke('history.import', { content });
        if (values.json) printJson(report);
        else
          console.log(
            `Imported ${report.imported} task(s) (${report.messages} messages, ${report.toolCalls} tool calls); ${report.skipped} already here were kept.`,
          );
        return 0;
      }
      case 'delete': {
        if (values.all) {
          if (positionals.length) throw new UsageError('history delete takes either task IDs or --all, not both');
          const { deleted } = await host.invoke('history.deleteAll', { confirm: 'delete all history' });
          if (values.json) printJson({ deleted, notFound: [] });
          else console.log(`Deleted the whole history (${deleted} task(s)).`);
          return 0;
        }
        if (!positionals.length) throw new UsageError('history delete needs task IDs (or --all)');
        const notFound: string[] = [];
        for (const id of positionals) if (!(await taskExists(host, id))) notFound.push(id);
        const { deleted } = await host.invoke('history.delete', { taskIds: positionals });
        if (values.json) printJson({ deleted, notFound });
        else {
          console.log(`Deleted ${deleted} task(s).`);
          if (notFound.length) console.error(`Not found: ${notFound.join(', ')}`);
        }
        return notFound.length ? 1 : 0;
      }
      case 'retention': {
        const [days] = positionals;
        let result: { days: number | null; deleted?: number };
        if (days === undefined) result = await host.invoke('history.retention', {});
        else {
          const value = days === 'off' ? null : intOption(days, 'retention', 1, 36_500)!;
          result = await host.invoke('history.setRetention', { days: value });
        }
        if (values.json) printJson(result);
        else {
          console.log(
            result.days === null
              ? 'Tasks are kept until you delete them.'
              : `Tasks older than ${result.days} days are deleted.`,
          );
          if (result.deleted !== undefined && result.deleted > 0) console.log(`Deleted ${result.deleted} task(s) now.`);
        }
        return 0;
      }
      default:
        throw new UsageError(
          `history takes list, search, show, export, import, delete or retention, not "${sub ?? ''}"`,
        );
    }
  });
}
