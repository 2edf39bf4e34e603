/**
 * contact_add into an address book the user already has: the card in the file's own vCard version, line ending and
 * encoding, appended after every byte that was there, readable by Homebody (and by vobject: contactsReal.test.ts),
 * and undone by putting the old file back.
 */
import { copyFileSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { refusingServices, testPackConfig } from '../../../testing/tools/packFixture.js';
import type { ToolContext, UndoRecord } from '../../toolTypes.js';
import { applyUndo } from '../files/undo.js';
import { contactAdd } from './contactAdd.js';
import { contactFind } from './contactFind.js';
import { parseVcfBytes } from './vcards.js';

const REAL = path.join(import.meta.dirname, 'fixtures', 'real');

let base: string;
let ctx: ToolContext;
let dir: string;
beforeEach(() => {
  base = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'hb-contacts-file-')));
  const packs = testPackConfig(path.join(base, 'packs'));
  dir = packs.contactsDir;
  ctx = {
    roots: [],
    trashDir: path.join(base, 'trash'),
    signal: new AbortController().signal,
    packs,
    services: refusingServices,
  };
});
afterEach(() => rmSync(base, { recursive: true, force: true }));

function copyReal(name: string, as = name): Buffer {
  copyFileSync(path.join(REAL, name), path.join(dir, as));
  return readFileSync(path.join(dir, as));
}

/** Adds to `file`, checks every old byte is still first, and answers the new bytes as text. */
async function addTo(file: string, args: { name: string; email?: string; phone?: string; organization?: string }) {
  const before = readFileSync(path.join(dir, file));
  const out = await contactAdd.run({ ...args, file }, ctx);
  const after = readFileSync(path.join(dir, file));
  expect(after.subarray(0, before.length).equals(before), 'the old bytes, unchanged and first').toBe(true);
  return { out, before, after, added: after.subarray(before.length).toString('latin1') };
}

