import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { toJsonExport } from '../history/historyExport.js';
import { createHost } from '../host/createHost.js';
import type { Host } from '../host/hostTypes.js';
import { DATABASE_FILE, openStore, type Store } from '../store/store.js';
import { generateCorpus, PLANTED, type PlantedWord } from './historyCorpus.js';
import type { SectionReport } from './report.js';
import { median, round2, summarize } from './stats.js';

export const DEFAULT_TASKS = 10_000;
export const DEFAULT_MESSAGES_PER_TASK = 10;

/**
 * What the search part times, as a user would type it: rare, mid and common words, two-word queries,
 * prefixes while typing, names and places, tool names, paths, "quoted phrases", and queries with no hits.
 */
export const SEARCH_QUERIES: readonly string[] = [
  // Rare words (the tail of the vocabulary) and the planted ones.
  'harpsichord',
  'sourdough',
  'kayak',
  'apostille',
  'chrysalis',
  'dermatologist',
  'pomegranate',
  'quokka',
  'zeppelin',
  'marmalade',
  // Middle and common words.
  'invoice',
  'dentist',
  'passport',
  'mortgage',
  'birthday',
  'meeting',
  'report',
  'file',
  'please',
  'the',
  // Two words, and a question typed as a sentence.
  'hotel booking',
  'budget report',
  'tax receipt',
  'anna birthday',
  'lisbon flight',
  'meeting tomorrow',
  'how do i renew my passport',
  // Prefixes, as the search box sees them while the user types.
  'th',
  'rec',
  'pho',
  'lisb',
  'invo',
  'dermat',
  // Names and places.
  'Lisbon',
  'Kenji',
  'Reykjavik',
  // Tool names, paths, numbers.
  'read_text',
  'list_folder',
  'search_files',
  'Downloads',
  '/home/sam/Documents',
  '2023',
  // Quoted phrases.
  '"blue heron"',
  '"let me know"',
  '"thank you"',
  '"could you"',
  // No hits.
  'xylophone',
  'zzqv',
  '"purple elephant"',
];

export interface HistoryBenchOptions {
  readonly tasks?: number;
  readonly messagesPerTask?: number;
  readonly seed?: number;
  /** Timed rounds over all the queries, after one warm-up round. */
  readonly searchRuns?: number;
  /** Timed openings of the history list, after one warm-up. */
  readonly listRuns?: number;
  /** How many tasks the deletion deletes. */
  readonly deleteCount?: number;
  /** Progress lines (stderr in the command). */
  readonly log?: (line: string) => void;
}

export const HISTORY_LABELS: SectionReport['labels'] = {
  historyTasks: { label: 'Tasks', unit: '' },
  historyMessages: { label: 'Messages', unit: '' },
  historyToolCalls: { label: 'Tool calls', unit: '' },
  historyExportMb: { label: 'Export file (JSON)', unit: 'MB' },
  historyGenerateMs: { label: 'Generate the export', unit: 'ms' },
  historyImportMs: { label: 'Import (history.import)', unit: 'ms' },
  historyDbMb: { label: 'Database after the import (db + wal)', unit: 'MB' },
  historyWalMb: { label: '  of which the WAL', unit: 'MB' },
  historyListMs: { label: 'Open the list (200 + total), median', unit: 'ms' },
  historyListToolFilterMs: { label: 'List filtered by tool, median', unit: 'ms' },
  historySearchQueries: { label: 'Search queries', unit: '' },
  historySearchSamples: { label: 'Search samples', unit: '' },
  historySearchP50Ms: { label: 'Search p50', unit: 'ms' },
  historySearchP95Ms: { label: 'Search p95', unit: 'ms' },
  historySearchMaxMs: { label: 'Search max', unit: 'ms' },
  historySearchCpuP50Ms: { label: 'Search p50, CPU time', unit: 'ms' },
  historySearchCpuP95Ms: { label: 'Search p95, CPU time', unit: 'ms' },
  historySearchAfterImportP95Ms: { label: 'Search p95 right after the import', unit: 'ms' },
  historyIntegrityCheckMs: { label: 'Integrity check', unit: 'ms' },
  historyDeletedTasks: { label: 'Tasks deleted', unit: '' },
  historyDeleteMs: { label: 'Delete (history.delete + checkpoint)', unit: 'ms' },
  historyDeleteOneMs: { label: 'Delete one task', unit: 'ms' },
  historyOpenMs: { label: 'Open the database at start (quick_check)', unit: 'ms' },
};

const MB = 1024 * 1024;

async function timed<T>(fn: () => Promise<T> | T): Promise<{ ms: number; value: T }> {
  const start = performance.now();
  const value = await fn();
  return { ms: performance.now() - start, value };
}

function fileSize(path: string): number {
  return existsSync(path) ? statSync(path).size : 0;
}

function check(condition: boolean, message: string): void {
  if (!condition) throw new Error(`history benchmark: ${message}`);
}

