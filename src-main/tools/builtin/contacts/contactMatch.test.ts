import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { editDistance, fold, matchScore, soundOf } from './contactMatch.js';
import type { Contact } from './vcards.js';
import { parseVcfBytes } from './vcards.js';

/** An address book of people whose names sit close to each other, as real ones do. */
const ROSTER = [
  'John Doe',
  'Jane Doe',
  'Johnny Doe',
  'Jonathan Doe',
  'Joan Smith',
  'Jon Snow',
  'Ron Weasley',
  'Don Draper',
  'Jan Kowalski',
  'Joe Bloggs',
  'Dana Scully',
  'Anna Müller',
  'Ana Souza',
  'Hannah Arendt',
  'Björn Keller',
  'Łukasz Nowak',
  'Peter Straße',
  'Chloé Martin',
  'Martina Navratilova',
  'Mathew Perry',
  'Steven Stephens',
  'Christina Aguilera',
  'Doris Day',
  'Joanna Newsom',
].map((name, i): Contact => {
  const [given = '', family = ''] = name.split(' ');
  return {
    name,
    fn: name,
    n: { family, given, additional: '', prefix: '', suffix: '' },
    nicknames: name === 'Jonathan Doe' ? ['Jonny'] : [],
    phonetic: [],
    emails: [],
    phones: [],
    file: 'roster.vcf',
    card: i + 1,
    line: 1,
  };
});

/** The names found for a query, best first, as contact_find ranks them. */
function found(query: string, contacts: readonly Contact[] = ROSTER): string[] {
  return contacts
    .map((c) => ({ c, score: matchScore(c, query) }))
    .filter((m) => m.score > 0)
    .sort((a, b) => b.score - a.score || a.c.name.localeCompare(b.c.name))
    .map((m) => m.c.name);
}

describe('fuzzy name search', () => {
  it('finds John Doe for "Jon Doe" and "Jhon Doe", first, and not Jane Doe', () => {
    for (const query of ['Jon Doe', 'Jhon Doe', 'john doe', 'Doe John', 'Doe, Jon']) {
      const names = found(query);
      expect(names[0], query).toBe('John Doe');
      expect(names, query).not.toContain('Jane Doe');
      expect(names, query).not.toContain('Joe Bloggs');
    }
  });

  it('ranks an exact name above one it starts, and one it starts above a near miss', () => {
    expect(found('John Doe')).toEqual(['John Doe', 'Johnny Doe']);
    expect(found('Jon Doe')).toEqual(['John Doe', 'Jonathan Doe']);
  });

  it('keeps a three-letter word strict: "Jon" is not Ron, Don, Jan or Joe', () => {
    const names = found('Jon');
    expect(names[0]).toBe('Jon Snow');
    expect(names).toEqual(expect.arrayContaining(['John Doe', 'Joan Smith', 'Jonathan Doe']));
    for (const other of ['Ron Weasley', 'Don Draper', 'Jan Kowalski', 'Joe Bloggs', 'Jane Doe']) {
      expect(names).not.toContain(other);
    }
    expect(found('Ana')).toEqual(['Ana Souza', 'Anna Müller']);
  });

  it('finds names with or without accents and letters NFD keeps whole', () => {
    expect(found('bjorn keller')).toEqual(['Björn Keller']);
    expect(found('Muller')).toEqual(['Anna Müller']);
    expect(found('Mueller')).toEqual(['Anna Müller']);
    expect(found('Lukasz')).toEqual(['Łukasz Nowak']);
    expect(found('Strasse')).toEqual(['Peter Straße']);
    expect(found('chloe')).toEqual(['Chloé Martin']);
  });

  it('finds names spelt as they sound and a letter or two off', () => {
    expect(found('Matthew Perry')).toEqual(['Mathew Perry']);
    expect(found('Kristina')).toEqual(['Christina Aguilera']);
    expect(found('Stephen')).toContain('Steven Stephens');
    expect(found('Navratilowa')).toEqual(['Martina Navratilova']);
    expect(found('Hanna')[0]).toBe('Hannah Arendt');
  });

  it('finds a nickname the card has, and nothing for names nobody has', () => {
    expect(found('Jonny Doe')[0]).toBe('Jonathan Doe');
    for (const query of ['Zebedee', 'Xavier Doe', 'Kim', 'Smithers', 'q']) expect(found(query), query).toEqual([]);
  });

  it("reads the nickname and phonetic names of real cards: Outlook's Johny, Apple's Jon Dow", () => {
    const real = (f: string): Contact[] =>
      parseVcfBytes(readFileSync(path.join(import.meta.dirname, 'fixtures', 'real', f)), f).contacts;
    const outlook = real('ezvcard-John_Doe_MS_OUTLOOK.vcf');
    const mac = real('ezvcard-John_Doe_MAC_ADDRESS_BOOK.vcf');
    expect(found('Johny', outlook)).toHaveLength(1);
    expect(found('Jon Dow', mac)).toHaveLength(1);
    expect(found('Richter', mac)).toHaveLength(1);
    expect(found('Jane', [...outlook, ...mac])).toEqual([]);
  });
});

describe('the pieces', () => {
  it('folds case, accents and spelt-out letters', () => {
    expect(fold('Ærø Łódź Straße')).toBe('aero lodz strasse');
  });

  it('gives names that sound alike one sound', () => {
    expect(new Set(['john', 'jhon', 'jon', 'jonn'].map(soundOf))).toEqual(new Set(['jon']));
    expect(soundOf('christina')).toBe(soundOf('kristina'));
    expect(soundOf('jane')).not.toBe(soundOf('john'));
  });

  it('counts a swap of two neighbouring letters as one edit', () => {
    expect(editDistance('jhon', 'john', 1)).toBe(1);
    expect(editDistance('sousa', 'souza', 2)).toBe(1);
    expect(editDistance('kitten', 'sitting', 3)).toBe(3);
    expect(editDistance('a', 'abcdef', 2)).toBe(3);
  });
});
