/**
 * How well a contact matches what the user typed: an email, a phone number (any formatting), or a name, where each
 * word may be any of the card's names in any order (given, family, nickname, how it is said), the start of one,
 * spelt as it sounds ("Jon", "Jhon" for John; "Sousa" for Souza) or a letter or two off ("Marten" for Martin).
 * Short words must be nearly right, so a three-letter query does not pull in half the address book.
 */
import type { Contact } from './vcards.js';

/** Letters NFD does not take apart, written as a user without them would type them. */
const SPELT_OUT: Record<string, string> = {
  ß: 'ss',
  æ: 'ae',
  œ: 'oe',
  ø: 'o',
  ł: 'l',
  đ: 'd',
  ð: 'd',
  þ: 'th',
  ı: 'i',
};

/** Lower case, accents removed: "Björn" finds "bjorn", "Łukasz" "lukasz", "Straße" "strasse". */
export function fold(text: string): string {
  return text
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[ßæœøłđðþı]/g, (c) => SPELT_OUT[c] ?? c);
}

function words(text: string): string[] {
  return fold(text)
    .split(/[^\p{L}\p{N}]+/u)
    .filter((w) => w !== '');
}

/**
 * A word as it sounds, roughly: doubled letters once, an h after the first letter silent (ch kept, but chr and chl
 * as kr and kl)
 * ("jhon", "john", "jon" all "jon"), ph as f, c and q as k (ch stays), z as s, y as i, w as v.
 */
export function soundOf(word: string): string {
  return word
    .replace(/ph/g, 'f')
    .replace(/ch(?=[rl])/g, 'k')
    .replace(/ch/g, '#')
    .replace(/(?<=.)h/g, '')
    .replace(/[cq]/g, 'k')
    .replace(/#/g, 'ch')
    .replace(/z/g, 's')
    .replace(/y/g, 'i')
    .replace(/w/g, 'v')
    .replace(/(.)\1+/g, '$1');
}

/** Edit distance where swapping two neighbouring letters is one edit ("jhon" to "john"), stopping past `limit`. */
export function editDistance(a: string, b: string, limit: number): number {
  if (Math.abs(a.length - b.length) > limit) return limit + 1;
  let before: number[] = [];
  let previous = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i += 1) {
    const row = [i];
    let best = i;
    for (let j = 1; j <= b.length; j += 1) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let value = Math.min((previous[j] ?? 0) + 1, (row[j - 1] ?? 0) + 1, (previous[j - 1] ?? 0) + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
        value = Math.min(value, (before[j - 2] ?? 0) + 1);
      }
      row.push(value);
      best = Math.min(best, value);
    }
    if (best > limit) return limit + 1;
    before = previous;
    previous = row;
  }
  return previous[b.length] ?? limit + 1;
}

const sameLetters = (a: string, b: string): boolean => [...a].sort().join('') === [...b].sort().join('');

/** How far a typed word may be from a name word: none for two letters, one for three to six, two from seven. */
function closeEnough(query: string, word: string): number | undefined {
  if (query.length < 3) return undefined;
  const allowed = query.length >= 7 ? 2 : 1;
  const distance = editDistance(query, word, allowed);
  if (distance > allowed) return undefined;
  // Three letters: only a letter left out or added, or two swapped, and the first one right ("jon": john, not ron or jan).
  if (query.length === 3 && (query[0] !== word[0] || (word.length === 3 && !sameLetters(query, word)))) {
    return undefined;
  }
  // Two edits only with the first letter right: "mueller" is Müller, not Keller.
  if (distance === 2 && query[0] !== word[0]) return undefined;
  return distance;
}

function wordScore(query: string, candidates: readonly string[], initials: boolean): number {
  let best = 0;
  const sound = soundOf(query);
  for (const word of candidates) {
    if (word === query) return 1;
    if (query.length >= 3 && soundOf(word) === sound) best = Math.max(best, 0.9);
    if (word.startsWith(query) && (query.length >= 2 || initials))
      best = Math.max(best, query.length >= 2 ? 0.85 : 0.5);
    const distance = closeEnough(query, word);
    if (distance !== undefined) best = Math.max(best, 0.75 - 0.1 * (distance - 1));
    // The start of a longer word, a letter off ("Navratilo" for Navratilova); five letters up, first one right.
    const start = word.slice(0, query.length);
    if (query.length >= 5 && word.length > query.length && word[0] === query[0] && editDistance(query, start, 1) <= 1) {
      best = Math.max(best, 0.6);
    }
  }
  return best;
}

const digitsOf = (text: string): string => text.replace(/\D/g, '');

/** The card's ways of naming the person, as whole names (for an exact match) and as words. */
function namesOf(contact: Contact): { whole: string[]; words: string[] } {
  const n = contact.n;
  const whole = [
    contact.fn ?? '',
    contact.name,
    n ? `${n.given} ${n.family}` : '',
    n ? `${n.family} ${n.given}` : '',
    ...contact.nicknames,
  ]
    .map((s) => fold(s).replace(/\s+/g, ' ').trim())
    .filter((s) => s !== '' && s !== '(no name)');
  const named = [
    contact.fn ?? '',
    contact.name === '(no name)' ? '' : contact.name,
    ...(n ? [n.given, n.family, n.additional] : []),
    ...contact.nicknames,
    ...contact.phonetic,
    ...contact.emails.map((e) => e.value.split('@')[0] ?? ''),
    contact.organization ?? '',
  ];
  return { whole, words: [...new Set(named.flatMap(words))] };
}

/** 0 when the contact does not match; higher is better (100 an exact email or name). */
export function matchScore(contact: Contact, query: string): number {
  const q = fold(query.trim()).replace(/\s+/g, ' ');
  if (q === '') return 0;
  if (q.includes('@')) {
    const emails = contact.emails.map((e) => fold(e.value));
    if (emails.includes(q)) return 100;
    return emails.some((e) => e.includes(q)) ? 80 : 0;
  }
  if (/^[\d\s+()./-]+$/.test(q) && digitsOf(q).length >= 4) {
    const wanted = digitsOf(q).replace(/^0+/, '');
    return contact.phones.some((p) => digitsOf(p.value).endsWith(wanted) || digitsOf(p.value).includes(wanted))
      ? 90
      : 0;
  }
  const names = namesOf(contact);
  if (names.whole.includes(q)) return 100;
  const typed = words(q);
  const scores = typed.map((w) => wordScore(w, names.words, typed.length > 1));
  if (scores.length === 0 || scores.some((s) => s === 0)) return 0;
  return Math.round((scores.reduce((a, b) => a + b, 0) / scores.length) * 90);
}
