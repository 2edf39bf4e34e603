import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, readFileSync, realpathSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { expect, sendMessage, test } from './fixtures/homebody.js';
import { CLI, E2E_MODEL, REPO_ROOT, NODE } from './fixtures/paths.js';

/**
 * The Evaluation page as a new user meets it: two generated models added to the library, both run on the default
 * suite with at most 3 cases, the progress followed, the results read side by side, a case opened, the HTML report
 * saved; a limit of 0 is refused beside its field; and a chat from the history recorded as a case.
 */

/** Two different models: the test model under another name, and one made with other weights and quantization. */
function twoModels(): { alpha: string; beta: string } {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), 'hb-e2e-eval-')));
  const alpha = join(dir, 'alpha-q8_0.gguf');
  const beta = join(dir, 'beta-q4_0.gguf');
  copyFileSync(E2E_MODEL, alpha);
  execFileSync(NODE, [CLI, 'make-model', '--preset', 'tiny', '--quant', 'q4_0', '--seed', '7', '--out', beta], {
    cwd: REPO_ROOT,
    stdio: 'ignore',
  });
  return { alpha, beta };
}

async function addToLibrary(page: Page, path: string): Promise<void> {
  await page.getByTestId('nav-models').click();
  await expect(page.getByTestId('add-model-path')).toBeVisible();
  await page.getByTestId('add-model-path').fill(path);
  await page.getByTestId('add-model-submit').click();
  await expect(page.getByTestId('local-model').filter({ hasText: path })).toBeVisible();
}

