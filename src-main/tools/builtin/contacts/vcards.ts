/**
 * The contacts folder: every .vcf file in it (vCard 3.0 from Google and Apple exports, vCard 4.0; one card or
 * many per file), parsed with ical.js. A file that does not parse is reported by name and left untouched.
 */
import { readdir, readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import ICAL from 'ical.js';
import { fsError } from '../../sandbox/pathGuard.js';
import { ToolError } from '../../toolTypes.js';

type Component = InstanceType<typeof ICAL.Component>;

export const MAX_VCF_BYTES = 20 * 1024 * 1024;
export const MAX_VCF_FILES = 5000;

export interface FileProblem {
  readonly file: string;
  readonly problem: string;
}

export interface Contact {
  readonly name: string;
  readonly emails: string[];
  readonly phones: string[];
  readonly organization?: string;
  readonly title?: string;
  readonly file: string;
}

function firstText(card: Component, name: string): string | undefined {
  const value: unknown = card.getFirstPropertyValue(name);
  const parts = Array.isArray(value) ? value.flat() : [value];
  const shown = parts
    .filter((p): p is string => typeof p === 'string')
    .map((p) => p.trim())
    .filter((p) => p !== '')
    .join(', ');
  return shown === '' ? undefined : shown;
}

/** N is family;given;additional;prefix;suffix: shown as "given family" when FN is missing. */
function nameFromN(card: Component): string | undefined {
  const n: unknown = card.getFirstPropertyValue('n');
  if (!Array.isArray(n)) return undefined;
  const [family, given] = n.map((part) => (Array.isArray(part) ? part.join(' ') : String(part ?? '')));
  const shown = [given, family].filter((p) => p !== undefined && p.trim() !== '').join(' ');
  return shown === '' ? undefined : shown;
}

function values(card: Component, name: string): string[] {
  return card
    .getAllProperties(name)
    .map((p) => String(p.getFirstValue() ?? '').trim())
    .map((v) => v.replace(/^(mailto|tel):/i, ''))
    .filter((v) => v !== '');
}

export function contactFromCard(card: Component, file: string): Contact {
  const organization = firstText(card, 'org');
  const title = firstText(card, 'title');
  return {
    name: firstText(card, 'fn') ?? nameFromN(card) ?? organization ?? '(no name)',
    emails: values(card, 'email'),
    phones: values(card, 'tel'),
    ...(organization ? { organization } : {}),
    ...(title ? { title } : {}),
    file,
  };
}

export function parseVcardText(text: string, name: string): Component[] {
  let parsed: unknown;
  try {
    parsed = ICAL.parse(text);
  } catch (err) {
    throw new ToolError('INVALID_INPUT', `${name} is not a valid vCard file: ${(err as Error).message}.`);
  }
  const roots = (Array.isArray(parsed) && typeof parsed[0] === 'string' ? [parsed] : parsed) as unknown[];
  const cards = roots.map((jcard) => new ICAL.Component(jcard as never));
  if (cards.length === 0 || cards.some((c) => c.name !== 'vcard')) {
    throw new ToolError('INVALID_INPUT', `${name} is not a vCard file (no VCARD).`);
  }
  return cards;
}

export async function readContactsFolder(
  dir: string,
  signal: AbortSignal,
): Promise<{ contacts: Contact[]; problems: FileProblem[] }> {
  let names: string[];
  try {
    names = (await readdir(dir, { withFileTypes: true }))
      .filter((d) => d.isFile() && !d.name.startsWith('.') && /\.(vcf|vcard)$/i.test(d.name))
      .map((d) => d.name)
      .sort();
  } catch (err) {
    throw fsError(err, dir);
  }
  const contacts: Contact[] = [];
  const problems: FileProblem[] = [];
  if (names.length > MAX_VCF_FILES) {
    problems.push({ file: dir, problem: `Only the first ${MAX_VCF_FILES} of ${names.length} .vcf files were read.` });
  }
  for (const name of names.slice(0, MAX_VCF_FILES)) {
    signal.throwIfAborted();
    const file = path.join(dir, name);
    try {
      const info = await stat(file).catch((err: unknown) => {
        throw fsError(err, file);
      });
      if (info.size > MAX_VCF_BYTES) {
        throw new ToolError('TOO_LARGE', `${name} is larger than ${MAX_VCF_BYTES / (1024 * 1024)} MB; it was skipped.`);
      }
      const text = await readFile(file, 'utf8').catch((err: unknown) => {
        throw fsError(err, file);
      });
      for (const card of parseVcardText(text, name)) contacts.push(contactFromCard(card, name));
    } catch (err) {
      if (!(err instanceof ToolError)) throw err;
      problems.push({ file: name, problem: err.message });
    }
  }
  return { contacts, problems };
}
