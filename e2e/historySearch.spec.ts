import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import type { HistoryExport } from '../src-shared/contract/index.js';
import { expect, test } from './fixtures/homebody.js';
import { DAY_MS, messageId, writeHistoryExport, type SeedTask } from './fixtures/historySeed.js';

/**
 * The History page and search, as a new user meets them in the browser, offline and with no model loaded:
 * a history is brought in with Import, then searched (Ctrl+K), filtered, read as a timeline, exported,
 * pruned by hand and by a retention period. Every wait is on the UI's state.
 */

const HOUR_MS = 3_600_000;

function seedTasks(now: number): SeedTask[] {
  const long: SeedTask = {
    id: 'long-trip',
    title: 'Planning the Perth trip',
    updatedAt: now - HOUR_MS,
    messages: Array.from({ length: 300 }, (_, i) =>
      i === 4
        ? 'Remember the quokka sanctuary <b>on</b> Rottnest island'
        : `Itinerary line ${i}: trains, ferries and opening hours`,
    ),
  };
  const tidy: SeedTask = {
    id: 'tidy-reports',
    title: 'Tidy the Reports folder',
    updatedAt: now - 2 * HOUR_MS,
    messages: ['Move the old invoices into Archive', 'Done: I moved them.'],
    calls: [
      {
        id: 'tidy-move',
        tool: 'move',
        risk: 'write',
        args: { from: '/home/me/Reports/invoice-2023.pdf', to: '/home/me/Archive/invoice-2023.pdf' },
        description: { title: 'Move a file', summary: 'Moves invoice-2023.pdf to Archive', details: [] },
        decision: 'allow-once',
        decidedBy: 'user',
        state: 'done',
        result: { moved: 'invoice-2023.pdf', note: 'zebra striped folder' },
        undo: 'undone',
        createdAt: now - 2 * HOUR_MS - 5000,
        decidedAt: now - 2 * HOUR_MS - 4000,
        startedAt: now - 2 * HOUR_MS - 3900,
        finishedAt: now - 2 * HOUR_MS - 3900 + 1234,
      },
    ],
  };
  const failed: SeedTask = {
    id: 'broken-listing',
    title: 'List the Downloads folder',
    status: 'failed',
    updatedAt: now - 3 * HOUR_MS,
    messages: ['What is in my Downloads? The zebra photos should be there', 'I could not list it.'],
    calls: [
      {
        id: 'broken-list',
        tool: 'list_folder',
        args: { path: '/home/me/Downloads' },
        decision: 'auto',
        decidedBy: 'policy',
        state: 'failed',
        error: 'No such folder',
        gate: 'none',
      },
    ],
  };
  const stopped: SeedTask = {
    id: 'half-poem',
    title: 'A poem about autumn',
    status: 'stopped',
    updatedAt: now - 4 * HOUR_MS,
    messages: ['Write a sonnet about falling leaves', 'Golden leaves descend upon the'],
  };
  const old: SeedTask = {
    id: 'ancient-list',
    title: 'Ancient shopping list',
    updatedAt: now - 400 * DAY_MS,
    messages: ['Buy marmalade and bread', 'Noted: marmalade, bread.'],
  };
  const fillers: SeedTask[] = Array.from({ length: 20 }, (_, i) => ({
    id: `filler-${i}`,
    title: `Everyday question ${i}`,
    updatedAt: now - (5 + i) * HOUR_MS,
    messages: [`How long do I boil egg number ${i}?`, 'About nine minutes.'],
  }));
  return [long, tidy, failed, stopped, old, ...fillers];
}

const row = (page: Page, taskId: string) => page.locator(`[data-testid="history-row"][data-task-id="${taskId}"]`);

async function importFile(page: Page, file: string, imported: RegExp) {
  await page.getByTestId('history-import').setInputFiles(file);
  await expect(page.getByTestId('history-action-status')).toHaveText(imported);
}

/** The name and text of the file a click makes the page download. */
async function downloaded(page: Page, click: () => Promise<void>): Promise<{ name: string; content: string }> {
  const [download] = await Promise.all([page.waitForEvent('download'), click()]);
  const path = await download.path();
  return { name: download.suggestedFilename(), content: readFileSync(path, 'utf8') };
}

async function search(page: Page, query: string) {
  await page.keyboard.press('Control+K');
  const input = page.getByTestId('search-input');
  await expect(input).toBeFocused();
  await input.fill(query);
  return input;
}