/** Searches for each planted word must find exactly the tasks it was planted in: else the timings mean nothing. */
async function checkPlanted(host: Host, planted: Record<PlantedWord, string[]>): Promise<void> {
  for (const { word } of PLANTED) {
    const want = planted[word];
    if (want.length > 200) continue;
    const query = word.includes(' ') ? `"${word}"` : word;
    const { hits } = await host.invoke('history.search', { query, limit: 200 });
    const got = hits.map((h) => h.taskId).sort();
    check(
      JSON.stringify(got) === JSON.stringify([...want].sort()),
      `search for ${query} found ${got.length} task(s), not the ${want.length} it was planted in`,
    );
  }
}

type QueryTimes = Map<string, { times: number[]; cpu: number[]; hits: number }>;

/**
 * One warm-up round over all the queries, then `runs` timed rounds, through the Host as the window calls it.
 * Each search is timed by the clock and by the process's CPU time: on a busy machine the clock also counts
 * the time spent waiting for a core, the CPU time does not.
 */
async function searchRounds(host: Host, runs: number): Promise<QueryTimes> {
  const perQuery: QueryTimes = new Map();
  for (let round = 0; round <= runs; round++) {
    for (const query of SEARCH_QUERIES) {
      const cpuBefore = process.cpuUsage();
      const { ms, value } = await timed(() => host.invoke('history.search', { query }));
      const cpu = process.cpuUsage(cpuBefore);
      const entry = perQuery.get(query) ?? { times: [], cpu: [], hits: value.hits.length };
      if (round > 0) {
        entry.times.push(ms);
        entry.cpu.push((cpu.user + cpu.system) / 1000);
      }
      perQuery.set(query, entry);
    }
  }
  return perQuery;
}

const samplesOf = (perQuery: QueryTimes, of: 'times' | 'cpu' = 'times') => [...perQuery.values()].flatMap((q) => q[of]);

/**
 * The history section: in a fresh temporary data folder, imports a generated export of `tasks` × `messagesPerTask`
 * messages through the real import, then times opening the history list, searching, the integrity check and a
 * deletion. The folder is removed afterwards, whatever happens.
 */