test('two models compared on the default suite, the report saved, and a chat recorded as a case', async ({
  homebody,
}) => {
  test.setTimeout(240_000);
  const { alpha, beta } = twoModels();
  const { page } = await homebody.launch({ model: E2E_MODEL, maxTokens: 24 });
  await expect(page.getByTestId('chat')).toBeVisible();

  // A chat first, to record later.
  await sendMessage(page, 'What is on my calendar today?');
  await expect(page.getByTestId('message-assistant').last().getByTestId('message-stats')).toBeVisible({
    timeout: 60_000,
  });

  await addToLibrary(page, alpha);
  await addToLibrary(page, beta);

  await page.getByTestId('nav-eval').click();
  await expect(page.getByTestId('eval-page')).toBeVisible();
  // The library names both after their metadata; their paths tell them apart.
  const alphaBox = page.locator(`[data-testid="eval-model-option"][data-path="${alpha}"]`);
  const betaBox = page.locator(`[data-testid="eval-model-option"][data-path="${beta}"]`);
  await expect(alphaBox).toBeVisible();
  await expect(betaBox).toBeVisible();
  await expect(page.getByTestId('eval-models')).toContainText('Q8_0');
  await expect(page.getByTestId('eval-models')).toContainText('Q4_0');
  const defaultSuite = page.locator('[data-testid="eval-suite-option"][data-suite-id="default"]');
  await expect(defaultSuite).toBeVisible();

  // Nothing picked: Run says why it is not available.
  const run = page.getByTestId('eval-run');
  await expect(run).toBeDisabled();
  await expect(page.getByTestId('eval-run-blocker')).toHaveText('Pick at least one model and one suite.');

  await alphaBox.check();
  await betaBox.check();
  await defaultSuite.check();
  await expect(run).toBeEnabled();

  // A wrong limit is refused beside its field, and nothing starts.
  const limit = page.getByTestId('eval-limit');
  await limit.fill('0');
  await run.click();
  await expect(page.getByTestId('eval-limit-problem')).toContainText('whole number of at least 1');
  await expect(limit).toHaveAttribute('aria-invalid', 'true');
  await expect(limit).toBeFocused();
  await expect(page.getByTestId('eval-progress')).toHaveCount(0);

  await limit.fill('3');
  await expect(page.getByTestId('eval-limit-problem')).toHaveCount(0);
  await run.click();

  // Progress: 2 models × 3 cases, with the model on it; Run waits meanwhile.
  const progress = page.getByTestId('eval-progress');
  await expect(progress).toBeVisible();
  await expect(progress).toHaveAttribute('data-total', '6');
  await expect(page.getByTestId('eval-progress-text')).toHaveText(/Loading .+…|\d of 6 cases/);
  await expect(page.getByTestId('eval-run-blocker')).toContainText('A run is going');

  // The end: the run is done and its results show.
  const firstRun = page.getByTestId('eval-run-item').first();
  await expect(firstRun).toHaveAttribute('data-status', 'done', { timeout: 180_000 });
  await expect(progress).toHaveCount(0);
  await expect(firstRun).toHaveAttribute('data-selected', 'true');

  // Side by side: one column per model, every metric, the counts out of 3.
  const table = page.getByTestId('eval-metric-table');
  const columns = table.getByTestId('eval-metric-model');
  await expect(columns).toHaveCount(2);
  expect((await columns.evaluateAll((els) => els.map((el) => el.getAttribute('data-model')))).sort()).toEqual(
    [alpha, beta].sort(),
  );
  await expect(table.getByTestId('eval-metric-row')).toHaveCount(12);
  const correct = table.locator('[data-testid="eval-metric-row"][data-metric="correct"]');
  await expect(correct.getByTestId('eval-metric-value')).toHaveText([/^\d \/ 3$/, /^\d \/ 3$/]);
  await expect(page.getByTestId('eval-chart')).toHaveCount(6);
  const chart = page.locator('[data-testid="eval-chart"][data-metric="toolAccuracy"] svg');
  await expect(chart).toHaveAttribute('aria-label', /^Tool accuracy: .*alpha-q8_0\.gguf: (n\/a|\d+(\.\d)?%)/);
  await expect(chart).toHaveAttribute('aria-label', /beta-q4_0\.gguf: (n\/a|\d+(\.\d)?%)/);

  // Every case, failures first; one opened shows what each model did.
  const rows = page.getByTestId('eval-case-row');
  await expect(rows).toHaveCount(3);
  const failed = await rows.evaluateAll((els) => els.map((el) => el.getAttribute('data-failed')));
  expect(failed).toEqual([...failed].sort((a, b) => Number(b === 'true') - Number(a === 'true')));
  const toggle = rows.first().getByTestId('eval-case-toggle');
  await toggle.click();
  await expect(toggle).toHaveAttribute('aria-expanded', 'true');
  const detail = page.getByTestId('eval-case-detail');
  await expect(detail.getByTestId('eval-case-prompt')).not.toBeEmpty();
  await expect(detail.getByTestId('eval-case-expected')).not.toBeEmpty();
  await expect(detail.getByTestId('eval-case-model')).toHaveCount(2);

  // The HTML report, saved through a download: both models and its charts.
  const downloading = page.waitForEvent('download');
  await page.getByTestId('eval-export-html').click();
  const download = await downloading;
  expect(download.suggestedFilename()).toMatch(/\.html$/);
  const report = readFileSync(await download.path(), 'utf8');
  expect(report).toContain('alpha-q8_0');
  expect(report).toContain('beta-q4_0');
  expect(report).toContain('<svg');
  await expect(page.getByTestId('eval-export-status')).toHaveText(`Saved ${download.suggestedFilename()}.`);

  // The chat, recorded from the history as a case of the recorded suite.
  await page.getByTestId('nav-history').click();
  await expect(page.getByTestId('history-row')).toHaveCount(1);
  await page.getByTestId('history-row-open').first().click();
  await expect(page.getByTestId('task-timeline')).toBeVisible();
  await page.getByTestId('timeline-record-case').click();
  await expect(page.getByTestId('timeline-record-case-status')).toHaveText(
    /^Recorded as case \S+ \((none|single|several), \d+ calls?\)$/,
  );
  await expect(page.getByTestId('timeline-record-case-error')).toHaveCount(0);

  await page.getByTestId('nav-eval').click();
  const recorded = page.locator('[data-testid="eval-suite-option"][data-suite-id="recorded"]');
  await expect(recorded).toBeVisible();
  await expect(page.locator('label', { has: recorded })).toContainText('(1 case)');
});