test('search, filters, timeline, export, deletion and retention of an imported history', async ({ homebody }) => {
  const work = mkdtempSync(join(tmpdir(), 'hb-e2e-history-'));
  const seed = writeHistoryExport(join(work, 'history.json'), seedTasks(Date.now()));
  const { page } = await homebody.launch({ dataDir: join(work, 'data') });
  await expect(page.getByTestId('onboarding')).toBeVisible();

  // A new user's history is empty; Import brings in a JSON export.
  await page.getByTestId('nav-history').click();
  await expect(page.getByTestId('history-page')).toBeVisible();
  await expect(page.getByTestId('history-total')).toHaveText('0 tasks');
  await importFile(page, seed, /^Imported 25 tasks \(348 messages, 2 tool calls\)\.$/);
  await expect(page.getByTestId('history-total')).toHaveText('25 tasks');
  await expect(row(page, 'long-trip')).toBeVisible();
  // Importing the same file again adds nothing and says so.
  await importFile(page, seed, /Imported no new tasks; 25 tasks were already here/);
  await expect(page.getByTestId('history-total')).toHaveText('25 tasks');

  // Ctrl+K from anywhere: results as you type, the matched word marked, markup shown as text.
  await page.getByTestId('nav-settings').click();
  await search(page, 'quokka');
  const hit = page.locator('[data-testid="search-result"][data-task-id="long-trip"]');
  await expect(hit).toBeVisible();
  await expect(hit).toHaveAttribute('aria-selected', 'true');
  await expect(hit).toHaveAttribute('data-target-id', messageId('long-trip', 4));
  await expect(hit.locator('mark')).toHaveText(['quokka']);
  await expect(hit.getByTestId('search-snippet')).toContainText('<b>on</b>');
  await expect(hit.locator('b')).toHaveCount(0);

  // Enter opens the task at the fifth of its 300 messages, far from the end the chat usually shows.
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('search-dialog')).toHaveCount(0);
  await expect(page.getByTestId('readonly-notice')).toBeVisible();
  const target = page.locator(`[data-message-id="${messageId('long-trip', 4)}"]`);
  await expect(target).toHaveAttribute('data-search-target', 'true');
  await expect(target).toBeInViewport();
  await expect(target).toBeFocused();
  await expect(page.locator(`[data-message-id="${messageId('long-trip', 299)}"]`)).not.toBeInViewport();

  // Arrow keys move through the results; the hit in a tool call opens that call.
  await search(page, 'zebra');
  await expect(page.getByTestId('search-result')).toHaveCount(2);
  const callHit = page.locator('[data-testid="search-result"][data-task-id="tidy-reports"]');
  await expect(callHit).toHaveAttribute('data-target-kind', 'toolCall');
  const position = await page
    .getByTestId('search-result')
    .evaluateAll((items) => items.findIndex((item) => item.getAttribute('data-task-id') === 'tidy-reports'));
  for (let i = 0; i < position; i++) await page.keyboard.press('ArrowDown');
  await expect(callHit).toHaveAttribute('aria-selected', 'true');
  await page.keyboard.press('Enter');
  const call = page.locator('[data-testid="toolcall-card"][data-call-id="tidy-move"]');
  await expect(call).toHaveAttribute('data-search-target', 'true');
  await expect(call).toBeInViewport();

  // Esc closes the palette and gives the focus back.
  await search(page, 'nothing-matches-this');
  await expect(page.getByTestId('search-status')).toHaveText('No matches for “nothing-matches-this”.');
  await page.keyboard.press('Escape');
  await expect(page.getByTestId('search-dialog')).toHaveCount(0);

  // Filters: by status, by tool, by date; the total follows.
  await page.getByTestId('nav-history').click();
  await page.getByTestId('history-status-failed').check();
  await expect(page.getByTestId('history-total')).toHaveText('1 task matches these filters');
  await expect(page.getByTestId('history-row')).toHaveCount(1);
  await expect(row(page, 'broken-listing')).toBeVisible();
  await page.getByTestId('history-status-stopped').check();
  await expect(page.getByTestId('history-total')).toHaveText('2 tasks match these filters');
  await page.getByTestId('history-clear-filters').click();
  await page.getByTestId('history-tool-filter').selectOption('move');
  await expect(page.getByTestId('history-total')).toHaveText('1 task matches these filters');
  await expect(row(page, 'tidy-reports')).toBeVisible();
  await page.getByTestId('history-tool-filter').selectOption('');
  await page.getByTestId('history-date-filter').selectOption('30d');
  await expect(page.getByTestId('history-total')).toHaveText('24 tasks match these filters');
  await expect(row(page, 'ancient-list')).toHaveCount(0);
  await page.getByTestId('history-clear-filters').click();
  await expect(page.getByTestId('history-total')).toHaveText('25 tasks');

  // The timeline: who decided each call, what it did, how long it took.
  await row(page, 'tidy-reports').getByTestId('history-row-open').click();
  const timeline = page.getByTestId('task-timeline');
  await expect(timeline.getByTestId('timeline-title')).toHaveText('Tidy the Reports folder');
  await expect(timeline.getByTestId('timeline-title')).toBeFocused();
  const move = timeline.locator('[data-testid="timeline-toolcall"][data-call-id="tidy-move"]');
  await expect(move.getByTestId('timeline-decision')).toHaveText('Allowed once by you');
  await expect(move.getByTestId('timeline-decided-by')).toHaveText('You');
  await expect(move.getByTestId('timeline-state')).toHaveText('Done');
  await expect(move.getByTestId('timeline-duration')).toHaveText('1.2 s');
  await expect(move.getByTestId('timeline-undo')).toHaveText('Undone');
  await expect(timeline.getByTestId('timeline-message')).toHaveCount(2);
  await expect(timeline.getByTestId('timeline-message-stats')).toContainText('12 tokens');
  await timeline.getByTestId('timeline-back').click();
  await expect(row(page, 'tidy-reports').getByTestId('history-row-open')).toBeFocused();

  await row(page, 'broken-listing').getByTestId('history-row-open').click();
  const list = page.locator('[data-testid="timeline-toolcall"][data-call-id="broken-list"]');
  await expect(list.getByTestId('timeline-decision')).toHaveText('Allowed by policy');
  await expect(list.getByTestId('timeline-decided-by')).toHaveText('Policy');
  await expect(list.getByTestId('timeline-state')).toHaveText('Failed: No such folder');
  await page.getByTestId('timeline-back').click();

  // Export the selection (Shift-click selects a range) as JSON: exactly those tasks, whole.
  await row(page, 'tidy-reports').getByTestId('history-row-select').check();
  await row(page, 'half-poem')
    .getByTestId('history-row-select')
    .click({ modifiers: ['Shift'] });
  await expect(page.getByTestId('history-selection-count')).toHaveText('3 tasks selected');
  // Electron saves a download through its native save dialog, which no test can answer: browser mode checks files.
  if (homebody.shell === 'browser') {
    const json = await downloaded(page, () => page.getByTestId('history-export-selected').click());
    expect(json.name).toMatch(/^homebody-history-\d{4}-\d{2}-\d{2}\.json$/);
    const exported = JSON.parse(json.content) as HistoryExport;
    expect(exported.format).toBe('homebody-history');
    expect(exported.tasks.map((t) => t.task.id).sort()).toEqual(['broken-listing', 'half-poem', 'tidy-reports']);
    expect(exported.tasks.find((t) => t.task.id === 'tidy-reports')?.toolCalls[0]?.decidedBy).toBe('user');
    await expect(page.getByTestId('history-action-status')).toHaveText(/^Exported 3 tasks to homebody-history-/);

    // Markdown, for reading.
    await page.getByTestId('history-export-format').selectOption('md');
    await page.getByTestId('history-clear-selection').click();
    await row(page, 'tidy-reports').getByTestId('history-row-select').check();
    const md = await downloaded(page, () => page.getByTestId('history-export-selected').click());
    expect(md.name).toMatch(/^homebody-task-.*\.md$/);
    expect(md.content).toContain('Tidy the Reports folder');
    expect(md.content).toContain('Move the old invoices into Archive');
  }
  await page.getByTestId('history-clear-selection').click();
  await expect(page.getByTestId('history-selection-count')).toHaveText('');

  // Delete one task: asked first (it cannot be undone), then gone from the list and from search.
  await row(page, 'half-poem').getByTestId('history-row-select').check();
  await page.getByTestId('history-delete-selected').click();
  const confirm = page.getByTestId('confirm-dialog');
  await expect(confirm).toContainText('Delete 1 task?');
  await expect(confirm).toContainText('This cannot be undone.');
  await expect(page.getByTestId('confirm-cancel')).toBeFocused();
  await page.getByTestId('confirm-ok').click();
  await expect(confirm).toHaveCount(0);
  await expect(row(page, 'half-poem')).toHaveCount(0);
  await expect(page.getByTestId('history-total')).toHaveText('24 tasks');
  await expect(page.getByTestId('history-action-status')).toHaveText('Deleted 1 task.');
  await expect(page.locator('[data-testid="task-item"][data-task-id="half-poem"]')).toHaveCount(0);
  await search(page, 'sonnet');
  await expect(page.getByTestId('search-status')).toHaveText('No matches for “sonnet”.');
  await page.keyboard.press('Escape');

  // Retention: a year deletes the one task older than that, after saying how many.
  await page.getByTestId('history-retention').selectOption('365');
  await page.getByTestId('history-retention-apply').click();
  await expect(confirm).toContainText('Delete 1 task now?');
  await expect(confirm).toContainText('This cannot be undone.');
  await page.getByTestId('confirm-ok').click();
  await expect(page.getByTestId('history-retention-report')).toHaveText(
    'Delete tasks older than a year. Deleted 1 task now.',
  );
  await expect(row(page, 'ancient-list')).toHaveCount(0);
  await expect(page.getByTestId('history-total')).toHaveText('23 tasks');
  // The period holds after a reload, and is the one shown.
  await page.reload();
  await page.getByTestId('nav-history').click();
  await expect(page.getByTestId('history-retention')).toHaveValue('365');
  await expect(page.getByTestId('history-retention-report')).toHaveText(
    'Delete tasks older than a year, checked every hour.',
  );

  // Delete everything.
  await page.getByTestId('history-delete-all').click();
  await expect(confirm).toContainText('Delete the whole history?');
  await page.getByTestId('confirm-ok').click();
  await expect(page.getByTestId('history-total')).toHaveText('0 tasks');
  await expect(page.getByTestId('history-empty')).toBeVisible();
  await expect(page.getByTestId('task-item')).toHaveCount(0);
});

