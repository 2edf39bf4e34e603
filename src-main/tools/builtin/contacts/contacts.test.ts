import { copyFileSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import ICAL from 'ical.js';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { refusingServices, testPackConfig } from '../../../testing/tools/packFixture.js';
import { ToolRegistry } from '../../registry.js';
import type { ToolContext, UndoRecord } from '../../toolTypes.js';
import { CALENDAR_TOOLS } from '../calendar/index.js';
import { applyUndo } from '../files/undo.js';
import { contactAdd } from './contactAdd.js';
import { contactFind } from './contactFind.js';
import { editDistance } from './contactMatch.js';
import { CONTACT_TOOLS } from './index.js';

const FIXTURES = path.join(import.meta.dirname, 'fixtures');

let base: string;
let ctx: ToolContext;
let dir: string;
beforeEach(() => {
  base = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'hb-contacts-')));
  const packs = testPackConfig(path.join(base, 'packs'));
  dir = packs.contactsDir;
  // No granted folders: the contacts folder is reached as the pack's own, for writes and for undo.
  ctx = {
    roots: [],
    trashDir: path.join(base, 'trash'),
    signal: new AbortController().signal,
    packs,
    services: refusingServices,
  };
});
afterEach(() => rmSync(base, { recursive: true, force: true }));

function add(...names: string[]): void {
  for (const name of names) copyFileSync(path.join(FIXTURES, name), path.join(dir, name));
}

async function names(query: string): Promise<string[]> {
  const out = await contactFind.run({ query }, ctx);
  return (out.result as { contacts: Array<{ name: string }> }).contacts.map((c) => c.name);
}

describe('contacts pack', () => {
  it('offers contact_find (read) and contact_add (write), alongside the calendar tools', () => {
    const registry = new ToolRegistry([...CALENDAR_TOOLS, ...CONTACT_TOOLS]);
    expect(registry.names().filter((n) => n.startsWith('contact_'))).toEqual(['contact_find', 'contact_add']);
    expect(CONTACT_TOOLS.map((t) => t.risk)).toEqual(['read', 'write']);
  });
});

describe('contact_find', () => {
  beforeEach(() => add('google-contacts.vcf', 'apple-dentist.vcf', 'v4-card.vcf'));

  it('reads Google and Apple vCard 3.0 exports and vCard 4.0', async () => {
    const out = await contactFind.run({ query: 'Ana Souza' }, ctx);
    expect((out.result as { contacts: unknown[] }).contacts).toEqual([
      {
        name: 'Ana Souza',
        emails: ['ana@example.org', 'ana.work@gmail.com'],
        // The card's TYPE parameters, in the order of the emails and phones (the view used to drop them).
        emailTypes: [
          ['internet', 'work'],
          ['internet', 'home'],
        ],
        phones: ['+351 912 345 678'],
        phoneTypes: [['cell']],
        organization: 'Acme Lda.',
        title: 'Product lead',
        file: 'google-contacts.vcf',
      },
    ]);
    const dentist = await contactFind.run({ query: 'weber' }, ctx);
    expect((dentist.result as { contacts: unknown[] }).contacts).toEqual([
      expect.objectContaining({
        name: 'Praxis Dr. Weber',
        emails: ['empfang@praxis-weber.example'],
        phones: ['(030) 555-0199'],
      }),
    ]);
    expect(await names('chloe')).toEqual(['Chloé Martin']);
    expect(out.untrustedSource).toBeUndefined();
  });

  it('finds by a misspelt or partial name, accents or not', async () => {
    expect(await names('Bjorn')).toEqual(['Björn Keller']);
    expect(await names('Ana Sousa')).toEqual(['Ana Souza']);
    expect(await names('kelle')).toEqual(['Björn Keller']);
    expect(await names('Marten')).toEqual(['Chloé Martin']);
    expect(await names('Zebedee')).toEqual([]);
  });

  it('finds by email and by phone number in any formatting', async () => {
    expect(await names('ANA.WORK@gmail.com')).toEqual(['Ana Souza']);
    expect(await names('030 5550199')).toEqual(['Praxis Dr. Weber']);
    expect(await names('+33 6 12 34 56 78')).toEqual(['Chloé Martin']);
    expect(await names('912345678')).toEqual(['Ana Souza']);
  });

  it('still finds the good cards beside a malformed file, names it, and changes nothing', async () => {
    add('malformed.vcf');
    const before = readFileSync(path.join(dir, 'malformed.vcf'), 'utf8');
    const out = await contactFind.run({ query: 'Ana' }, ctx);
    expect(out.result).toMatchObject({
      contacts: [{ name: 'Ana Souza' }],
      unreadable: [
        { file: 'malformed.vcf', problem: expect.stringContaining('malformed.vcf is not a valid vCard file') },
      ],
    });
    expect(readFileSync(path.join(dir, 'malformed.vcf'), 'utf8')).toBe(before);
  });
});

