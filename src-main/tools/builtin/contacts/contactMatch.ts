/**
 * How well a contact matches what the user typed: an email, a phone number (any formatting), or a name, where
 * each word may be the start of a name word or one or two letters off ("Bjorn", "Ana Sousa", "souza").
 */
import type { Contact } from './vcards.js';

/** Lower case, accents removed: "Björn" finds "bjorn". */
export function fold(text: string): string {
  return text.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();
}

function words(text: string): string[] {
  return fold(text)
    .split(/[^\p{L}\p{N}]+/u)
    .filter((w) => w !== '');
}

/** Levenshtein distance, stopping early past `limit`. */
export function editDistance(a: string, b: string, limit: number): number {
  if (Math.abs(a.length - b.length) > limit) return limit + 1;
  let previous = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i += 1) {
    const row = [i];
    let best = i;
    for (let j = 1; j <= b.length; j += 1) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      const value = Math.min((previous[j] ?? 0) + 1, (row[j - 1] ?? 0) + 1, (previous[j - 1] ?? 0) + cost);
      row.push(value);
      best = Math.min(best, value);
    }
    if (best > limit) return limit + 1;
    previous = row;
  }
  return previous[b.length] ?? limit + 1;
}

function wordScore(query: string, candidates: string[]): number {
  let best = 0;
  for (const word of candidates) {
    if (word === query) return 1;
    if (word.startsWith(query)) best = Math.max(best, 0.9);
    const allowed = query.length >= 7 ? 2 : query.length >= 4 ? 1 : 0;
    if (allowed > 0 && editDistance(query, word, allowed) <= allowed) best = Math.max(best, 0.7);
    if (allowed > 0 && word.length > query.length && editDistance(query, word.slice(0, query.length), 1) <= 1) {
      best = Math.max(best, 0.6);
    }
  }
  return best;
}

const digitsOf = (text: string): string => text.replace(/\D/g, '');

/** 0 when the contact does not match; higher is better (100 an exact email or name). */
export function matchScore(contact: Contact, query: string): number {
  const q = fold(query.trim());
  if (q === '') return 0;
  if (q.includes('@')) {
    const emails = contact.emails.map(fold);
    if (emails.includes(q)) return 100;
    return emails.some((e) => e.includes(q)) ? 80 : 0;
  }
  if (/^[\d\s+()./-]+$/.test(q) && digitsOf(q).length >= 4) {
    const wanted = digitsOf(q).replace(/^0+/, '');
    return contact.phones.some((p) => digitsOf(p).endsWith(wanted) || digitsOf(p).includes(wanted)) ? 90 : 0;
  }
  if (fold(contact.name) === q) return 100;
  const candidates = [
    ...words(contact.name),
    ...contact.emails.flatMap((e) => words(e.split('@')[0] ?? '')),
    ...words(contact.organization ?? ''),
  ];
  const scores = words(q).map((w) => wordScore(w, candidates));
  if (scores.length === 0 || scores.some((s) => s === 0)) return 0;
  return Math.round((scores.reduce((a, b) => a + b, 0) / scores.length) * 90);
}
