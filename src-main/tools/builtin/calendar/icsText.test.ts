import { describe, expect, it } from 'vitest';
import { applyEdits, contentLines, foldLine, parseDocument, parseLine } from './icsText.js';
import { ianaZoneForTzid } from './timeZoneNames.js';

describe('iCalendar text', () => {
  it('unfolds continuation lines and keeps each line’s exact span, whatever the line ends', () => {
    const text = 'BEGIN:VEVENT\r\nUID:a\r\n  b\nSUMMARY:x\rEND:VEVENT';
    const lines = contentLines(text);
    expect(lines.map((l) => l.text)).toEqual(['BEGIN:VEVENT', 'UID:a b', 'SUMMARY:x', 'END:VEVENT']);
    expect(lines.map((l) => text.slice(l.start, l.end))).toEqual([
      'BEGIN:VEVENT\r\n',
      'UID:a\r\n  b\n',
      'SUMMARY:x\r',
      'END:VEVENT',
    ]);
  });

  it('reads quoted parameters with colons in them, and refuses a line that is no property', () => {
    expect(parseLine('DTSTART;TZID="(UTC+01:00) Amsterdam, Berlin":20260302T100000')).toMatchObject({
      name: 'DTSTART',
      params: [['TZID', '(UTC+01:00) Amsterdam, Berlin']],
      paramsText: ';TZID="(UTC+01:00) Amsterdam, Berlin"',
      value: '20260302T100000',
    });
    expect(parseLine('just some words')).toBeUndefined();
    expect(parseLine('X;P="unclosed:value')).toBeUndefined();
  });

  it('builds the component tree and closes what the file leaves open', () => {
    const doc = parseDocument('BEGIN:VCALENDAR\nBEGIN:VEVENT\nUID:1\nEND:VEVENT\nBEGIN:VEVENT\nUID:2\n');
    const [root] = doc.roots;
    expect(doc.lineBreak).toBe('\n');
    expect(root?.closed).toBe(false);
    expect(root?.children.map((c) => [c.name, c.closed])).toEqual([
      ['VEVENT', true],
      ['VEVENT', false],
    ]);
  });

  it('folds at 75 octets without splitting a character, and applies edits leaving the rest as it was', () => {
    const folded = foldLine(`DESCRIPTION:${'ä'.repeat(60)}`, '\r\n');
    for (const line of folded.split('\r\n').slice(0, -1)) expect(Buffer.byteLength(line)).toBeLessThanOrEqual(75);
    expect(contentLines(folded)[0]?.text).toBe(`DESCRIPTION:${'ä'.repeat(60)}`);
    expect(
      applyEdits('abcdef', [
        { start: 4, end: 4, text: 'X' },
        { start: 1, end: 2, text: '' },
      ]),
    ).toBe('acdXef');
  });
});

describe('time zone names without a VTIMEZONE', () => {
  it('maps Windows ids and display names (CLDR windowsZones), old and new, to IANA zones', () => {
    expect(ianaZoneForTzid('W. Europe Standard Time')).toBe('Europe/Berlin');
    expect(ianaZoneForTzid('(GMT+10:00) Canberra, Melbourne, Sydney')).toBe('Australia/Sydney');
    expect(ianaZoneForTzid('(UTC-05:00) Eastern Time (US and Canada)')).toBe('America/New_York');
    expect(ianaZoneForTzid('(GMT) Greenwich Mean Time : Dublin, Edinburgh, Lisbon, London')).toBe('Europe/London');
    expect(ianaZoneForTzid('Mexico Standard Time')).toBe('America/Mexico_City');
    expect(ianaZoneForTzid('/mozilla.org/20070129_1/Europe/Paris')).toBe('Europe/Paris');
    expect(ianaZoneForTzid('(GMT +01:00)')).toBe('UTC+01:00');
    expect(ianaZoneForTzid('Europe/Berlin')).toBe('Europe/Berlin');
    expect(ianaZoneForTzid('Customized Time Zone')).toBeUndefined();
  });
});