describe('contact_find in files other apps wrote', () => {
  it('finds the cards of a file beside one that never ends, and names that card in the result', async () => {
    writeFileSync(
      path.join(dir, 'export.vcf'),
      'BEGIN:VCARD\r\nVERSION:2.1\r\nN:Doe;John\r\nTEL;WORK;VOICE:555-0100\r\nEND:VCARD\r\n' +
        'BEGIN:VCARD\r\nVERSION:3.0\r\nFN:Cut Short\r\n' +
        'BEGIN:VCARD\r\nVERSION:3.0\r\nFN:Jane Roe\r\nEND:VCARD\r\n',
    );
    const out = await contactFind.run({ query: 'Jhon Doe' }, ctx);
    expect(out.result).toEqual({
      contacts: [{ name: 'John Doe', phones: ['555-0100'], phoneTypes: [['work', 'voice']], file: 'export.vcf' }],
      unreadable: [
        {
          file: 'export.vcf',
          card: 2,
          line: 6,
          problem: 'export.vcf: card 2 (line 6, "Cut Short") has no END:VCARD; it was skipped.',
        },
      ],
    });
    expect(await names('Jane')).toEqual(['Jane Roe']);
  });
});

describe('contact_find on bad input', () => {
  it('fails with INVALID_INPUT naming the file when no contacts file can be read', async () => {
    add('malformed.vcf');
    await expect(contactFind.run({ query: 'Ana' }, ctx)).rejects.toMatchObject({
      code: 'INVALID_INPUT',
      message: expect.stringContaining('malformed.vcf'),
    });
  });
});

describe('contact_add', () => {
  it('writes a vCard 4.0 file that reads back, is found, and is undone', async () => {
    const out = await contactAdd.run(
      { name: 'Maria João Silva', email: 'mj@example.pt', phone: '+351 210 000 000' },
      ctx,
    );
    expect(out.result).toMatchObject({ added: { name: 'Maria João Silva', emails: ['mj@example.pt'] } });
    const files = readdirSync(dir);
    expect(files).toHaveLength(1);
    const text = readFileSync(path.join(dir, files[0] as string), 'utf8');
    const card = new ICAL.Component(ICAL.parse(text) as never);
    expect(card.getFirstPropertyValue('version')).toBe('4.0');
    expect(card.getFirstPropertyValue('fn')).toBe('Maria João Silva');
    expect(card.getFirstPropertyValue('n')).toEqual(['Silva', 'Maria João', '', '', '']);
    expect(text).toMatch(/^BEGIN:VCARD\r\n/);
    expect(await names('maria silva')).toEqual(['Maria João Silva']);

    await applyUndo(out.undo as UndoRecord, ctx);
    expect(readdirSync(dir)).toEqual([]);
  });

  it('refuses a second card for the same email, and bad emails or phones, adding nothing', async () => {
    add('google-contacts.vcf');
    await expect(contactAdd.run({ name: 'Ana S.', email: 'Ana@Example.org' }, ctx)).rejects.toMatchObject({
      code: 'ALREADY_EXISTS',
      message: expect.stringContaining('google-contacts.vcf'),
    });
    await expect(contactAdd.run({ name: 'X', email: 'nope' }, ctx)).rejects.toMatchObject({ code: 'INVALID_INPUT' });
    await expect(contactAdd.run({ name: 'X', phone: 'call me' }, ctx)).rejects.toMatchObject({ code: 'INVALID_INPUT' });
    expect(readdirSync(dir)).toEqual(['google-contacts.vcf']);
  });

  it('adds beside a malformed file without touching it', async () => {
    writeFileSync(path.join(dir, 'broken.vcf'), 'BEGIN:VCARD\r\nFN:x\r\n');
    await contactAdd.run({ name: 'New Person', email: 'new@example.com' }, ctx);
    expect(readFileSync(path.join(dir, 'broken.vcf'), 'utf8')).toBe('BEGIN:VCARD\r\nFN:x\r\n');
    expect(readdirSync(dir)).toHaveLength(2);
  });
});

describe('editDistance', () => {
  it('counts edits and stops past the limit', () => {
    expect(editDistance('sousa', 'souza', 2)).toBe(1);
    expect(editDistance('kitten', 'sitting', 3)).toBe(3);
    expect(editDistance('a', 'abcdef', 2)).toBe(3);
  });
});