export async function runHistoryBench(options: HistoryBenchOptions = {}): Promise<SectionReport> {
  const tasks = options.tasks ?? DEFAULT_TASKS;
  const messagesPerTask = options.messagesPerTask ?? DEFAULT_MESSAGES_PER_TASK;
  const searchRuns = options.searchRuns ?? 5;
  const listRuns = options.listRuns ?? 15;
  const deleteCount = Math.min(options.deleteCount ?? 100, tasks);
  const log = options.log ?? (() => {});
  check(Number.isInteger(tasks) && tasks >= 1, 'tasks must be a whole number of at least 1');
  check(Number.isInteger(messagesPerTask) && messagesPerTask >= 1, 'messages per task must be at least 1');
  check(searchRuns >= 1 && listRuns >= 1, 'at least one timed run is needed');

  const dataDir = mkdtempSync(join(tmpdir(), 'homebody-bench-'));
  let host: Host | undefined;
  // The database's own maintenance (checkpoint, integrity check) goes through a connection of the bench's, as a
  // sqlite3 shell would: the Host's contract has no such methods, and the bench goes through the contract.
  let side: Store | undefined;
  const databaseFile = join(dataDir, DATABASE_FILE);
  try {
    host = await createHost({ dataDir, shell: 'cli', loadModelOnStart: false, version: 'bench' });
    const h = host;
    const figures: Record<string, number> = {};

    // 1. Generate the export and import it through the real import path.
    log(`history: generating ${tasks} tasks × ${messagesPerTask} messages…`);
    let content: string | undefined;
    const generated = await timed(() => {
      const corpus = generateCorpus({ tasks, messagesPerTask, seed: options.seed, now: Date.now() });
      content = `${JSON.stringify(toJsonExport(corpus.tasks, Date.now(), 'bench'), null, 2)}\n`;
      return {
        messages: corpus.messages,
        toolCalls: corpus.toolCalls,
        planted: corpus.planted,
        ids: corpus.tasks.map((t) => t.task.id),
      };
    });
    const { messages, toolCalls, planted, ids } = generated.value;
    figures.historyTasks = tasks;
    figures.historyMessages = messages;
    figures.historyToolCalls = toolCalls;
    figures.historyExportMb = round2(Buffer.byteLength(content ?? '') / MB);
    figures.historyGenerateMs = round2(generated.ms);

    log(`history: importing ${figures.historyExportMb} MB…`);
    const imported = await timed(() => h.invoke('history.import', { content: content ?? '' }));
    content = undefined; // let the export text go before anything else is timed
    check(imported.value.imported === tasks, `imported ${imported.value.imported} tasks, not ${tasks}`);
    check(imported.value.messages === messages, `imported ${imported.value.messages} messages, not ${messages}`);
    check(imported.value.toolCalls === toolCalls, `imported ${imported.value.toolCalls} calls, not ${toolCalls}`);
    figures.historyImportMs = round2(imported.ms);
    const wal = fileSize(`${databaseFile}-wal`);
    figures.historyDbMb = round2((fileSize(databaseFile) + wal) / MB);
    figures.historyWalMb = round2(wal / MB);

    // 2. The import folds its WAL into the database and rewrites the search index once (HistoryService.import),
    // so the files are already as a user's history is on any later day. Search once right after it anyway.
    log('history: searching right after the import…');
    await checkPlanted(h, planted);
    const afterImport = summarize(samplesOf(await searchRounds(h, 2)));
    figures.historySearchAfterImportP95Ms = round2(afterImport.p95);
    side = openStore(dataDir);
    side.checkpoint();

    // 3. Open the history list: the first page with the total, as the window does.
    log('history: opening the list…');
    const listTimes: number[] = [];
    const toolFilterTimes: number[] = [];
    for (let run = 0; run <= listRuns; run++) {
      const page = await timed(() => h.invoke('history.list', { limit: 200 }));
      const filtered = await timed(() => h.invoke('history.list', { limit: 200, tool: 'read_text' }));
      check(page.value.total === tasks, `the list counts ${page.value.total} tasks, not ${tasks}`);
      check(page.value.entries.length === Math.min(200, tasks), 'the first page is not full');
      check(filtered.value.total <= toolCalls, 'the tool filter counts more tasks than there are calls');
      if (run === 0) continue; // warm-up
      listTimes.push(page.ms);
      toolFilterTimes.push(filtered.ms);
    }
    figures.historyListMs = round2(median(listTimes));
    figures.historyListToolFilterMs = round2(median(toolFilterTimes));

    // 4. Search: one warm-up round over all queries, then timed rounds, in the steady state.
    log(`history: searching (${SEARCH_QUERIES.length} queries × ${searchRuns} runs)…`);
    const perQuery = await searchRounds(h, searchRuns);
    const search = summarize(samplesOf(perQuery));
    figures.historySearchQueries = SEARCH_QUERIES.length;
    figures.historySearchSamples = search.n;
    figures.historySearchP50Ms = round2(search.p50);
    figures.historySearchP95Ms = round2(search.p95);
    figures.historySearchMaxMs = round2(search.max);
    const cpu = summarize(samplesOf(perQuery, 'cpu'));
    figures.historySearchCpuP50Ms = round2(cpu.p50);
    figures.historySearchCpuP95Ms = round2(cpu.p95);
    const slowest = [...perQuery.entries()]
      .map(([query, q]) => ({ query, medianMs: round2(median(q.times)), hits: q.hits }))
      .sort((a, b) => b.medianMs - a.medianMs)
      .slice(0, 5);
    const noHits = [...perQuery.entries()].filter(([, q]) => q.hits === 0).map(([query]) => query);

    // 5. The integrity check (SQLite's and the search index's).
    log('history: checking integrity…');
    const maintenance = side;
    const integrity = await timed(() => maintenance.integrityCheck());
    check(integrity.value === 'ok', `the integrity check found: ${integrity.value}`);
    figures.historyIntegrityCheckMs = round2(integrity.ms);

    // 6. Delete tasks spread over the history, for real (secure delete, index entries, WAL checkpoint).
    log(`history: deleting ${deleteCount} tasks…`);
    const step = ids.length / deleteCount;
    const doomed = Array.from({ length: deleteCount }, (_, i) => ids[Math.floor(i * step)]!);
    const deleted = await timed(() => h.invoke('history.delete', { taskIds: doomed }));
    check(deleted.value.deleted === deleteCount, `deleted ${deleted.value.deleted} tasks, not ${deleteCount}`);
    const after = await h.invoke('history.list', { limit: 1 });
    check(after.total === tasks - deleteCount, `after the deletion the list counts ${after.total} tasks`);
    figures.historyDeletedTasks = deleteCount;
    figures.historyDeleteMs = round2(deleted.ms);
    // One task: the path of a single deletion from the window (FTS5 secure-delete, no index rewrite).
    const lone = ids.find((id) => !doomed.includes(id));
    if (lone !== undefined) {
      figures.historyDeleteOneMs = round2((await timed(() => h.invoke('history.delete', { taskIds: [lone] }))).ms);
    }

    // 7. Open the database as the app does at start: the quick check, the schema check, WAL mode.
    side.close();
    side = undefined;
    await h.dispose();
    host = undefined;
    const opened = await timed(() => openStore(dataDir));
    opened.value.close();
    figures.historyOpenMs = round2(opened.ms);

    return {
      title: `History (${tasks.toLocaleString('en-US')} tasks × ${messagesPerTask} messages)`,
      figures: order(figures),
      labels: HISTORY_LABELS,
      extra: { historySearchSlowest: slowest },
      notes: [
        `Slowest queries (median): ${slowest.map((s) => `${s.query} ${s.medianMs} ms (${s.hits} hits)`).join('; ')}`,
        `Queries with no hits: ${noHits.join(', ') || 'none'}`,
      ],
    };
  } finally {
    side?.close();
    await host?.dispose();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/** The figures in the order of HISTORY_LABELS, so the table and the JSON read the same way each time. */
function order(figures: Record<string, number>): Record<string, number> {
  const keys = [...Object.keys(HISTORY_LABELS), ...Object.keys(figures)];
  return Object.fromEntries([...new Set(keys)].filter((k) => k in figures).map((k) => [k, figures[k]!]));
}
