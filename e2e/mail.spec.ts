import { mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { simpleParser } from 'mailparser';
import { E2E_MODEL } from './fixtures/paths.js';
import { expect, sendMessage, test } from './fixtures/homebody.js';
import { startLoopbackSmtp } from './fixtures/smtpServer.js';

const ANA = [
  'From: Ana Lima <ana@example.org>',
  'To: Me <me@example.net>',
  'Subject: Lunch on Friday?',
  'Date: Thu, 26 Nov 2026 09:15:00 +0000',
  'Message-ID: <lunch-1@example.org>',
  '',
  'Shall we meet at noon?',
  '',
].join('\r\n');

/**
 * A new user's mail task: read Ana's mail, draft a reply (a write: asked, saved as an .eml file), then "send it":
 * the send waits in the approval queue with the exact message, the user edits the subject there and approves, and
 * a real SMTP server on loopback receives exactly that message. The model's calls are scripted (--script).
 */
test('draft a reply to Ana, send it: the queue shows the exact message, the edited one is what the server gets', async ({
  homebody,
  request,
}) => {
  test.skip(homebody.shell === 'electron', 'scripted calls are a browser-mode (serve) test option');
  test.setTimeout(300_000);
  const smtp = await startLoopbackSmtp('me', 'secret');
  try {
    const work = realpathSync(mkdtempSync(join(tmpdir(), 'hb-e2e-mail-')));
    const maildir = join(work, 'Maildir');
    for (const sub of ['cur', 'new', 'tmp']) mkdirSync(join(maildir, sub), { recursive: true });
    writeFileSync(join(maildir, 'cur', '1764148500.M1P1.host:2,S'), ANA);
    // A Maildir message's id is its file's unique name (the part before ":2,").
    const anaId = '1764148500.M1P1.host';

    const reply = {
      to: 'ana@example.org',
      cc: '',
      subject: 'Re: Lunch on Friday?',
      body: "Hi Ana, I'm running late. Sorry!",
    };
    const json = JSON.stringify;
    const script = join(work, 'script.json');
    writeFileSync(
      script,
      json({
        'any mail from Ana?': [{ name: 'mail_inbox', params: `{"limit": 5, "query": "Ana"}` }],
        "draft a reply to Ana saying I'm late": [
          {
            name: 'mail_draft',
            params: `{"to": ${json(reply.to)}, "cc": "", "subject": ${json(reply.subject)}, "body": ${json(reply.body)}, "inReplyTo": ${json(anaId)}}`,
          },
        ],
        'send it': [
          {
            name: 'mail_send',
            params: `{"to": ${json(reply.to)}, "cc": "", "subject": ${json(reply.subject)}, "body": ${json(reply.body)}, "inReplyTo": "<lunch-1@example.org>"}`,
          },
        ],
      }),
    );
    // Offline mode stays on: mail may reach the loopback SMTP server, nothing else.
    const app = await homebody.launch({
      model: E2E_MODEL,
      script,
      maxTokens: 256,
      allow: [{ feature: 'mail', host: '127.0.0.1' }],
    });
    const { page } = app;

    // The mail settings, as the settings page would save them: the SMTP account and the Maildir to read.
    const token = new URL(app.url).searchParams.get('token') ?? '';
    const saved = await request.post(`${app.origin}/api/packs.setSettings`, {
      headers: { 'content-type': 'application/json', 'x-homebody-token': token },
      data: {
        smtp: { host: '127.0.0.1', port: smtp.port, secure: false, user: 'me', from: 'Me <me@example.net>' },
        smtpPassword: 'secret',
        mailSource: { kind: 'maildir', path: maildir },
      },
    });
    expect(await saved.json()).toMatchObject({ ok: true, value: { smtpPasswordSet: true } });
    const mailDir = ((await saved.json()) as { value: { resolved: { mailDir: string } } }).value.resolved.mailDir;

    await expect(page.getByTestId('chat')).toBeVisible();
    const card = (tool: string) => page.locator(`[data-testid="toolcall-card"][data-tool="${tool}"]`).last();

    // 1. Reading the inbox asks once; the draft (a write, after untrusted mail was read) asks too, with the exact text.
    await sendMessage(page, 'any mail from Ana?');
    await expect(card('mail_inbox').getByTestId('permission-prompt')).toBeVisible();
    await card('mail_inbox').getByTestId('prompt-allow-once').click();
    // The first call starts the tool worker (from sources here, which takes a while on a busy machine).
    await expect(card('mail_inbox')).toHaveAttribute('data-state', 'done', { timeout: 120_000 });
    await expect(card('mail_inbox')).toContainText('Lunch on Friday?');
    await expect(page.getByTestId('composer-input')).toBeEnabled();
    await sendMessage(page, "draft a reply to Ana saying I'm late");
    await expect(card('mail_draft').getByTestId('permission-prompt')).toBeVisible();
    await expect(card('mail_draft')).toContainText(reply.body);
    await card('mail_draft').getByTestId('prompt-allow-once').click();
    await expect(card('mail_draft')).toHaveAttribute('data-state', 'done');
    const drafts = readdirSync(join(mailDir, 'drafts'));
    expect(drafts).toHaveLength(1);
    const draft = await simpleParser(readFileSync(join(mailDir, 'drafts', drafts[0] ?? '')));
    expect(draft.inReplyTo).toBe('<lunch-1@example.org>');
    expect(draft.text?.trim()).toBe(reply.body);

    // 2. "send it" never sends from the chat: it waits in the queue, and the server has nothing yet.
    await expect(page.getByTestId('composer-input')).toBeEnabled();
    await sendMessage(page, 'send it');
    await expect(card('mail_send')).toHaveAttribute('data-gate', 'queue');
    await expect(page.getByTestId('approvals-badge')).toHaveText('1');
    expect(smtp.received).toHaveLength(0);

    // 3. The queue shows the exact message; the user edits the subject and approves.
    await page.getByTestId('nav-approvals').click();
    const item = page.getByTestId('approval-item');
    await expect(item).toHaveCount(1);
    for (const value of [reply.to, reply.subject, reply.body]) await expect(item).toContainText(value);
    await expect(item.getByTestId('taint-warning')).toContainText('email list from the Maildir');
    await item.getByTestId('approval-edit').click();
    const field = (name: string) => item.locator(`[data-testid="approval-field"][data-arg="${name}"]`);
    await expect(field('to')).toHaveValue(reply.to);
    await expect(field('subject')).toHaveValue(reply.subject);
    await expect(field('body')).toHaveValue(reply.body);
    await field('subject').fill('Running late, sorry');
    await expect(field('subject')).toHaveAttribute('data-changed', 'true');
    await expect(item.getByTestId('approval-args')).toHaveValue(/"subject": "Running late, sorry"/);
    expect(smtp.received).toHaveLength(0);
    await item.getByTestId('approval-edit').click();
    await expect(item).toHaveCount(0);

    // 4. The server received exactly the approved message, once.
    await expect.poll(() => smtp.received.length).toBe(1);
    const got = smtp.received[0]!;
    expect(got.from).toBe('me@example.net');
    expect(got.to).toEqual(['ana@example.org']);
    const sent = await simpleParser(got.raw);
    expect(sent.subject).toBe('Running late, sorry');
    expect(sent.text?.trim()).toBe(reply.body);
    expect(sent.inReplyTo).toBe('<lunch-1@example.org>');

    // The chat shows the send done, with the edited subject.
    await page.getByTestId('nav-chat').click();
    await expect(card('mail_send')).toHaveAttribute('data-state', 'done');
    await expect(card('mail_send')).toContainText('Running late, sorry');
    expect(smtp.received).toHaveLength(1);
  } finally {
    await smtp.close();
  }
});
