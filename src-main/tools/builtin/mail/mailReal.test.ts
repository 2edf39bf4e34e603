/**
 * Real-world mail (the mail gem's and mailparser's test messages, in a Maildir and an mbox; fixtures/real/SOURCES.md)
 * read by mail_inbox and mail_read, compared with what Python's mailbox and email modules read in the same files
 * (fixtures/real/golden.json, from src-main/testing/reference/mailReference.py): the ids, From, To, Subject, Date and
 * the text. Where the two disagree and Homebody is right, the case is in KNOWN below with the reason.
 */
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import addressparser from 'nodemailer/lib/addressparser';
import { describe, expect, it } from 'vitest';
import { refusingServices, testPackConfig } from '../../../testing/tools/packFixture.js';
import type { PackConfig, ToolContext } from '../../toolTypes.js';
import { mailInbox } from './inbox.js';
import { mailRead } from './read.js';

const REAL = path.join(import.meta.dirname, 'fixtures', 'real');

type Pairs = Array<[string, string]>;
interface Golden {
  id: string;
  from: Pairs | { error: string };
  to: Pairs | { error: string };
  subject: string | null | { error: string };
  date: string | null;
  textKind: 'plain' | 'html' | 'error' | null;
  text: string | null;
}
const golden = JSON.parse(readFileSync(path.join(REAL, 'golden.json'), 'utf8')) as Record<'maildir' | 'mbox', Golden[]>;

/** The fixture Maildir as a mail program leaves it: ":2,S" on the names in cur/ (git cannot hold ":" for Windows). */
function maildir(): string {
  const root = path.join(realpathSync(mkdtempSync(path.join(os.tmpdir(), 'hb-mail-real-'))), 'Maildir');
  for (const sub of ['cur', 'new', 'tmp']) mkdirSync(path.join(root, sub), { recursive: true });
  for (const sub of ['cur', 'new']) {
    for (const name of readdirSync(path.join(REAL, 'maildir', sub))) {
      copyFileSync(path.join(REAL, 'maildir', sub, name), path.join(root, sub, sub === 'cur' ? `${name}:2,S` : name));
    }
  }
  return root;
}

function context(mailSource: PackConfig['mailSource']): ToolContext {
  const base = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'hb-mail-real-ctx-')));
  return {
    roots: [],
    trashDir: path.join(base, 'trash'),
    signal: new AbortController().signal,
    packs: testPackConfig(path.join(base, 'packs'), { mailSource }),
    services: refusingServices,
  };
}

const oneLine = (text: string) => text.replace(/\s+/g, ' ').trim();
/** A field where Python met bytes it could not decode (U+FFFD): only its ASCII letters and digits are compared. */
const asciiOnly = (text: string) => text.replace(/[^A-Za-z0-9]/g, '');
const comparable = (expected: string, got: string): [string, string] =>
  expected.includes('\uFFFD') ? [asciiOnly(got), asciiOnly(expected)] : [oneLine(got), oneLine(expected)];

function pairsOf(text: string): Pairs {
  return addressparser(text, { flatten: true }).map((a) => [a.name, a.address] as [string, string]);
}

/** Where Homebody and Python disagree, Homebody being right: `${source} ${id} ${field}` → why. */
const KNOWN: Readonly<Record<string, string>> = {
  'maildir 1700000005.M5P4242.fixture to':
    'RFC 5322 A.5 "the end of the group:;": an empty group; Homebody shows it as written, Python drops it.',
  'maildir 1700000007.M7P4242.fixture subject':
    'RFC 5322 A.6.3: obsolete "Subject : ..." (space before the colon) is a header field (obs-optional); ' +
    'mailparser reads it, Python takes the header block for the body.',
  'maildir 1700000007.M7P4242.fixture to': 'Same message (A.6.3): Python has no To at all; mailparser keeps the name.',
  'maildir 1700000007.M7P4242.fixture text': "Same message (A.6.3): Python's text is the header block.",
  'mbox m2-caf6968601 text':
    "mailparser's spam.eml: a boundary line with a signature glued to it; mailparser finds the HTML part and its " +
    'headers, Python reads the part headers as HTML text.',
  'mbox m3-14ce1067b6 text':
    'multipart/mixed with two inline text parts: Homebody gives both (what a mail program shows), ' +
    'get_body() the first.',
  'mbox m12-a7e1363435 text': 'Same: a nested message with a footer part; Homebody gives every inline text part.',
};

type Got = { id: string; from: string; to: string; subject: string; date: string | null; text: string };

function differences(source: 'maildir' | 'mbox', expected: Golden, got: Got): string[] {
  const out: string[] = [];
  const check = (field: string, ok: boolean, detail: string) => {
    if (!ok && !KNOWN[`${source} ${expected.id} ${field}`]) out.push(`${source} ${expected.id} ${field}: ${detail}`);
  };
  check('id', got.id === expected.id, `${got.id}`);
  check('date', got.date === expected.date, `${got.date} vs ${expected.date}`);
  if (typeof expected.subject === 'string' || expected.subject === null) {
    const [a, b] = comparable(expected.subject ?? '', got.subject);
    check(
      'subject',
      a === b || (b.length > 299 && b.startsWith(a.slice(0, -1))),
      `${JSON.stringify(a)} vs ${JSON.stringify(b)}`,
    );
  }
  for (const field of ['from', 'to'] as const) {
    const want = expected[field];
    if (!Array.isArray(want)) continue;
    const mine = pairsOf(got[field]);
    const same =
      mine.length === want.length &&
      mine.every(([name, address], i) => {
        const [wantName, wantAddress] = want[i]!;
        const [n1, n2] = comparable(wantName, name);
        return n1 === n2 && address.toLowerCase() === wantAddress.toLowerCase();
      });
    check(field, same, `${JSON.stringify(mine)} vs ${JSON.stringify(want)}`);
  }
  if ((expected.textKind === 'plain' || expected.textKind === 'html') && expected.text !== null) {
    let want = expected.text;
    // mboxrd: the ">" added before "From " comes off in Homebody (golden.json's notes).
    if (source === 'mbox') want = want.replace(/^>(>*From )/gm, '$1');
    const [a, b] = comparable(want, got.text);
    const cut = got.text.endsWith('…') && b.startsWith(a.slice(0, -1));
    check('text', a === b || cut, `${JSON.stringify(a.slice(0, 200))} vs ${JSON.stringify(b.slice(0, 200))}`);
  }
  return out;
}

describe.each(['maildir', 'mbox'] as const)('real %s mail against Python', (source) => {
  it('lists every message once, with the id Python finds it by, and reads each one back as Python does', async () => {
    const ctx = context(
      source === 'maildir'
        ? { kind: 'maildir', path: maildir() }
        : { kind: 'mbox', path: path.join(REAL, 'inbox.mbox') },
    );
    const listed = (await mailInbox.run({ limit: 50 }, ctx)).result as { messages: Got[] };
    const expected = golden[source];
    expect(listed.messages.map((m) => m.id).sort()).toEqual(expected.map((m) => m.id).sort());
    expect(new Set(listed.messages.map((m) => m.id)).size).toBe(expected.length);
    const problems: string[] = [];
    for (const want of expected) {
      const got = (await mailRead.run({ id: want.id }, ctx)).result as Got;
      problems.push(...differences(source, want, got));
      const inList = listed.messages.find((m) => m.id === want.id)!;
      expect({ ...inList }).toEqual({ id: got.id, from: got.from, subject: got.subject, date: got.date });
    }
    expect(problems).toEqual([]);
  });
});
