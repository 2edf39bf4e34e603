/**
 * Each way other apps' .vcf files used to go wrong (issue 16), on the real file that showed it where there is one,
 * else on the smallest card that shows it.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import ICAL from 'ical.js';
import { describe, expect, it } from 'vitest';
import type { Contact } from './vcards.js';
import { parseVcfBytes } from './vcards.js';
import { contentLines, decodeVcfBytes, splitCards } from './vcardText.js';

const REAL = path.join(import.meta.dirname, 'fixtures', 'real');
const real = (name: string): Buffer => readFileSync(path.join(REAL, name));
const read = (text: string | Uint8Array, file = 'test.vcf') =>
  parseVcfBytes(typeof text === 'string' ? Buffer.from(text, 'utf8') : text, file);
const card = (...lines: string[]): string => ['BEGIN:VCARD', ...lines, 'END:VCARD', ''].join('\r\n');
const only = (text: string | Uint8Array): Contact => {
  const { contacts, problems } = read(text);
  expect(problems).toEqual([]);
  expect(contacts).toHaveLength(1);
  return contacts[0] as Contact;
};

describe('per card, not per file', () => {
  it('reads the three 3.0 cards of a Gmail export beside a 2.1 card that once made the whole file unreadable', () => {
    const bytes = real('derived-gmail-list-with-outlook-2003-card.vcf');
    // What the pack used to do: one parse of the whole file, which the 2.1 card breaks.
    expect(() => ICAL.parse(bytes.toString('utf8'))).toThrow();
    const { contacts, problems } = read(bytes);
    expect(problems).toEqual([]);
    expect(contacts.map((c) => [c.name, c.version])).toEqual([
      ['Arnold Smith', '3.0'],
      ['Chris Beatle', '3.0'],
      ['Doug White', '3.0'],
      ['John Doe III', '2.1'],
    ]);
  });

  it('skips a card that never ends, names it by place, line and name, and reads the cards around it', () => {
    const text =
      card('VERSION:3.0', 'FN:First Person') +
      'BEGIN:VCARD\r\nVERSION:3.0\r\nFN:Cut Short\r\nEMAIL:cut@example.com\r\n' +
      card('VERSION:3.0', 'FN:Third Person');
    const { contacts, problems } = read(text, 'mixed.vcf');
    expect(contacts.map((c) => c.name)).toEqual(['First Person', 'Third Person']);
    expect(problems).toEqual([
      {
        file: 'mixed.vcf',
        card: 2,
        line: 5,
        problem: 'mixed.vcf: card 2 (line 5, "Cut Short") has no END:VCARD; it was skipped.',
      },
    ]);
  });

  it('names lines outside any card (a card whose BEGIN:VCARD is missing) and reads the others', () => {
    const text = card('VERSION:3.0', 'FN:Kept') + 'VERSION:3.0\r\nFN:Orphan\r\nEND:VCARD\r\n';
    const { contacts, problems } = read(text, 'orphan.vcf');
    expect(contacts.map((c) => c.name)).toEqual(['Kept']);
    expect(problems).toEqual([
      {
        file: 'orphan.vcf',
        line: 5,
        problem: 'orphan.vcf: lines 5-7 are outside any card (is a BEGIN:VCARD missing?) and were skipped.',
      },
    ]);
  });

  it('names the lines of a card that are no property, and keeps the rest of the card', () => {
    const { contacts, problems } = read(card('VERSION:3.0', 'FN:Has Junk', 'this is not a property', 'TEL:555-0100'));
    expect(contacts[0]?.phones).toEqual([{ value: '555-0100', types: [] }]);
    expect(problems).toMatchObject([
      { card: 1, line: 4, problem: expect.stringContaining('line 4 is not a vCard property and was ignored') },
    ]);
  });

  it('calls a file with no card it can read not a valid vCard file, with the reason', () => {
    expect(read('BEGIN:VCARD\r\nFN:x\r\n', 'broken.vcf').problems).toEqual([
      {
        file: 'broken.vcf',
        problem: 'broken.vcf is not a valid vCard file: card 1 (line 1, "x") has no END:VCARD; it was skipped.',
      },
    ]);
    expect(read('just some text\n', 'notes.vcf').problems[0]?.problem).toBe(
      'notes.vcf is not a valid vCard file: line 1 is outside any card and was skipped.',
    );
    expect(read('', 'empty.vcf').problems[0]?.problem).toBe(
      'empty.vcf is not a valid vCard file: it holds no BEGIN:VCARD.',
    );
  });

  it("keeps a 2.1 AGENT's nested card inside its card", () => {
    const text = card('VERSION:2.1', 'FN:Boss', 'AGENT:', 'BEGIN:VCARD', 'VERSION:2.1', 'FN:Assistant', 'END:VCARD');
    expect(only(text).name).toBe('Boss');
  });
});

describe('vCard 2.1', () => {
  it("reads Outlook's bare type parameters (TEL;WORK;VOICE:, EMAIL;PREF;INTERNET:)", () => {
    const outlook = only(real('ezvcard-John_Doe_MS_OUTLOOK.vcf'));
    expect(outlook.version).toBe('2.1');
    expect(outlook.phones).toEqual([
      { value: '(905) 555-1234', types: ['work', 'voice'] },
      { value: '(905) 666-1234', types: ['home', 'voice'] },
    ]);
    expect(outlook.emails).toEqual([{ value: 'john.doe@ibm.cm', types: ['pref', 'internet'] }]);
    expect(outlook.nicknames).toEqual(['Johny']);
  });

  it("decodes Android's quoted-printable UTF-8, soft line breaks included", () => {
    const android = read(real('ezvcard-John_Doe_ANDROID.vcf')).contacts;
    expect(android[3]?.fn).toBe(Array(11).fill('Ñ').join(' '));
    expect(android[3]?.n?.family).toBe(Array(11).fill('Ñ').join(' '));
    expect(android[4]?.emails.map((e) => e.value)).toEqual(['bob@company.com', 'Ñ'.repeat(14)]);
  });

  it('decodes quoted-printable in the charset it names, and guesses Windows-1252 where UTF-8 cannot be', () => {
    expect(only(card('VERSION:2.1', 'FN;CHARSET=ISO-8859-1;ENCODING=QUOTED-PRINTABLE:M=FCller')).fn).toBe('Müller');
    expect(only(card('VERSION:2.1', 'FN;ENCODING=QUOTED-PRINTABLE:Jos=E9 =\r\nGarc=EDa')).fn).toBe('José García');
    // 3.0 files from nuovo's corpus name quoted-printable with a bare parameter.
    expect(only(card('VERSION:3.0', 'FN;QUOTED-PRINTABLE:Ludwig-G=C3=B6tz Gra=C3=9Fl')).fn).toBe('Ludwig-Götz Graßl');
  });

  it('ends a base64 block at the blank line, indented or not, and reads what follows', () => {
    const text = card(
      'VERSION:2.1',
      'FN:Photo Person',
      'PHOTO;ENCODING=BASE64;TYPE=JPEG:',
      '/9j/4AAQSkZJRgABAQAAAQABAAD',
      'SkZJRgABAQAAAQABAAD/2wBDAA==',
      '',
      'EMAIL;INTERNET:after@example.com',
    );
    expect(only(text).emails).toEqual([{ value: 'after@example.com', types: ['internet'] }]);
    expect(only(real('sabre-issue64.vcf')).version).toBe('2.1');
    const blackberry = only(real('ezvcard-John_Doe_BLACK_BERRY.vcf'));
    expect(blackberry.phones).toEqual([{ value: '+96123456789', types: ['cell'] }]);
  });
});

describe('vCard 3.0 and 4.0 as the big writers write them', () => {
  it("reads Apple's PHOTO;BASE64: folded with two spaces, and the lines after it", () => {
    const mac = only(real('ezvcard-John_Doe_MAC_ADDRESS_BOOK.vcf'));
    expect(mac.phonetic).toEqual(['Jon', 'Dow']);
    expect(only(real('sabre-issue153.vcf')).name).toBe('Test Benutzer');
    const lines = contentLines(real('sabre-issue153.vcf').toString('utf8'));
    expect(lines.map((l) => l.text.split(':')[0])).toEqual(['BEGIN', 'VERSION', 'N', 'FN', 'PHOTO;BASE64', 'END']);
  });

  it('decodes base64 text values (ENCODING=b, bare BASE64) and leaves photos undecoded', () => {
    const b64 = Buffer.from('José', 'utf8').toString('base64');
    expect(only(card('VERSION:3.0', `FN;ENCODING=b:${b64}`)).fn).toBe('José');
    expect(only(card('VERSION:3.0', `FN;BASE64:${b64}`)).fn).toBe('José');
    expect(only(real('ezvcard-John_Doe_IPHONE.vcf')).phones).toHaveLength(7);
  });

  it("reads Apple's grouped properties (item1.EMAIL) and types written as type=pref", () => {
    const apple = only(real('nuovo-example.vcf'));
    expect(apple.emails).toEqual([{ value: 'site@example.com', types: ['internet'] }]);
    expect(only(card('VERSION:3.0', 'FN:G', 'item7.TEL;type=CELL;type=pref:555-0101')).phones).toEqual([
      { value: '555-0101', types: ['cell', 'pref'] },
    ]);
  });

  it("splits RFC 6350's quoted type lists and shows a tel: URI as its number", () => {
    expect(only(real('ezvcard-rfc6350-example.vcf')).phones).toEqual([
      { value: '+1-418-656-9254;ext=102', types: ['work', 'voice'] },
      { value: '+1-418-262-6501', types: ['work', 'cell', 'voice', 'video', 'text'] },
    ]);
  });

  it('undoes escaped commas and semicolons, and keeps an ORG component with a comma whole', () => {
    expect(only(real('ezvcard-issue114.vcf')).fn).toBe('Dummy, Dummy');
    const c = only(card('VERSION:3.0', 'FN:A\\;B\\\\C', 'N:O\\,Brien;Pat\\;rick;;;', 'ORG:Company\\, The;Dept'));
    expect(c.fn).toBe('A;B\\C');
    expect(c.n).toMatchObject({ family: 'O,Brien', given: 'Pat;rick' });
    expect(c.organization).toBe('Company, The, Dept');
    expect(only(real('ezvcard-outlook-2003.vcf')).organization).toBe('Company, The, TheDepartment');
  });

  it('unfolds lines folded with a space or a tab, anywhere in the line', () => {
    const c = only(card('VERSION:3.0', 'FN:Folded', 'EMA', ' IL;TYPE=WORK:fol', '\tded@example.com'));
    expect(c.emails).toEqual([{ value: 'folded@example.com', types: ['work'] }]);
  });
});

describe('any line ending and any encoding', () => {
  const lines = ['BEGIN:VCARD', 'VERSION:3.0', 'FN:Line Ends', 'TEL:555-0102', 'END:VCARD'];
  it.each([
    ['CRLF', '\r\n'],
    ['LF', '\n'],
    ['CR', '\r'],
    ['CR CR LF', '\r\r\n'],
  ])('reads %s', (_, ending) => {
    const c = only(lines.join(ending) + ending);
    expect([c.name, c.phones[0]?.value]).toEqual(['Line Ends', '555-0102']);
    expect(contentLines(lines.join(ending))).toHaveLength(5);
  });

  it('reads a Windows-1252 file, and a value in the charset it names (Shift_JIS)', () => {
    const latin = Buffer.concat([
      Buffer.from('BEGIN:VCARD\r\nVERSION:2.1\r\nFN:M'),
      Buffer.from([0xfc]),
      Buffer.from('ller\r\nEND:VCARD\r\n'),
    ]);
    expect(decodeVcfBytes(latin).encoding).toBe('legacy');
    expect(only(latin).fn).toBe('Müller');
    const yamada = Buffer.from([0x8e, 0x52, 0x93, 0x63, 0x91, 0xbe, 0x98, 0x59]);
    const sjis = Buffer.concat([
      Buffer.from('BEGIN:VCARD\r\nVERSION:2.1\r\nFN;CHARSET=SHIFT_JIS:'),
      yamada,
      Buffer.from('\r\nEND:VCARD\r\n'),
    ]);
    expect(only(sjis).fn).toBe('山田太郎');
  });

  it('reads UTF-16 with a byte order mark, and UTF-8 with one', () => {
    const text = card('VERSION:3.0', 'FN:Zoë Wide');
    expect(only(Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')])).fn).toBe('Zoë Wide');
    expect(only(Buffer.from(text, 'utf16le').swap16()).fn).toBe('Zoë Wide');
    const withBom = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(text)]);
    expect(decodeVcfBytes(withBom)).toMatchObject({ encoding: 'utf-8', bom: true });
    expect(only(withBom).fn).toBe('Zoë Wide');
  });

  it('splits a file into its cards with the line each begins on', () => {
    const { cards } = splitCards(card('FN:a') + '\r\n' + card('FN:b'));
    expect(cards.map((c) => [c.index, c.line, c.ended])).toEqual([
      [1, 1, true],
      [2, 5, true],
    ]);
  });
});
