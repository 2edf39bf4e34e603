/**
 * What a TZID names when the file has no VTIMEZONE for it: an IANA zone ("Europe/Berlin"), a Windows zone id
 * ("W. Europe Standard Time"), a Windows display name ("(GMT+10:00) Canberra, Melbourne, Sydney"), or an IANA name
 * behind a prefix (Mozilla's "/mozilla.org/20070129_1/Europe/Berlin"). Anything else is unknown, and the caller
 * says so rather than reading it in the user's zone without a word.
 */
import { DateTime } from 'luxon';
import { LEGACY_DISPLAY_NAMES, RETIRED_WINDOWS_IDS, WINDOWS_ZONES } from './windowsZonesData.js';

export function isIanaZone(zone: string): boolean {
  return zone.trim() !== '' && DateTime.local().setZone(zone).isValid;
}

/** "(GMT+01:00) Amsterdam, Berlin…" and "(UTC+01:00) amsterdam,berlin…" alike. */
function normalizeDisplayName(name: string): string {
  return name
    .toLowerCase()
    .replace(/\bgmt\b/g, 'utc')
    .replace(/\(utc\s*[+-]?\s*0?0(:?00)?\)/g, '(utc)')
    .replace(/\s*:\s*/g, ':')
    .replace(/\bus and canada\b/g, 'us & canada')
    .replace(/\s*,\s*/g, ', ')
    .replace(/\s+/g, ' ')
    .trim();
}

/** The places of a display name without its offset: "canberra, melbourne, sydney". */
function placesOf(normalized: string): string {
  return normalized.replace(/^\(utc[^)]*\)\s*/, '');
}

const byWindowsId = new Map<string, string>();
const byDisplayName = new Map<string, string>();
const byPlaces = new Map<string, Set<string>>();
for (const [display, id, iana] of WINDOWS_ZONES) {
  byWindowsId.set(id.toLowerCase(), iana);
  byDisplayName.set(normalizeDisplayName(display), iana);
}
for (const [retired, id] of RETIRED_WINDOWS_IDS) {
  const iana = byWindowsId.get(id.toLowerCase());
  if (iana) byWindowsId.set(retired.toLowerCase(), iana);
}
for (const [display, id] of LEGACY_DISPLAY_NAMES) {
  const iana = byWindowsId.get(id.toLowerCase());
  if (iana && !byDisplayName.has(normalizeDisplayName(display))) byDisplayName.set(normalizeDisplayName(display), iana);
}
for (const [display, iana] of byDisplayName) {
  const places = placesOf(display);
  byPlaces.set(places, new Set([...(byPlaces.get(places) ?? []), iana]));
}

/** The IANA zone a TZID without a VTIMEZONE names, or undefined when it names none that Homebody knows. */
export function ianaZoneForTzid(tzid: string): string | undefined {
  const name = tzid.trim().replace(/^"|"$/g, '');
  if (name === '') return undefined;
  // Windows ids first: "UTC-11" is also a fixed offset to luxon, and means the same.
  const windows = byWindowsId.get(name.toLowerCase());
  if (windows) return windows;
  if (isIanaZone(name)) return name;
  const normalized = normalizeDisplayName(name);
  const display = byDisplayName.get(normalized);
  if (display) return display;
  // "/mozilla.org/20070129_1/Europe/Berlin", "/freeassociation.sourceforge.net/Tzfile/Europe/Berlin", "/Europe/Berlin".
  const segments = name.split('/').filter((s) => s !== '');
  for (let take = Math.min(3, segments.length); take >= 2; take -= 1) {
    const candidate = segments.slice(-take).join('/');
    if (isIanaZone(candidate)) return candidate;
  }
  // Only an offset, "(GMT +01:00)": that fixed offset (no daylight saving is named, so none is guessed).
  const offset = /^\((?:gmt|utc)\s*([+-])\s*(\d{1,2})(?::?(\d{2}))?\)$/i.exec(name);
  if (offset) return `UTC${offset[1]}${offset[2]?.padStart(2, '0')}:${offset[3] ?? '00'}`;
  // An older or newer display name whose offset text changed but whose places did not.
  const places = byPlaces.get(placesOf(normalized));
  if (places?.size === 1 && normalized.startsWith('(utc')) return [...places][0];
  return undefined;
}
