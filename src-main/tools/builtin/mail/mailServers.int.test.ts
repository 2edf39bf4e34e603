/**
 * The mail tools against real servers on loopback: an IMAP server (folders, UIDVALIDITY) read by imapflow, and
 * servers with a self-signed certificate (IMAP and SMTP over TLS): refused with no login sent, shown by the
 * certificate check, trusted by its fingerprint, and a later different certificate refused again, saying so.
 */
import { mkdtempSync, readFileSync, realpathSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { SMTPServer } from 'smtp-server';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startImapTestServer, type ImapTestServer } from '../../../testing/tools/imapTestServer.js';
import { testPackConfig } from '../../../testing/tools/packFixture.js';
import { selfSignedCertificate } from '../../../testing/tools/testCertificate.js';
import type { PackConfig, PinnedCertificate, ToolContext } from '../../toolTypes.js';
import { probeCertificate } from './certificateProbe.js';
import { mailFolders } from './folders.js';
import { mailInbox } from './inbox.js';
import { mailRead } from './read.js';
import { mailSend } from './send.js';

const REAL = path.join(import.meta.dirname, 'fixtures', 'real', 'maildir');
const real = (sub: string, name: string) => readFileSync(path.join(REAL, sub, name));
const USER = 'me';
const PASSWORD = 'imap-secret-123';

function context(packs: Partial<PackConfig>): ToolContext {
  const base = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'hb-mail-servers-')));
  return {
    roots: [],
    trashDir: path.join(base, 'trash'),
    signal: new AbortController().signal,
    packs: testPackConfig(path.join(base, 'packs'), packs),
    services: {
      egress: async () => ({ hostNamed: true }),
      device: () => Promise.reject(new Error('no device')),
    },
  };
}

const imapAt = (port: number, secure: boolean, pinned?: PinnedCertificate) =>
  context({
    mailSource: { kind: 'imap' },
    imap: { host: '127.0.0.1', port, secure, user: USER, password: PASSWORD, ...(pinned ? { pinned } : {}) },
  });

