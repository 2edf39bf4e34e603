import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import { HistoryExportSchema } from '../../src-shared/contract/index.js';
import { toJsonExport } from '../history/historyExport.js';
import { createHost, type HostInternals } from '../host/createHost.js';
import { HISTORY_LABELS, runHistoryBench, SEARCH_QUERIES } from './historyBench.js';
import { buildVocabulary, generateCorpus, NAMES, PLACES, PLANTED } from './historyCorpus.js';
import { formatTable } from './report.js';

const exec = promisify(execFile);
const root = resolve(import.meta.dirname, '..', '..');
const NOW = Date.UTC(2026, 5, 1, 12);
const TASKS = 200;
const MESSAGES = 5;

// No test here looks at how long anything took: only at shapes, counts and what search finds.
describe('history corpus', () => {
  it('is the same for the same seed, and different for another', () => {
    const a = generateCorpus({ tasks: 30, messagesPerTask: 4, seed: 7, now: NOW });
    const b = generateCorpus({ tasks: 30, messagesPerTask: 4, seed: 7, now: NOW });
    const c = generateCorpus({ tasks: 30, messagesPerTask: 4, seed: 8, now: NOW });
    expect(JSON.stringify(a)).toEqual(JSON.stringify(b));
    expect(JSON.stringify(a)).not.toEqual(JSON.stringify(c));
  });

  it('is a valid export: alternating roles, oldest task first, times within two years, calls in about a third', () => {
    const corpus = generateCorpus({ tasks: TASKS, messagesPerTask: MESSAGES, now: NOW });
    expect(HistoryExportSchema.safeParse(toJsonExport(corpus.tasks, NOW, 'test')).success).toBe(true);
    expect(corpus.tasks).toHaveLength(TASKS);
    expect(corpus.messages).toBe(TASKS * MESSAGES);
    const created = corpus.tasks.map((t) => t.task.createdAt);
    expect(created).toEqual([...created].sort((x, y) => x - y));
    for (const { task, messages, toolCalls } of corpus.tasks) {
      expect(messages.map((m) => m.role)).toEqual(['user', 'assistant', 'user', 'assistant', 'user']);
      expect(messages.map((m) => m.seq)).toEqual([0, 1, 2, 3, 4]);
      expect(task.createdAt).toBeGreaterThan(NOW - 731 * 86_400_000);
      expect(task.updatedAt).toBeLessThan(NOW);
      for (const m of messages) expect(m.createdAt).toBeLessThanOrEqual(task.updatedAt);
      for (const c of toolCalls) expect(['read_text', 'list_folder', 'search_files']).toContain(c.tool);
    }
    const withCalls = corpus.tasks.filter((t) => t.toolCalls.length > 0).length;
    expect(withCalls).toBeGreaterThan(TASKS * 0.2);
    expect(withCalls).toBeLessThan(TASKS * 0.5);
    expect(corpus.toolCalls).toBe(withCalls);
  });

  it('draws from a vocabulary of a couple of thousand words that never holds a planted word', () => {
    const vocabulary = buildVocabulary();
    expect(vocabulary.length).toBeGreaterThan(1500);
    expect(new Set(vocabulary).size).toBe(vocabulary.length);
    const all = new Set([...vocabulary, ...NAMES, ...PLACES].map((w) => w.toLowerCase()));
    for (const { word } of PLANTED) for (const part of word.split(' ')) expect(all.has(part)).toBe(false);
    // The few dozen most frequent words are far more common than the tail: Zipf-like.
    const corpus = generateCorpus({ tasks: TASKS, messagesPerTask: MESSAGES, now: NOW });
    const counts = new Map<string, number>();
    for (const t of corpus.tasks)
      for (const m of t.messages)
        for (const w of m.text.toLowerCase().split(/[^\p{L}\p{N}']+/u)) counts.set(w, (counts.get(w) ?? 0) + 1);
    expect(counts.get('the') ?? 0).toBeGreaterThan(10 * (counts.get('invoice') ?? 0));
  });
});

describe('history benchmark', () => {
  let host: HostInternals | undefined;
  let dataDir: string | undefined;
  afterEach(async () => {
    await host?.dispose();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
    host = undefined;
    dataDir = undefined;
  });

  it('imports the corpus through history.import, and search finds exactly the tasks a word was planted in', async () => {
    const corpus = generateCorpus({ tasks: TASKS, messagesPerTask: MESSAGES, now: NOW });
    dataDir = mkdtempSync(join(tmpdir(), 'hb-bench-'));
    host = await createHost({ dataDir, shell: 'cli', loadModelOnStart: false, version: 'test' });
    const report = await host.invoke('history.import', {
      content: JSON.stringify(toJsonExport(corpus.tasks, NOW, 'test')),
    });
    expect(report).toEqual({ imported: TASKS, skipped: 0, messages: TASKS * MESSAGES, toolCalls: corpus.toolCalls });

    const expected = { quokka: 4, zeppelin: 2, marmalade: 4, 'blue heron': 1 };
    for (const { word } of PLANTED) {
      expect(corpus.planted[word]).toHaveLength(expected[word]);
      const query = word.includes(' ') ? `"${word}"` : word;
      const { hits } = await host.invoke('history.search', { query, limit: 200 });
      expect(hits.map((h) => h.taskId).sort()).toEqual([...corpus.planted[word]].sort());
      for (const hit of hits) {
        expect(hit.matches).toBe(1);
        expect(hit.snippet.toLowerCase()).toContain(word);
        expect(hit.highlights.length).toBeGreaterThan(0);
        expect(hit.target.kind).toBe(word === 'marmalade' ? 'toolCall' : 'message');
      }
    }
    // As typed: a prefix finds the word too.
    const { hits: typed } = await host.invoke('history.search', { query: 'quok' });
    expect(typed.map((h) => h.taskId).sort()).toEqual([...corpus.planted.quokka].sort());

    // A tool's name finds the tasks that called it, and nothing else.
    const readers = corpus.tasks.filter((t) => t.toolCalls.some((c) => c.tool === 'read_text')).map((t) => t.task.id);
    const { hits: byTool } = await host.invoke('history.search', { query: 'read_text', limit: 200 });
    expect(byTool.map((h) => h.taskId).sort()).toEqual(readers.sort());

    // The benchmark's no-hit queries find nothing.
    for (const query of ['xylophone', 'zzqv', '"purple elephant"']) {
      expect(SEARCH_QUERIES).toContain(query);
      expect((await host.invoke('history.search', { query })).hits).toEqual([]);
    }
  });

  it('runs the section on a small history and reports finite, non-negative figures with the right counts', async () => {
    const before = new Set(readdirSync(tmpdir()).filter((n) => n.startsWith('homebody-bench-')));
    const lines: string[] = [];
    const section = await runHistoryBench({
      tasks: TASKS,
      messagesPerTask: MESSAGES,
      searchRuns: 1,
      listRuns: 2,
      deleteCount: 10,
      log: (line) => lines.push(line),
    });
    const f = section.figures;
    for (const key of [
      'historyTasks',
      'historyMessages',
      'historyToolCalls',
      'historyImportMs',
      'historyDbMb',
      'historyWalMb',
      'historyListMs',
      'historyListToolFilterMs',
      'historySearchP50Ms',
      'historySearchP95Ms',
      'historySearchMaxMs',
      'historySearchAfterImportP95Ms',
      'historyIntegrityCheckMs',
      'historyDeleteMs',
    ]) {
      expect(f[key], key).toBeTypeOf('number');
    }
    for (const [key, value] of Object.entries(f)) {
      expect(Number.isFinite(value), key).toBe(true);
      expect(value, key).toBeGreaterThanOrEqual(0);
      expect(HISTORY_LABELS[key], key).toBeDefined();
    }
    expect(f.historyTasks).toBe(TASKS);
    expect(f.historyMessages).toBe(TASKS * MESSAGES);
    expect(f.historySearchQueries).toBe(SEARCH_QUERIES.length);
    expect(SEARCH_QUERIES.length).toBeGreaterThanOrEqual(40);
    expect(f.historySearchSamples).toBe(SEARCH_QUERIES.length);
    expect(f.historyDeletedTasks).toBe(10);
    expect(f.historyDbMb).toBeGreaterThan(0);
    expect(f.historySearchP50Ms).toBeLessThanOrEqual(f.historySearchP95Ms!);
    expect(f.historySearchP95Ms).toBeLessThanOrEqual(f.historySearchMaxMs!);
    expect(section.extra?.historySearchSlowest).toHaveLength(5);
    expect(lines.length).toBeGreaterThan(3);
    expect(formatTable([section])).toContain('historySearchP95Ms');
    // The temporary data folder is gone.
    const after = readdirSync(tmpdir()).filter((n) => n.startsWith('homebody-bench-') && !before.has(n));
    expect(after).toEqual([]);
  });

  it('npm run bench -- --json prints one JSON object on stdout, progress on stderr', async () => {
    const { stdout, stderr } = await exec(
      join(root, 'node_modules', '.bin', 'tsx'),
      ['src-main/bench/main.ts', '--json', '--only', 'history', '--tasks', '60', '--messages-per-task', '3'],
      { cwd: root, maxBuffer: 16 << 20 },
    );
    const out = JSON.parse(stdout) as Record<string, unknown>;
    expect(stdout.trim().split('\n')).toHaveLength(1);
    expect(out.historyTasks).toBe(60);
    expect(out.historyMessages).toBe(180);
    expect(out.historySearchP95Ms).toBeTypeOf('number');
    expect(stderr).toContain('history: importing');
  });

  it('refuses an unknown section or a bad size with a usage message', async () => {
    for (const args of [
      ['--only', 'nope'],
      ['--tasks', '0'],
    ]) {
      const failed = await exec(join(root, 'node_modules', '.bin', 'tsx'), ['src-main/bench/main.ts', ...args], {
        cwd: root,
      }).then(
        () => undefined,
        (error: { code: number; stdout: string; stderr: string }) => error,
      );
      expect(failed?.code, args.join(' ')).toBe(2);
      expect(failed?.stdout).toBe('');
      expect(failed?.stderr).toContain('Usage: npm run bench');
    }
  });
});
