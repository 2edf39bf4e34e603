import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { LedgerPageSchema, NetworkSettingsViewSchema } from '../../src-shared/contract/index.js';
import { openStore } from '../store/store.js';
import { runCli } from '../testing/cliProcess.js';

describe('homebody privacy', () => {
  it('shows offline mode on for a new data folder, adds a rule (offline stays on), and turns offline off', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'hb-privacy-cli-'));
    const shown = await runCli(dataDir, 'privacy', 'network');
    expect(shown).toMatchObject({ code: 0 });
    expect(shown.stdout).toBe('Offline mode: on\nRules:\n  (none)\n');

    const allowed = await runCli(dataDir, 'privacy', 'allow', 'mail', 'SMTP.example.com');
    expect(allowed).toMatchObject({
      code: 0,
      stdout: 'Allowed mail to reach smtp.example.com. Offline mode is still on.\n',
    });
    const wrong = await runCli(dataDir, 'privacy', 'allow', 'ftp', 'example.com');
    expect(wrong.code).toBe(2);
    expect(wrong.stderr).toContain(
      'privacy allow needs a feature (model-download, web, mail, mcp, remote-model) and a host, or *',
    );
    const badHost = await runCli(dataDir, 'privacy', 'allow', 'web', 'https://example.com/');
    expect(badHost.code).toBe(1);
    expect(badHost.stderr).toContain('a host name, an IP address, or * for any host');

    expect(await runCli(dataDir, 'privacy', 'offline', 'off')).toMatchObject({
      code: 0,
      stdout: 'Offline mode: off\n',
    });
    expect((await runCli(dataDir, 'privacy', 'offline', 'maybe')).code).toBe(2);
    const json = await runCli(dataDir, 'privacy', 'network', '--json');
    expect(NetworkSettingsViewSchema.parse(JSON.parse(json.stdout))).toMatchObject({
      offline: false,
      rules: [{ feature: 'mail', host: 'smtp.example.com' }],
    });
  });

  it('lists the ledger newest first, as text or JSON, all of it or the allowed connections only', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'hb-privacy-cli-'));
    const store = openStore(dataDir);
    const base = {
      feature: 'mail' as const,
      url: 'smtp://smtp.example.com:587',
      host: 'smtp.example.com',
      port: 587,
      via: 'guard' as const,
    };
    store.egress.append({
      ...base,
      at: Date.UTC(2026, 10, 30, 9, 0, 0),
      source: 'tool mail_send (send mail)',
      allowed: false,
      reason: 'Offline mode is on: Homebody did not connect to smtp.example.com for mail.',
      bytes: null,
    });
    store.egress.append({
      ...base,
      at: Date.UTC(2026, 10, 30, 9, 5, 0),
      source: 'tool mail_send (send mail)',
      allowed: true,
      reason: 'rule mail: smtp.example.com',
      bytes: 2048,
    });
    store.close();

    const text = await runCli(dataDir, 'privacy', 'ledger');
    expect(text.code).toBe(0);
    expect(text.stdout.split('\n')).toEqual([
      '2 connections recorded, 1 allowed.',
      '2026-11-30 09:05:00  allowed  mail  tool mail_send (send mail)  smtp://smtp.example.com:587  (rule mail: smtp.example.com)  2,048 bytes',
      '2026-11-30 09:00:00  BLOCKED  mail  tool mail_send (send mail)  smtp://smtp.example.com:587  (Offline mode is on: Homebody did not connect to smtp.example.com for mail.)',
      '',
    ]);
    const json = LedgerPageSchema.parse(
      JSON.parse((await runCli(dataDir, 'privacy', 'ledger', '--json', '--allowed')).stdout),
    );
    expect(json).toMatchObject({ total: 1, allowedCount: 1, events: [{ allowed: true, bytes: 2048 }] });
  });
});
