/**
 * A message's Date header read the way Python's email.utils.parsedate_to_datetime reads it (RFC 5322 with the
 * obsolete forms real mail uses: two-digit years, named zones, no weekday, "." between the time's parts). mailparser
 * turns a Date it cannot read into the moment of parsing, which sorted broken spam first; here it is unknown (null).
 */

const MONTHS = [
  'jan',
  'feb',
  'mar',
  'apr',
  'may',
  'jun',
  'jul',
  'aug',
  'sep',
  'oct',
  'nov',
  'dec',
  'january',
  'february',
  'march',
  'april',
  'may',
  'june',
  'july',
  'august',
  'september',
  'october',
  'november',
  'december',
];
const DAYS = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'];
/** The zone names RFC 822 defines, in hours and minutes as written (-0500). */
const ZONES: Readonly<Record<string, number>> = {
  UT: 0,
  UTC: 0,
  GMT: 0,
  Z: 0,
  AST: -400,
  ADT: -300,
  EST: -500,
  EDT: -400,
  CST: -600,
  CDT: -500,
  MST: -700,
  MDT: -600,
  PST: -800,
  PDT: -700,
};

const integer = (text: string | undefined): number | null =>
  text !== undefined && /^\s*[+-]?\d+\s*$/.test(text) ? Number.parseInt(text, 10) : null;

/**
 * The parts of a date (year, month, day, hour, minute, second) and its offset east of UTC in seconds, or null for
 * an unknown zone ("-0000", or a name RFC 822 does not define: RFC 5322 reads such a time as UTC). A port of
 * Python's email._parseaddr._parsedate_tz, step by step, so both read the same dates.
 */
function parseParts(value: string): { parts: number[]; offset: number | null } | null {
  let data = value.split(/\s+/).filter((word) => word !== '');
  if (data.length === 0) return null;
  if (data[0]!.endsWith(',') || DAYS.includes(data[0]!.toLowerCase())) data.shift();
  else {
    const comma = data[0]!.lastIndexOf(',');
    if (comma >= 0) data[0] = data[0]!.slice(comma + 1);
  }
  if (data.length === 3) {
    // RFC 850: 21-Nov-97 09:55:06 GMT
    const stuff = data[0]!.split('-');
    if (stuff.length === 3) data = [...stuff, ...data.slice(1)];
  }
  if (data.length === 4) {
    const s = data[3]!;
    let i = s.indexOf('+');
    if (i === -1) i = s.indexOf('-');
    if (i > 0) data = [...data.slice(0, 3), s.slice(0, i), s.slice(i)];
    else data.push('');
  }
  if (data.length < 5) return null;
  let [dd, mm, yy, tm, tz] = data.slice(0, 5) as [string, string, string, string, string];
  if (!dd || !mm || !yy) return null;
  mm = mm.toLowerCase();
  if (!MONTHS.includes(mm)) {
    [dd, mm] = [mm, dd.toLowerCase()];
    if (!MONTHS.includes(mm)) return null;
  }
  let month = MONTHS.indexOf(mm) + 1;
  if (month > 12) month -= 12;
  if (dd.endsWith(',')) dd = dd.slice(0, -1);
  if (yy.indexOf(':') > 0) [yy, tm] = [tm, yy];
  if (yy.endsWith(',')) {
    yy = yy.slice(0, -1);
    if (!yy) return null;
  }
  if (!/^\d/.test(yy)) [yy, tz] = [tz, yy];
  if (tm.endsWith(',')) tm = tm.slice(0, -1);
  let time = tm.split(':');
  if (time.length === 1 && time[0]!.includes('.')) time = time[0]!.split('.');
  if (time.length === 2) time.push('0');
  if (time.length !== 3) return null;
  const numbers = [yy, dd, ...time].map(integer);
  if (numbers.some((n) => n === null)) return null;
  const [yearWritten, day, hour, minute, second] = numbers as [number, number, number, number, number];
  // Two-digit years as POSIX reads them: 69-99 are 1969-1999, 00-68 are 2000-2068.
  const year = yearWritten < 100 ? yearWritten + (yearWritten > 68 ? 1900 : 2000) : yearWritten;
  const zone = tz.toUpperCase();
  let written: number | null = Object.hasOwn(ZONES, zone) ? ZONES[zone]! : integer(zone);
  if (written === 0 && zone.startsWith('-')) written = null;
  let offset: number | null = null;
  if (written !== null) {
    const sign = written < 0 ? -1 : 1;
    const hm = Math.abs(written);
    offset = sign * (Math.floor(hm / 100) * 3600 + (hm % 100) * 60);
  }
  return { parts: [year, month, day, hour, minute, second], offset };
}

/** Python's datetime refuses what is not a real moment (31 February, 24:00, a zone a day or more away). */
function realMoment(parts: number[], offset: number | null): boolean {
  const [year, month, day, hour, minute, second] = parts as [number, number, number, number, number, number];
  if (year < 1 || year > 9999 || hour > 23 || minute > 59 || second > 59) return false;
  if (hour < 0 || minute < 0 || second < 0 || day < 1) return false;
  const daysInMonth = new Date(Date.UTC(2000, month, 0)).getUTCDate();
  const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
  if (day > (month === 2 ? (leap ? 29 : 28) : daysInMonth)) return false;
  return offset === null || Math.abs(offset) < 86_400;
}

/** The moment a Date header names, as an ISO 8601 UTC string, or null when it names none. */
export function parseMailDate(value: string | undefined): string | null {
  if (value === undefined) return null;
  const parsed = parseParts(value);
  if (!parsed || !realMoment(parsed.parts, parsed.offset)) return null;
  const [year, month, day, hour, minute, second] = parsed.parts as [number, number, number, number, number, number];
  const at = new Date(0);
  at.setUTCFullYear(year, month - 1, day);
  at.setUTCHours(hour, minute, second, 0);
  return new Date(at.getTime() - (parsed.offset ?? 0) * 1000).toISOString();
}

/** The first Date header of a parsed message's raw header lines (unfolded), or undefined when it has none. */
export function rawDateHeader(headerLines: ReadonlyArray<{ key: string; line: string }>): string | undefined {
  const line = headerLines.find((h) => h.key === 'date')?.line;
  if (line === undefined) return undefined;
  return line
    .slice(line.indexOf(':') + 1)
    .replace(/\r?\n[ \t]/g, ' ')
    .trim();
}