describe('IMAP folders and ids', () => {
  let server: ImapTestServer;
  beforeAll(async () => {
    server = await startImapTestServer({
      user: USER,
      password: PASSWORD,
      folders: {
        INBOX: {
          uidValidity: 1700000000,
          firstUid: 40,
          // Three messages with one Message-ID (RFC 5322's examples), one with no Date, one Japanese.
          messages: [
            real('cur', '1700000001.M1P4242.fixture'),
            real('cur', '1700000002.M2P4242.fixture'),
            real('new', '1700000003.M3P4242.fixture'),
            real('cur', '1700000014.M14P4242.fixture'),
            real('new', '1700000015.M15P4242.fixture'),
          ],
        },
        'Archive/2005': { uidValidity: 555, messages: [real('cur', '1700000019.M19P4242.fixture')] },
        Sent: { uidValidity: 7, specialUse: '\\Sent', messages: [] },
      },
    });
  });
  afterAll(() => server.close());

  it('lists the folders, lists and reads INBOX and another folder, each message by its own UID id', async () => {
    const ctx = imapAt(server.port, false);
    const folders = (await mailFolders.run({}, ctx)).result as { folders: Array<Record<string, unknown>> };
    expect(folders.folders).toHaveLength(3);
    expect(folders.folders).toEqual(
      expect.arrayContaining([
        { folder: 'INBOX', specialUse: '\\Inbox', messages: 5, unseen: 0 },
        { folder: 'Archive/2005', specialUse: null, messages: 1, unseen: 0 },
        { folder: 'Sent', specialUse: '\\Sent', messages: 0, unseen: 0 },
      ]),
    );

    const inbox = (await mailInbox.run({}, ctx)).result as {
      folder: string;
      messages: Array<{ id: string; subject: string; date: string | null }>;
    };
    expect(inbox.folder).toBe('INBOX');
    // Newest first by Date; the message without a Date last, not first.
    expect(inbox.messages.map((m) => [m.id, m.date])).toEqual([
      ['INBOX:1700000000:44', '2014-05-28T08:18:19.000Z'],
      ['INBOX:1700000000:42', '1997-11-21T15:55:06.000Z'],
      ['INBOX:1700000000:41', '1997-11-21T15:55:06.000Z'],
      ['INBOX:1700000000:40', '1997-11-21T15:55:06.000Z'],
      ['INBOX:1700000000:43', null],
    ]);
    const japanese = (await mailRead.run({ id: 'INBOX:1700000000:43' }, ctx)).result as { subject: string };
    expect(japanese.subject).toBe('まみむめも');
    const second = (await mailRead.run({ id: 'INBOX:1700000000:41' }, ctx)).result as { id: string; text: string };
    expect(second.id).toBe('INBOX:1700000000:41');

    const archive = (await mailInbox.run({ folder: 'Archive/2005' }, ctx)).result as {
      messages: Array<{ id: string; subject: string }>;
    };
    expect(archive.messages).toEqual([expect.objectContaining({ id: 'Archive/2005:555:1', subject: 'testing' })]);
    expect((await mailRead.run({ id: 'Archive/2005:555:1' }, ctx)).result).toMatchObject({ subject: 'testing' });
    const found = (await mailInbox.run({ query: 'hello' }, ctx)).result as { messages: unknown[] };
    expect(found.messages).toHaveLength(3);
  });

  it('names the folders there are when asked for one that is not, and refuses an id from before a renumbering', async () => {
    const ctx = imapAt(server.port, false);
    await expect(mailInbox.run({ folder: 'Archief' }, ctx)).rejects.toMatchObject({
      code: 'NOT_FOUND',
      message: expect.stringMatching(
        /no folder "Archief"\. Its folders: (?=.*"INBOX")(?=.*"Archive\/2005")(?=.*"Sent")/,
      ),
    });
    server.folders['Archive/2005']!.uidValidity = 556;
    await expect(mailRead.run({ id: 'Archive/2005:555:1' }, ctx)).rejects.toMatchObject({
      code: 'NOT_FOUND',
      message: expect.stringContaining('UIDVALIDITY changed'),
    });
    expect((await mailRead.run({ id: 'Archive/2005:556:1' }, ctx)).result).toMatchObject({ subject: 'testing' });
    await expect(mailRead.run({ id: 'INBOX:1700000000:99' }, ctx)).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });
});

