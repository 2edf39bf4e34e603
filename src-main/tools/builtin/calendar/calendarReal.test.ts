import { describe, expect, it } from 'vitest';
import {
  disagreements,
  goldenFiles,
  homebodyListing,
  keyOf,
  referenceListing,
} from '../../../testing/reference/calendarGolden.js';

/**
 * Real exports from other projects' test corpora (fixtures/real/SOURCES.md), listed month by month in Europe/Berlin
 * and compared occurrence by occurrence with python's icalendar + recurring-ical-events (golden files written by
 * src-main/testing/reference/calendarReference.py). Where the two disagree and Homebody is right, the golden file's
 * notes say why; everywhere else Homebody must list exactly what the reference lists.
 */
const golden = goldenFiles();

describe('calendar listings against the reference', () => {
  it('covers at least 20 real files and 40 monthly ranges', () => {
    expect(golden.length).toBeGreaterThanOrEqual(20);
    expect(golden.flatMap((g) => Object.keys(g.months)).length).toBeGreaterThanOrEqual(40);
  });

  for (const file of golden) {
    it(`${file.file}: the same occurrences as the reference, but for the noted cases`, () => {
      for (const month of Object.keys(file.months)) {
        expect({ month, ...disagreements(file, month) }).toEqual({ month, homebodyOnly: [], referenceOnly: [] });
      }
    });
  }

  it('every note still describes a real disagreement (a note the code no longer needs must go)', () => {
    for (const file of golden) {
      for (const note of file.notes) {
        const reference = referenceListing(file.months[note.month] as never).map(keyOf);
        const homebody = homebodyListing(file.file, note.month, file.timeZone).map(keyOf);
        const [mine, theirs] = note.only === 'homebody' ? [homebody, reference] : [reference, homebody];
        for (const o of note.occurrences) {
          expect({ file: file.file, note: note.month, key: keyOf(o), here: mine.includes(keyOf(o)) }).toMatchObject({
            here: true,
          });
          expect(theirs).not.toContain(keyOf(o));
        }
        expect(note.why.length).toBeGreaterThan(40);
      }
    }
  });
});
