/**
 * Real address books from other projects' test corpora (fixtures/real/SOURCES.md), read by Homebody and compared
 * card by card with python's vobject (the golden files, written by src-main/testing/reference/contactsReference.py;
 * where Homebody is right and vobject is not, the golden file's notes say why). Also the files Homebody's writes
 * make from them, which vobject must read with every old card as it was and the new one as meant.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  REAL_FIXTURES,
  WRITTEN_CASES,
  WRITTEN_FIXTURES,
  writtenName,
} from '../../../testing/reference/contactsWrittenCases.js';
import type { Contact } from './vcards.js';
import { parseVcfBytes } from './vcards.js';
import { appendCard } from './vcardWrite.js';

interface Entry {
  value: string;
  types: string[];
}
interface GoldenCard {
  fn: string | null;
  n: string[] | null;
  emails: Entry[];
  phones: Entry[];
}
type Field = keyof GoldenCard;
interface Note {
  card: number;
  field: Field | 'card';
  reference: unknown;
  homebody: unknown;
  why: string;
}
interface Golden {
  file: string;
  cards: Array<GoldenCard | { error: string }>;
  notes: Note[];
}

function golden(file: string): Golden {
  return JSON.parse(readFileSync(file.replace(/\.vcf$/, '.golden.json'), 'utf8')) as Golden;
}

const entries = (list: Contact['emails']): Entry[] => list.map((e) => ({ value: e.value, types: [...e.types].sort() }));

/** Homebody's reading of a card in the golden file's terms. */
function asGolden(c: Contact): GoldenCard {
  return {
    fn: c.fn ?? null,
    n: c.n ? [c.n.family, c.n.given, c.n.additional, c.n.prefix, c.n.suffix] : null,
    emails: entries(c.emails),
    phones: entries(c.phones),
  };
}

/** Compares Homebody's cards with the reference's, field by field, as the notes amend it. */
function expectAgreement(mine: Contact[], reference: Golden): void {
  expect(mine.length, `${reference.file}: cards found`).toBe(reference.cards.length);
  reference.cards.forEach((card, i) => {
    const ours = asGolden(mine[i] as Contact);
    const notes = reference.notes.filter((n) => n.card === i);
    for (const note of notes) {
      // A note must still describe what vobject says, or it is out of date.
      const theirs = note.field === 'card' ? card : (card as GoldenCard)[note.field];
      expect(theirs, `${reference.file} card ${i}: the note's reference ${note.field}`).toEqual(note.reference);
      const got = note.field === 'card' ? ours : ours[note.field];
      expect(got, `${reference.file} card ${i} ${note.field} (${note.why})`).toEqual(note.homebody);
    }
    if (notes.some((n) => n.field === 'card')) return;
    for (const field of ['fn', 'n', 'emails', 'phones'] as const) {
      if (notes.some((n) => n.field === field)) continue;
      expect(ours[field], `${reference.file} card ${i} ${field}`).toEqual((card as GoldenCard)[field]);
    }
  });
}

const realFiles = readdirSync(REAL_FIXTURES).filter((f) => f.endsWith('.vcf'));

describe('real .vcf files, compared with vobject', () => {
  it('has the corpus and a golden file for each', () => {
    expect(realFiles.length).toBeGreaterThanOrEqual(25);
    for (const f of realFiles) expect(golden(path.join(REAL_FIXTURES, f)).file).toBe(f);
  });

  it.each(realFiles)('%s: the same cards, names, emails, phones and types', (file) => {
    const book = parseVcfBytes(readFileSync(path.join(REAL_FIXTURES, file)), file);
    expect(book.problems).toEqual([]);
    expectAgreement(book.contacts, golden(path.join(REAL_FIXTURES, file)));
  });

  it.each(realFiles)('%s: the same reading with LF, CR and CR CR LF line endings', (file) => {
    const text = readFileSync(path.join(REAL_FIXTURES, file), 'latin1');
    const reference = parseVcfBytes(Buffer.from(text, 'latin1'), file).contacts;
    for (const ending of ['\n', '\r', '\r\r\n', '\r\n']) {
      const changed = Buffer.from(text.replace(/\r*\n|\r/g, ending), 'latin1');
      const mine = parseVcfBytes(changed, file).contacts.map(asGolden);
      expect(mine, JSON.stringify(ending)).toEqual(reference.map(asGolden));
    }
  });
});

describe('files Homebody wrote into real address books, read by vobject', () => {
  it.each(WRITTEN_CASES.map((c) => [c.why, c] as const))('%s', (_why, c) => {
    const source = readFileSync(path.join(REAL_FIXTURES, c.source));
    const book = parseVcfBytes(source, c.source);
    const appended = appendCard(source, book, c.card, c.source);
    const written = readFileSync(path.join(WRITTEN_FIXTURES, writtenName(c)));
    // The committed file is what Homebody writes today (else run contactsWritten.ts and the reference again).
    expect(Buffer.from(appended.bytes).equals(written)).toBe(true);
    // Every byte that was there is still there, first.
    expect(written.subarray(0, source.length).equals(source)).toBe(true);

    const before = golden(path.join(REAL_FIXTURES, c.source));
    const after = golden(path.join(WRITTEN_FIXTURES, writtenName(c)));
    expect(after.cards.slice(0, -1), 'the cards that were there, as vobject read them before').toEqual(before.cards);
    const added = after.cards[after.cards.length - 1] as GoldenCard;
    expect(added.fn).toBe(c.card.name);
    expect(added.emails.map((e) => e.value)).toEqual(c.card.email ? [c.card.email] : []);
    expect(added.phones.map((p) => p.value)).toEqual(c.card.phone ? [c.card.phone] : []);
    // And Homebody reads the written file as vobject does.
    expectAgreement(parseVcfBytes(written, writtenName(c)).contacts, after);
  });
});
