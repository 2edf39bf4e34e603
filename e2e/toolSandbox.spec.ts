import { expect, test } from './fixtures/homebody.js';
import { E2E_MODEL } from './fixtures/paths.js';

/**
 * Which OS sandbox keeps the tools away from the rest of the computer is said where a user looks for it: in the
 * Privacy page's "Stored on this computer", and in the Doctor. Here bubblewrap is installed (.ci/run installs it).
 */
test('the Privacy page and the Doctor say the tool worker runs in bubblewrap', async ({ homebody }) => {
  const { page } = await homebody.launch({ model: E2E_MODEL });
  await page.getByTestId('nav-privacy').click();
  const privacy = page.getByTestId('storage-sandbox');
  await expect(privacy).toHaveAttribute('data-kind', 'bubblewrap');
  await expect(privacy).toContainText('bubblewrap: the tool worker sees only the granted folders and has no network.');
  await expect(privacy).toContainText('never the history database or the secret key');

  await page.getByTestId('nav-doctor').click();
  const doctor = page.getByTestId('doctor-sandbox');
  await expect(doctor).toHaveAttribute('data-kind', 'bubblewrap');
  await expect(doctor).toContainText('bubblewrap: the tool worker sees only the granted folders and has no network.');
});

test('with HOMEBODY_SANDBOX=off both say plainly that no OS sandbox confines the tools', async ({ homebody }) => {
  const { page } = await homebody.launch({ model: E2E_MODEL, env: { HOMEBODY_SANDBOX: 'off' } });
  await page.getByTestId('nav-privacy').click();
  const privacy = page.getByTestId('storage-sandbox');
  await expect(privacy).toHaveAttribute('data-kind', 'none');
  await expect(privacy).toContainText('No OS sandbox: HOMEBODY_SANDBOX=off turned it off');
  await page.getByTestId('nav-doctor').click();
  await expect(page.getByTestId('doctor-sandbox')).toContainText('tools are confined by path checks only');
});
