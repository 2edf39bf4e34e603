/**
 * Trust through the command line, as an attacker and a new user would try it: a granted folder swapped for a link
 * to /, a broad grant, Homebody's own data folder under a grant of /, a path outside every grant, and the audit
 * log answering who allowed what.
 */
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  realpathSync,
  renameSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { AuditEvent } from '../../src-shared/contract/index.js';
import { runCli } from '../testing/cliProcess.js';
import type { ToolCallJson } from './toolsCommand.js';

const work = realpathSync(mkdtempSync(join(tmpdir(), 'hb-consent-cli-')));
afterAll(() => rmSync(work, { recursive: true, force: true }));

async function call(dataDir: string, tool: string, args: unknown): Promise<ToolCallJson> {
  const out = await runCli(dataDir, 'tools', 'call', tool, JSON.stringify(args), '--json');
  return JSON.parse(out.stdout) as ToolCallJson;
}

async function audit(dataDir: string, ...filter: string[]): Promise<AuditEvent[]> {
  const out = await runCli(dataDir, 'audit', ...filter, '--json');
  expect(out.code, out.stderr).toBe(0);
  return (JSON.parse(out.stdout) as { events: AuditEvent[] }).events;
}

describe('consent and confinement through the CLI', () => {
  it('refuses every call into a granted folder that was swapped for a link to /, and creates nothing', async () => {
    const dataDir = join(work, 'swap-data');
    const docs = join(work, 'Docs');
    mkdirSync(docs);
    writeFileSync(join(docs, 'a.txt'), 'mine');
    expect((await runCli(dataDir, 'policy', 'grant', docs)).code).toBe(0);
    for (const tool of ['read_text', 'write_text'])
      expect((await runCli(dataDir, 'policy', 'set', tool, 'auto')).code).toBe(0);
    expect(await call(dataDir, 'read_text', { path: join(docs, 'a.txt') })).toMatchObject({ status: 'done' });

    // Another program: mv Docs Docs.old; ln -s / Docs
    renameSync(docs, `${docs}.old`);
    symlinkSync('/', docs);
    const read = await call(dataDir, 'read_text', { path: join(docs, 'etc', 'hostname') });
    expect(read).toMatchObject({
      status: 'failed',
      error: expect.stringMatching(/replaced by a link since you granted it/),
    });
    expect(JSON.stringify(read)).not.toContain(readFileSync('/etc/hostname', 'utf8').trim());
    const marker = `hb-consent-${process.pid}.txt`;
    const write = await call(dataDir, 'write_text', {
      path: join(docs, 'tmp', marker),
      content: 'x',
      overwrite: false,
    });
    expect(write).toMatchObject({ status: 'failed', error: expect.stringMatching(/replaced by a link/) });
    expect(existsSync(join('/tmp', marker))).toBe(false);

    const shown = await runCli(dataDir, 'policy', 'show');
    expect(shown.stdout).toContain(docs);
    // Granted again on purpose, the grant follows the folder now at the path.
    rmSync(docs);
    renameSync(`${docs}.old`, docs);
    expect(await call(dataDir, 'read_text', { path: join(docs, 'a.txt') })).toMatchObject({ status: 'done' });
  });

  it('warns before granting the whole disk, and even then keeps Homebody’s own data folder out of reach', async () => {
    const dataDir = join(work, 'root-data');
    const refused = await runCli(dataDir, 'policy', 'grant', '/');
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/whole disk.*--confirm-broad/s);
    expect((await runCli(dataDir, 'policy', 'export')).stdout).not.toContain('"path": "/"');

    expect((await runCli(dataDir, 'policy', 'grant', '/', '--confirm-broad')).code).toBe(0);
    expect((await runCli(dataDir, 'policy', 'set', 'read_text', 'auto')).code).toBe(0);
    // The database and the secrets' key file live in the data folder: no grant reaches them.
    for (const file of ['homebody.db', 'secret.key', '.']) {
      const read = await call(dataDir, 'read_text', { path: join(dataDir, file) });
      expect(read).toMatchObject({ status: 'failed', error: expect.stringMatching(/Homebody's own data folder/) });
    }
    // A relative path resolves against the first granted folder, here /, and the record says so in full.
    const relative = await call(dataDir, 'read_text', { path: 'etc/hostname' });
    expect(relative.status).toBe('done');
    const events = await audit(dataDir, '--path', '/etc/hostname');
    expect(events.find((e) => e.kind === 'proposed')?.paths).toEqual([
      { arg: 'path', role: 'existing', given: 'etc/hostname', path: '/etc/hostname', root: '/', untrusted: false },
    ]);
    expect(events.find((e) => e.kind === 'decided')?.basis).toEqual({ kind: 'policy', mode: 'auto' });
  });

  it('refuses a path outside every grant before anyone is asked, and the audit log finds it by basis', async () => {
    const dataDir = join(work, 'outside-data');
    const reports = join(work, 'Reports');
    const secret = join(work, 'private', 'secret.txt');
    mkdirSync(reports);
    mkdirSync(join(work, 'private'));
    writeFileSync(secret, 'outside secret');
    expect((await runCli(dataDir, 'policy', 'grant', reports)).code).toBe(0);
    // read_text still asks (no one can be asked here), so a refusal is the broker's, not the prompt's.
    const read = await call(dataDir, 'read_text', { path: secret });
    expect(read).toMatchObject({ status: 'failed', error: expect.stringMatching(/outside the folders you may use/) });
    const refused = await audit(dataDir, '--basis', 'outside-grants');
    expect(refused).toEqual([expect.objectContaining({ kind: 'rejected', actor: 'cli' })]);
    expect(await audit(dataDir, '--basis', 'system')).toEqual([]);
    const bad = await runCli(dataDir, 'audit', '--basis', 'whim');
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/--basis takes one of/);
  });
});
