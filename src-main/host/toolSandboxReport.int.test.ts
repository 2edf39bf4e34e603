import { mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { DoctorReportSchema, StorageReportSchema } from '../../src-shared/contract/index.js';
import { createHost, type HostInternals } from './createHost.js';

// The Privacy page and the Doctor say which OS sandbox the tool worker runs in, from the same probe; bubblewrap is
// installed on these machines (.ci/run installs it), and HOMEBODY_SANDBOX=off turns it off for debugging.
const work = realpathSync(mkdtempSync(join(tmpdir(), 'hb-sandbox-report-')));
const hosts: HostInternals[] = [];
afterAll(async () => {
  for (const host of hosts) await host.dispose();
  rmSync(work, { recursive: true, force: true });
});

async function newHost(name: string): Promise<HostInternals> {
  const host = await createHost({ dataDir: join(work, name), shell: 'cli', loadModelOnStart: false });
  hosts.push(host);
  return host;
}

describe('the tool sandbox in the Privacy report and the Doctor', () => {
  it('both say bubblewrap confines the tool worker', async () => {
    const host = await newHost('on');
    const storage = StorageReportSchema.parse(await host.invoke('privacy.storage', {}));
    expect(storage.sandbox).toEqual({
      kind: 'bubblewrap',
      summary: 'bubblewrap: the tool worker sees only the granted folders and has no network.',
      detail: expect.stringMatching(/never the history database or the secret key/),
    });
    const doctor = DoctorReportSchema.parse(await host.invoke('doctor.report', {}));
    expect(doctor.sandbox).toEqual(storage.sandbox);
  });

  it('both say plainly when HOMEBODY_SANDBOX=off turned it off', async () => {
    const before = process.env.HOMEBODY_SANDBOX;
    process.env.HOMEBODY_SANDBOX = 'off';
    try {
      const host = await newHost('off');
      const { sandbox } = await host.invoke('privacy.storage', {});
      expect(sandbox).toMatchObject({
        kind: 'none',
        summary: 'No OS sandbox: HOMEBODY_SANDBOX=off turned it off; tools are confined by path checks only.',
      });
      expect((await host.invoke('doctor.report', {})).sandbox).toEqual(sandbox);
    } finally {
      if (before === undefined) delete process.env.HOMEBODY_SANDBOX;
      else process.env.HOMEBODY_SANDBOX = before;
    }
  });
});