test('ten thousand tasks: a windowed list paged as it scrolls, keyboard included', async ({ homebody }) => {
  const work = mkdtempSync(join(tmpdir(), 'hb-e2e-history-big-'));
  const now = Date.now();
  const count = 10_000;
  const tasks: SeedTask[] = Array.from({ length: count }, (_, i) => ({
    id: `bulk-${String(i).padStart(5, '0')}`,
    title: `Bulk task ${String(i).padStart(5, '0')}`,
    updatedAt: now - (i + 1) * 60_000,
    messages: [`Question number ${i}`],
  }));
  const seed = writeHistoryExport(join(work, 'bulk.json'), tasks);
  const { page } = await homebody.launch({ dataDir: join(work, 'data') });
  await page.getByTestId('nav-history').click();
  await importFile(page, seed, /^Imported 10,000 tasks/);
  await expect(page.getByTestId('history-total')).toHaveText('10,000 tasks');

  // Only the rows in view are in the page, yet the list is as tall as all of them.
  const rows = page.getByTestId('history-row');
  await expect(rows.first()).toHaveAttribute('data-task-id', 'bulk-00000');
  expect(await rows.count()).toBeLessThan(80);
  await expect(rows.first()).toHaveAttribute('aria-setsize', String(count));

  // Jump to the end: the pages in between are fetched with the cursor, and the oldest task shows.
  const list = page.getByTestId('history-list');
  await list.evaluate((el) => (el.scrollTop = el.scrollHeight));
  const last = page.locator('[data-testid="history-row"][data-index="9999"]');
  await expect(last).toHaveAttribute('data-task-id', 'bulk-09999');
  await expect(last).toBeInViewport();
  expect(await rows.count()).toBeLessThan(80);

  // Keyboard: Home goes back to the first row, Down to the next, and focus follows.
  await last.getByTestId('history-row-open').focus();
  await page.keyboard.press('Home');
  const first = page.locator('[data-testid="history-row"][data-index="0"]');
  await expect(first.getByTestId('history-row-open')).toBeFocused();
  await page.keyboard.press('ArrowDown');
  await expect(
    page.locator('[data-testid="history-row"][data-index="1"]').getByTestId('history-row-open'),
  ).toBeFocused();
  await page.keyboard.press('End');
  await expect(last.getByTestId('history-row-open')).toBeFocused();

  // Search still answers at once on the whole history.
  await search(page, 'number 9876');
  await expect(page.locator('[data-testid="search-result"][data-task-id="bulk-09876"]')).toBeVisible();
});

test('a damaged history database is moved aside and the user is told, once', async ({ homebody }) => {
  const dataDir = join(mkdtempSync(join(tmpdir(), 'hb-e2e-damaged-')), 'data');
  mkdirSync(dataDir);
  writeFileSync(join(dataDir, 'homebody.db'), 'this is not a database, just some text '.repeat(200));
  const { page } = await homebody.launch({ dataDir });
  const notice = page.getByTestId('startup-notice');
  await expect(notice).toContainText('The history database was damaged');
  await expect(notice).toContainText('moved it to');
  await notice.getByRole('button', { name: 'Dismiss this message' }).click();
  await expect(notice).toHaveCount(0);
  // The new, empty history works.
  await page.getByTestId('nav-history').click();
  await expect(page.getByTestId('history-total')).toHaveText('0 tasks');
});
