/**
 * mail_send through the real Host (policy, approval queue, sandboxed tool worker, egress guard) against a real SMTP
 * server on loopback: nothing goes out before approval, exactly the approved message goes out once, and a server
 * that refuses, or offline mode, leaves a failed call whose message is still in the history.
 */
import { mkdtempSync, readdirSync, readFileSync, realpathSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { simpleParser } from 'mailparser';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { ProposalResult } from '../../../agent/toolActions.js';
import { createHost, type HostInternals } from '../../../host/createHost.js';
import { startSmtpTestServer, type SmtpTestServer } from '../../../testing/tools/smtpTestServer.js';
import { COMPILED_TOOL_WORKER } from '../../../testing/compiledApp.js';

const work = realpathSync(mkdtempSync(join(tmpdir(), 'hb-mail-host-')));
let host: HostInternals;
let smtp: SmtpTestServer;
const SMTP_RULE = { feature: 'mail' as const, host: '127.0.0.1' };

const message = {
  to: 'Ana Lima <ana@example.org>',
  cc: 'bob@example.com',
  subject: 'Running late',
  body: "Hi Ana,\nI'm running 10 minutes late.\nSorry!",
};

beforeAll(async () => {
  smtp = await startSmtpTestServer({ user: 'me', password: 'secret', refuseDomain: 'blocked.example' });
  host = await createHost({
    toolWorker: COMPILED_TOOL_WORKER,
    dataDir: join(work, 'data'),
    shell: 'cli',
    loadModelOnStart: false,
  });
  // Offline mode stays on, as for a new user; mail may reach the loopback SMTP server, nothing else.
  await host.invoke('privacy.allow', SMTP_RULE);
});
afterAll(async () => {
  await host.dispose();
  await smtp.close();
});
afterEach(async () => {
  await host.invoke('privacy.setNetwork', { offline: true, rules: [SMTP_RULE] });
});

async function configure(password: string): Promise<void> {
  await host.invoke('packs.setSettings', {
    smtp: { host: '127.0.0.1', port: smtp.port, secure: false, user: 'me', from: 'Me <me@example.net>' },
    smtpPassword: password,
  });
}

async function queue(args: Record<string, string>): Promise<string> {
  const proposed = await host.tools.propose({
    taskId: null,
    tool: 'mail_send',
    args,
    actor: 'cli',
    interactive: false,
  });
  expect(proposed.status).toBe('queued');
  return proposed.call!.id;
}

const errorOf = (result: ProposalResult) => ('error' in result ? result.error : undefined);

const sentFolder = () => {
  try {
    return readdirSync(join(host.packs.config().mailDir, 'sent'));
  } catch {
    return [];
  }
};

describe('mail_send through the Host and a loopback SMTP server', () => {
  it('waits in the queue, then sends exactly the approved (edited) message once', async () => {
    await configure('secret');
    const id = await queue(message);
    const waiting = (await host.invoke('approvals.list', {})).calls.find((c) => c.id === id)!;
    expect(waiting.description.details).toEqual([
      { label: 'To', value: message.to },
      { label: 'Cc', value: message.cc },
      { label: 'Subject', value: message.subject },
      { label: 'Body', value: message.body },
    ]);
    expect(smtp.connections()).toBe(0);
    expect(smtp.received).toHaveLength(0);

    const edited = { ...message, subject: 'Running 10 minutes late' };
    const approved = await host.invoke('approvals.approve', { ids: [id], args: edited });
    expect(approved.calls[0]?.error ?? null).toBeNull();
    expect(approved.calls[0]).toMatchObject({ state: 'done', args: edited });

    expect(smtp.received).toHaveLength(1);
    const got = smtp.received[0]!;
    expect(got.from).toBe('me@example.net');
    expect(got.to).toEqual(['ana@example.org', 'bob@example.com']);
    const parsed = await simpleParser(got.raw);
    expect(parsed.subject).toBe('Running 10 minutes late');
    expect(parsed.text?.trim()).toBe(message.body);
    expect(parsed.headers.get('x-unsent')).toBeUndefined();

    // The copy in sent/ is the very message the server received.
    const copies = sentFolder();
    expect(copies).toHaveLength(1);
    expect(readFileSync(join(host.packs.config().mailDir, 'sent', copies[0]!)).toString('latin1')).toBe(
      got.raw.toString('latin1'),
    );
    const { events } = await host.invoke('privacy.ledger', {});
    expect(events.filter((e) => e.source === 'tool mail_send (send mail)')).toEqual([
      expect.objectContaining({
        url: `smtp://127.0.0.1:${smtp.port}`,
        feature: 'mail',
        allowed: true,
        reason: 'rule mail: 127.0.0.1',
      }),
    ]);

    // Approving again runs nothing.
    const again = await host.tools.approve(id, 'user');
    expect(again.status).toBe('denied');
    expect(errorOf(again)).toMatch(/already decided/);
    expect(smtp.received).toHaveLength(1);
  });

  it('a refused login fails the call with the server reply; the message stays in the history', async () => {
    await configure('wrong');
    const before = smtp.received.length;
    const id = await queue(message);
    const result = await host.tools.approve(id, 'user');
    expect(result.status).toBe('failed');
    expect(errorOf(result)).toMatch(/refused the login; nothing was sent\. The server said: 535/);
    const call = host.tools.get(id);
    expect(call.state).toBe('failed');
    expect(call.args).toEqual(message);
    expect(smtp.received.length).toBe(before);
    expect(sentFolder()).toHaveLength(1);
  });

  it('a refused recipient fails the call with the server reply and sends nothing', async () => {
    await configure('secret');
    const before = smtp.received.length;
    const id = await queue({ ...message, to: 'nobody@blocked.example', cc: '' });
    const result = await host.tools.approve(id, 'user');
    expect(result.status).toBe('failed');
    expect(errorOf(result)).toMatch(/refused the recipients; nothing was sent.*550.*nobody@blocked\.example/);
    expect(smtp.received.length).toBe(before);
  });

  it('a server that is not there fails the call clearly', async () => {
    await host.invoke('packs.setSettings', {
      smtp: { host: '127.0.0.1', port: 1, secure: false, user: 'me', from: 'me@example.net' },
    });
    const result = await host.tools.approve(await queue(message), 'user');
    expect(result.status).toBe('failed');
    expect(errorOf(result)).toMatch(/could not be reached or failed; nothing was sent.*ECONNREFUSED/);
  });

  it('offline with no rule for the server: NETWORK_BLOCKED, saying what to allow, and no connection at all', async () => {
    await configure('secret');
    const connections = smtp.connections();
    await host.invoke('privacy.setNetwork', { rules: [] });
    const result = await host.tools.approve(await queue(message), 'user');
    expect(result.status).toBe('failed');
    expect(errorOf(result)).toBe(
      'Offline mode is on: Homebody did not connect to 127.0.0.1 for mail. Allow it on the Privacy page (Allow "127.0.0.1" for Mail).',
    );
    expect(smtp.connections()).toBe(connections);
    const [last] = (await host.invoke('privacy.ledger', { limit: 1 })).events;
    expect(last).toMatchObject({ source: 'tool mail_send (send mail)', feature: 'mail', allowed: false });
  });

  it('edited arguments are validated again by the Host', async () => {
    await configure('secret');
    const id = await queue(message);
    await expect(
      host.invoke('approvals.approve', { ids: [id], args: { ...message, subject: 42 } }),
    ).rejects.toMatchObject({ code: 'INVALID_REQUEST', message: expect.stringContaining('Invalid arguments') });
    expect(host.tools.get(id).state).toBe('pending');
    await host.tools.deny(id, 'user');
  });
});
