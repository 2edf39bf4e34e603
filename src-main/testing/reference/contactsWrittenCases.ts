/**
 * The writes whose results the reference reads: a card added by contact_add's `file` path to real address books of
 * each vCard version and line ending. contactsWritten.ts writes the results into the fixtures' written/ folder
 * (for contactsReference.py to read with vobject); contactsReal.test.ts checks that Homebody still writes exactly
 * those bytes and that vobject found the old cards and the new one.
 */
import path from 'node:path';
import type { NewCard } from '../../tools/builtin/contacts/vcardWrite.js';

export const REAL_FIXTURES = path.join(
  import.meta.dirname,
  '..',
  '..',
  'tools',
  'builtin',
  'contacts',
  'fixtures',
  'real',
);
export const WRITTEN_FIXTURES = path.join(REAL_FIXTURES, 'written');

export interface WrittenCase {
  /** A file of fixtures/real. */
  readonly source: string;
  readonly card: NewCard;
  /** What the case is for. */
  readonly why: string;
}

export const WRITTEN_CASES: readonly WrittenCase[] = [
  {
    source: 'ezvcard-outlook-2003.vcf',
    card: {
      name: 'Maria João Silva',
      email: 'mj@example.pt',
      phone: '+351 210 000 000',
      organization: 'Açores; Lda.',
      uid: '00000000-0000-4000-8000-000000000001',
    },
    why: 'vCard 2.1 (Outlook), CRLF: quoted-printable UTF-8, an escaped semicolon in ORG',
  },
  {
    source: 'ezvcard-John_Doe_ANDROID.vcf',
    card: {
      name: 'Zoë Ångström-Øverland von Münchhausen-Łukasiewicz zu Großbritannien',
      phone: '+49 30 1234567',
      uid: '00000000-0000-4000-8000-000000000002',
    },
    why: 'vCard 2.1 (Android): a name long enough for quoted-printable soft line breaks',
  },
  {
    source: 'ezvcard-gmail-list.vcf',
    card: { name: 'Chloé Martin', email: 'chloe@example.fr', uid: '00000000-0000-4000-8000-000000000003' },
    why: 'vCard 3.0 (Gmail) whose last line has no line ending',
  },
  {
    source: 'ezvcard-John_Doe_IPHONE.vcf',
    card: { name: 'Jon Smith, Jr.', phone: '555-0100', uid: '00000000-0000-4000-8000-000000000004' },
    why: 'vCard 3.0 (iPhone) with CR CR LF line endings: a comma escaped',
  },
  {
    source: 'ezvcard-rfc6350-example.vcf',
    card: {
      name: 'Björn Keller',
      email: 'bjorn@example.de',
      phone: '+49 30 7654321',
      organization: 'Keller & Söhne',
      uid: '00000000-0000-4000-8000-000000000005',
    },
    why: 'vCard 4.0 with LF line endings',
  },
  {
    source: 'derived-gmail-list-with-outlook-2003-card.vcf',
    card: { name: 'Ana Souza', email: 'ana@example.org', uid: '00000000-0000-4000-8000-000000000006' },
    why: 'three 3.0 cards and one 2.1: the card is written in 3.0, the version most cards have',
  },
];

/** The written file of a case: the source's name with "+added". */
export function writtenName(c: WrittenCase): string {
  return c.source.replace(/\.vcf$/, '+added.vcf');
}