describe('contact_add into an existing address book', () => {
  it('writes vCard 2.1 into an Outlook 2.1 file, quoted-printable where it must, and undoes it exactly', async () => {
    copyReal('ezvcard-outlook-2003.vcf', 'outlook.vcf');
    const { out, before, added } = await addTo('outlook.vcf', {
      name: 'Maria João Silva',
      email: 'mj@example.pt',
      phone: '+351 210 000 000',
    });
    expect(out.result).toMatchObject({ version: '2.1', added: { name: 'Maria João Silva', file: 'outlook.vcf' } });
    expect(added).toMatch(/^BEGIN:VCARD\r\nVERSION:2\.1\r\n/);
    expect(added).toContain('\r\nFN;CHARSET=UTF-8;ENCODING=QUOTED-PRINTABLE:Maria Jo=C3=A3o Silva\r\n');
    expect(added).toContain('\r\nEMAIL;INTERNET:mj@example.pt\r\n');
    expect(added).toMatch(/END:VCARD\r\n$/);

    const found = await contactFind.run({ query: 'maria silva' }, ctx);
    expect(found.result).toMatchObject({ contacts: [{ name: 'Maria João Silva', emails: ['mj@example.pt'] }] });

    await applyUndo(out.undo as UndoRecord, ctx);
    expect(readFileSync(path.join(dir, 'outlook.vcf')).equals(before)).toBe(true);
  });

  it('writes 3.0 into a Gmail export whose last line has no line ending, adding one first', async () => {
    const source = copyReal('ezvcard-gmail-list.vcf', 'gmail.vcf');
    expect(source.subarray(-9).toString()).toBe('END:VCARD');
    const { added, after } = await addTo('gmail.vcf', { name: 'Chloé Martin', email: 'chloe@example.fr' });
    expect(added.startsWith('\r\nBEGIN:VCARD\r\nVERSION:3.0\r\n')).toBe(true);
    expect(Buffer.from(added, 'latin1').toString('utf8')).toContain('\r\nFN:Chloé Martin\r\n');
    expect(parseVcfBytes(after, 'gmail.vcf').contacts.map((c) => c.name)).toEqual([
      'Arnold Smith',
      'Chris Beatle',
      'Doug White',
      'Chloé Martin',
    ]);
  });

  it("keeps the file's line ending: LF for RFC 6350's example (4.0), CR CR LF for the iPhone's (3.0)", async () => {
    copyReal('ezvcard-rfc6350-example.vcf', 'v4.vcf');
    const v4 = await addTo('v4.vcf', { name: 'Björn Keller', phone: '+49 30 7654321' });
    expect(v4.added).toMatch(/^BEGIN:VCARD\nVERSION:4\.0\nPRODID:[^\r\n]+\nUID:urn:uuid:[0-9a-f-]{36}\n/);
    expect(v4.added).toContain('\nTEL;VALUE=text:+49 30 7654321\n');
    expect(v4.added).not.toContain('\r');

    copyReal('ezvcard-John_Doe_IPHONE.vcf', 'iphone.vcf');
    const iphone = await addTo('iphone.vcf', { name: 'Jon Smith, Jr.', phone: '555-0100' });
    expect(iphone.added.split('\r\r\n')).toEqual([
      'BEGIN:VCARD',
      'VERSION:3.0',
      expect.stringMatching(/^PRODID:/),
      expect.stringMatching(/^UID:[0-9a-f-]{36}$/),
      'FN:Jon Smith\\, Jr.',
      'N:Smith;Jon;;;Jr.',
      'TEL:555-0100',
      'END:VCARD',
      '',
    ]);
  });

  it('writes the version most cards of a mixed file have: 3.0 beside three 3.0 cards and one 2.1', async () => {
    copyReal('derived-gmail-list-with-outlook-2003-card.vcf', 'mixed.vcf');
    const { out } = await addTo('mixed.vcf', { name: 'Ana Souza', email: 'ana@example.org' });
    expect(out.result).toMatchObject({ version: '3.0' });
  });

  it('appends to a UTF-16 file in UTF-16', async () => {
    const text = 'BEGIN:VCARD\r\nVERSION:3.0\r\nFN:Zoë Wide\r\nEND:VCARD\r\n';
    writeFileSync(path.join(dir, 'wide.vcf'), Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]));
    const { after } = await addTo('wide.vcf', { name: 'Łukasz Nowak' });
    expect(after.subarray(-22).toString('utf16le')).toBe('\r\nEND:VCARD\r\n'.slice(-11));
    expect(parseVcfBytes(after, 'wide.vcf').contacts.map((c) => c.name)).toEqual(['Zoë Wide', 'Łukasz Nowak']);
  });

  it('adds an ASCII card to a Windows-1252 file, and refuses one whose letters only UTF-8 would keep', async () => {
    const latin = Buffer.concat([
      Buffer.from('BEGIN:VCARD\r\nVERSION:3.0\r\nFN:J'),
      Buffer.from([0xfc]),
      Buffer.from('rgen\r\nEND:VCARD\r\n'),
    ]);
    writeFileSync(path.join(dir, 'latin.vcf'), latin);
    await expect(contactAdd.run({ name: 'Zoë', file: 'latin.vcf' }, ctx)).rejects.toMatchObject({
      code: 'INVALID_INPUT',
      message: expect.stringContaining('latin.vcf is not UTF-8 text'),
    });
    expect(readFileSync(path.join(dir, 'latin.vcf')).equals(latin)).toBe(true);
    const { after } = await addTo('latin.vcf', { name: 'Zoe Plain' });
    expect(parseVcfBytes(after, 'latin.vcf').contacts.map((c) => c.name)).toEqual(['Jürgen', 'Zoe Plain']);
  });

  it('refuses a file that is not there, a path, a file of another kind, or one with no card it can read', async () => {
    writeFileSync(path.join(dir, 'notes.vcf'), 'nothing here\n');
    const refused = async (file: string, code: string) =>
      expect(contactAdd.run({ name: 'X Y', file }, ctx)).rejects.toMatchObject({ code });
    await refused('missing.vcf', 'NOT_FOUND');
    await refused('../outside.vcf', 'INVALID_INPUT');
    await refused('sub/dir.vcf', 'INVALID_INPUT');
    await refused('calendar.ics', 'INVALID_INPUT');
    await refused('notes.vcf', 'INVALID_INPUT');
    expect(readdirSync(dir)).toEqual(['notes.vcf']);
    expect(readFileSync(path.join(dir, 'notes.vcf'), 'utf8')).toBe('nothing here\n');
  });

  it('still refuses a second card for an email some card has', async () => {
    copyReal('ezvcard-gmail-list.vcf', 'gmail.vcf');
    await expect(
      contactAdd.run({ name: 'Arnold S.', email: 'ASMITHK@gmail.com', file: 'gmail.vcf' }, ctx),
    ).rejects.toMatchObject({ code: 'ALREADY_EXISTS', message: expect.stringContaining('Arnold Smith (gmail.vcf)') });
  });

  it('names the address book in the prompt', () => {
    expect(contactAdd.describe({ name: 'Ana', file: 'contacts.vcf' })).toMatchObject({
      summary: 'Add Ana to your contacts (in contacts.vcf).',
      details: expect.arrayContaining([{ label: 'Address book', value: 'contacts.vcf' }]),
    });
  });
});
