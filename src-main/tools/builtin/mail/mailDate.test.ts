import { describe, expect, it } from 'vitest';
import { parseMailDate } from './mailDate.js';

/** Dates from real mail, with what Python's email.utils.parsedate_to_datetime reads in them (UTC; null: none). */
const PYTHON: ReadonlyArray<readonly [string, string | null]> = [
  ['Fri, 21 Nov 1997 09:55:06 -0600', '1997-11-21T15:55:06.000Z'],
  ['21 Nov 97 09:55:06 GMT', '1997-11-21T09:55:06.000Z'],
  ['Thu, 13 Feb 1969 23:32:54 -0330', '1969-02-14T03:02:54.000Z'],
  ['Mon, 30 Jun 3609 15:33:50 +0600', '3609-06-30T09:33:50.000Z'],
  ['Pn, 29 paX 2007 21:13:00 +0100', null],
  ['Wed, 15 Dec 2010    59:10 -0500', null],
  ['Tue, 12 Oct 2010 16:21:05 H0500', '2010-10-12T16:21:05.000Z'],
  ['Tue, 04 Dec 2001 17:11:25 -0459', '2001-12-04T22:10:25.000Z'],
  ['Wed, 9 Jan 2002 19:47:50 MST', '2002-01-10T02:47:50.000Z'],
  ['Tue, 1 Jul 2003 10:52:37 +0200 (CEST)', '2003-07-01T08:52:37.000Z'],
  ['Mon, 1 Jan 2024 10:00:00 CEST', '2024-01-01T10:00:00.000Z'],
  ['Mon, 1 Jan 2024 10:00:00 -0000', '2024-01-01T10:00:00.000Z'],
  ['Sat, 29 Feb 2023 10:00:00 +0000', null],
  ['Thu, 29 Feb 2024 10:00:00 +0000', '2024-02-29T10:00:00.000Z'],
  ['Thursday, 21-Nov-97 09:55:06 GMT', '1997-11-21T09:55:06.000Z'],
  ['1 Jan 2024 10.00.05 +0100', '2024-01-01T09:00:05.000Z'],
  ['Mon,1 Jan 2024 10:00 +0100', '2024-01-01T09:00:00.000Z'],
  ['', null],
  ['   ', null],
  ['Mon, 1 Jan 2024 24:00:00 +0000', null],
  ['Mon, 1 Jan 2024 10:00:00 +9999', null],
  ['Jan 1 2024 10:00:00 +0100', '2024-01-01T09:00:00.000Z'],
  ['Mon, 01 Jan 2024 10:00:60 +0000', null],
  ['2024-01-01T10:00:00Z', null],
];

describe('parseMailDate', () => {
  it('reads every Date as Python does, and an unreadable one as unknown (never the moment of reading)', () => {
    expect(PYTHON.map(([value]) => [value, parseMailDate(value)])).toEqual(PYTHON);
    expect(parseMailDate(undefined)).toBeNull();
  });
});