describe('a server with a self-signed certificate', () => {
  const first = selfSignedCertificate('mail.home.test');
  const second = selfSignedCertificate('mail.home.test');
  let imap: ImapTestServer;
  beforeAll(async () => {
    imap = await startImapTestServer({
      user: USER,
      password: PASSWORD,
      tls: first,
      folders: { INBOX: { uidValidity: 1, messages: [real('cur', '1700000001.M1P4242.fixture')] } },
    });
  });
  afterAll(() => imap.close());

  it('IMAP: refused before any login, shown, trusted by its fingerprint, and a different one refused again', async () => {
    await expect(mailInbox.run({}, imapAt(imap.port, true))).rejects.toMatchObject({
      code: 'REMOTE_ERROR',
      message: expect.stringMatching(
        /certificate this computer does not trust \(it is self-signed\); nothing was sent/,
      ),
    });
    expect(imap.logins()).toBe(0);

    const seen = await probeCertificate({ protocol: 'imap', host: '127.0.0.1', port: imap.port, secure: true });
    expect(seen.check).toMatchObject({
      trust: 'untrusted',
      problem: expect.stringContaining('self-signed'),
      certificate: {
        subject: expect.stringContaining('CN=mail.home.test'),
        issuer: expect.stringContaining('CN=mail.home.test'),
        altNames: expect.stringContaining('DNS:mail.home.test'),
        sha256: expect.stringMatching(/^([0-9A-F]{2}:){31}[0-9A-F]{2}$/),
      },
    });
    const pinned = { sha256: seen.check.certificate!.sha256, pem: seen.pem! };
    const listed = (await mailInbox.run({}, imapAt(imap.port, true, pinned))).result as { messages: unknown[] };
    expect(listed.messages).toHaveLength(1);
    expect(imap.logins()).toBe(1);
    expect(
      (await probeCertificate({ protocol: 'imap', host: '127.0.0.1', port: imap.port, secure: true, pinned })).check
        .trust,
    ).toBe('pinned');

    // The server now shows another certificate: the pin refuses it in the handshake, before the login.
    await imap.close();
    imap = await startImapTestServer({ user: USER, password: PASSWORD, tls: second, folders: imap.folders });
    await expect(mailInbox.run({}, imapAt(imap.port, true, pinned))).rejects.toMatchObject({
      code: 'REMOTE_ERROR',
      message: expect.stringContaining('not the one you trusted for this account'),
    });
    expect(imap.logins()).toBe(0);
    const changed = await probeCertificate({
      protocol: 'imap',
      host: '127.0.0.1',
      port: imap.port,
      secure: true,
      pinned,
    });
    expect(changed.check).toMatchObject({
      trust: 'untrusted',
      problem: expect.stringContaining('not the certificate you trusted'),
    });
    expect(changed.check.certificate!.sha256).not.toBe(pinned.sha256);
  });

  it('SMTP: the same, and the trusted server receives the message once', async () => {
    const received: string[] = [];
    let auths = 0;
    const smtp = new SMTPServer({
      secure: true,
      key: first.key,
      cert: first.cert,
      logger: false,
      onAuth(auth, _session, callback) {
        auths++;
        callback(null, { user: auth.username });
      },
      onData(stream, _session, callback) {
        const chunks: Buffer[] = [];
        stream.on('data', (c: Buffer) => chunks.push(c));
        stream.on('end', () => {
          received.push(Buffer.concat(chunks).toString());
          callback();
        });
      },
    });
    smtp.on('error', () => undefined);
    await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
    const port = (smtp.server.address() as AddressInfo).port;
    try {
      const at = (pinned?: PinnedCertificate) =>
        context({
          smtp: {
            host: '127.0.0.1',
            port,
            secure: true,
            user: USER,
            from: 'me@example.net',
            password: 'smtp-pw',
            ...(pinned ? { pinned } : {}),
          },
        });
      const message = { to: 'ana@example.org', subject: 'Pinned', body: 'Hello over a trusted certificate.' };
      await expect(mailSend.run(message, at())).rejects.toMatchObject({
        code: 'REMOTE_ERROR',
        message: expect.stringMatching(/SMTP server 127\.0\.0\.1 presented a certificate this computer does not trust/),
      });
      expect(auths).toBe(0);
      const seen = await probeCertificate({ protocol: 'smtp', host: '127.0.0.1', port, secure: true });
      expect(seen.check.trust).toBe('untrusted');
      const pinned = { sha256: seen.check.certificate!.sha256, pem: seen.pem! };
      expect((await mailSend.run(message, at(pinned))).result).toMatchObject({ sent: true });
      expect(received).toHaveLength(1);
      expect(received[0]).toContain('Hello over a trusted certificate.');
      const other = selfSignedCertificate('mail.home.test');
      await expect(
        mailSend.run(
          message,
          at({ ...pinned, sha256: new (await import('node:crypto')).X509Certificate(other.cert).fingerprint256 }),
        ),
      ).rejects.toMatchObject({
        code: 'REMOTE_ERROR',
        message: expect.stringContaining('not the one you trusted'),
      });
      expect(received).toHaveLength(1);
    } finally {
      await new Promise<void>((resolve) => smtp.close(() => resolve()));
    }
  });
});
