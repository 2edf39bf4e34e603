import { mkdtempSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { seedHistory } from '../testing/historyFixture.js';
import { openStore } from '../store/store.js';
import { runCli } from '../testing/cliProcess.js';

const work = mkdtempSync(join(tmpdir(), 'hb-history-cli-'));
const source = join(work, 'source');
const PHRASE = 'zanzibarquokka';

interface SearchRow {
  taskId: string;
  title: string;
  snippet: string;
  score: number;
}

const search = async (dataDir: string, ...query: string[]) => {
  const out = await runCli(dataDir, 'history', 'search', ...query, '--json');
  expect(out.code, out.stderr).toBe(0);
  return JSON.parse(out.stdout) as SearchRow[];
};

/** The source folder's answers: no test changes it, so a query asked of it twice is run once. */
const sourceAnswers = new Map<string, Promise<SearchRow[]>>();
const searchSource = (...query: string[]) => {
  const key = JSON.stringify(query);
  const answer = sourceAnswers.get(key) ?? search(source, ...query);
  sourceAnswers.set(key, answer);
  return answer;
};

const everyFileContains = (dir: string, text: string) =>
  readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .map((name) => join(dir, name))
    .filter((path) => statSync(path).isFile())
    .filter((path) => readFileSync(path).includes(text));

beforeAll(() => {
  const store = openStore(source);
  seedHistory(store);
  store.tasks.create({ id: 'secret', title: 'A private note', now: Date.now() });
  store.messages.insert({
    id: 'secret-m',
    taskId: 'secret',
    role: 'user',
    text: `The code word is ${PHRASE}, keep it quiet`,
    state: 'complete',
    now: Date.now(),
  });
  store.close();
});

describe('homebody history', () => {
  it('searches with --json as [{taskId, title, snippet, score}], best first', async () => {
    const rows = await searchSource('lisbon');
    expect(rows.map((r) => r.taskId)).toEqual(['broken', 'trip']);
    for (const row of rows) expect(Object.keys(row)).toEqual(['taskId', 'title', 'snippet', 'score']);
    expect(rows[0]!.snippet).toMatch(/Lisbon/);
    expect(rows[0]!.score).toBeGreaterThan(rows[1]!.score);
    expect(await searchSource('nothing-like-this-anywhere')).toEqual([]);
  });

  it('lists with filters, and shows one task as a readable timeline', async () => {
    const list = await runCli(source, 'history', 'list', '--status', 'waiting', '--json');
    expect(JSON.parse(list.stdout)).toMatchObject({ total: 1, entries: [{ id: 'invoice', waitingCalls: 1 }] });
    const show = await runCli(source, 'history', 'show', 'trip');
    // The task itself, not an export: its title and id first, then its timeline.
    expect(show.stdout.split('\n')[1]).toMatch(/^trip · \w+ · \d{4}-/);
    expect(show.stdout).toContain('Plan a weekend in Lisbon');
    expect(show.stdout).toMatch(/\[read_text\] read_text call: .* \(\w+\)/);
    expect(show.stdout).not.toMatch(/^# |Exported|homebody-export/m);
    // The start of an id is enough when only one task's id begins with it.
    const byPrefix = await runCli(source, 'history', 'show', 'invo');
    expect(byPrefix.code, byPrefix.stderr).toBe(0);
    expect(byPrefix.stdout.split('\n')[1]).toMatch(/^invoice · /);
    const missing = await runCli(source, 'history', 'show', 'nope');
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/no task nope/);
    const bad = await runCli(source, 'history', 'list', '--from', 'yesterday-ish');
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/--from must be a date/);
  });

  it('exports to a file and imports into an empty data folder with the same search results', async () => {
    const file = join(work, 'backup.json');
    const exported = await runCli(source, 'history', 'export', '--format', 'json', '--out', file);
    expect(exported.code, exported.stderr).toBe(0);
    const target = join(work, 'target');
    const imported = await runCli(target, 'history', 'import', file, '--json');
    expect(JSON.parse(imported.stdout)).toEqual({ imported: 4, skipped: 0, messages: 5, toolCalls: 4 });
    for (const query of [['lisbon'], ['plumber'], ['read_text'], ['boarding', 'gate'], [PHRASE]]) {
      const strip = (rows: SearchRow[]) => rows.map(({ score: _score, ...rest }) => rest);
      expect(strip(await search(target, ...query))).toEqual(strip(await searchSource(...query)));
    }
    const md = await runCli(source, 'history', 'export', 'trip', '--format', 'md');
    expect(md.stdout).toMatch(/^# Homebody history/);
    const notExport = await runCli(target, 'history', 'import', join(work, 'missing.json'));
    expect(notExport.code).toBe(1);
    expect(notExport.stderr).toMatch(/Cannot read/);
  });

  it('deletes for real: the phrase is gone from every file in the data folder', async () => {
    const dir = join(work, 'target');
    expect(everyFileContains(dir, PHRASE).length).toBeGreaterThan(0);
    const out = await runCli(dir, 'history', 'delete', 'secret', '--json');
    expect(JSON.parse(out.stdout)).toEqual({ deleted: 1, notFound: [] });
    expect(everyFileContains(dir, PHRASE)).toEqual([]);
    expect(await search(dir, PHRASE)).toEqual([]);
    const again = await runCli(dir, 'history', 'delete', 'secret');
    expect(again.code).toBe(1);
    expect(again.stderr).toMatch(/Not found: secret/);
  });
});
