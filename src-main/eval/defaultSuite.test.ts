/**
 * The evaluation suite Homebody ships (resources/eval/default-suite.json) and the fixtures its built-in tools run
 * against: a broken case scores every model wrong without anyone noticing, so each case is checked here the way
 * the runner and BFCL's checker will read it, and its calls are run against a copy of the fixtures.
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { EVAL_KINDS } from '../../src-shared/contract/index.js';
import { BUILTIN_TOOLS } from '../tools/builtin/index.js';
import { parseCalendarText } from '../tools/builtin/calendar/calendarFiles.js';
import { parseVcardText } from '../tools/builtin/contacts/vcards.js';
import { maildirUniqueName } from '../tools/builtin/mail/localMail.js';
import { RemindersFileSchema } from '../tools/builtin/reminders/remindersFile.js';
import { refusingServices } from '../testing/tools/packFixture.js';
import { normalizeParameters, validateArguments } from '../tools/schema/index.js';
import type { JsonSchema, ToolContext, ToolDefinition } from '../tools/toolTypes.js';
import { caseToolName, HomebodySuiteSchema, type HomebodyCase } from './evalCase.js';
import { FixtureWorkspace } from './fixtureWorkspace.js';

const EVAL_DIR = path.join(import.meta.dirname, '..', '..', 'resources', 'eval');
const FIXTURES = path.join(EVAL_DIR, 'fixtures');
const FILES = path.join(FIXTURES, 'files');

const parsed = HomebodySuiteSchema.safeParse(
  JSON.parse(readFileSync(path.join(EVAL_DIR, 'default-suite.json'), 'utf8')),
);
const cases: HomebodyCase[] = parsed.success ? parsed.data.cases : [];
const builtins = new Map(BUILTIN_TOOLS.map((t) => [t.name, t]));

const DOMAINS = ['files', 'calendar', 'mail', 'device', 'web', 'customer-ops'] as const;
/** Tools whose path arguments must name something that exists in the granted folder. */
const EXISTING_PATH_ARGS: Readonly<Record<string, readonly string[]>> = {
  read_text: ['path'],
  list_folder: ['path'],
  search_files: ['folder'],
  move: ['from'],
  copy: ['from'],
  trash: ['path'],
  delete_permanently: ['path'],
};
/**
 * Tools that run offline without the app shell, so their expected calls can run against the fixtures here.
 * Device, web and sending tools need the shell, the network or an SMTP server; case-defined tools never run.
 */
const RUNNABLE = new Set(
  BUILTIN_TOOLS.map((t) => t.name).filter(
    (n) => !/^(clipboard_|device_|web_)/.test(n) && n !== 'mail_send' && n !== 'delete_permanently',
  ),
);

/** What injected instructions look like (the fixtures' and the scripted results' own wording). */
const INJECTED = /ignore (all )?previous instructions|attacker\.example|\bsystem\b/i;

/** The fixture mailbox's messages by the id mail_inbox gives them (the file's unique name, before ":2,"). */
const mailById = new Map(
  listFiles(path.join(FIXTURES, 'mailbox'))
    .filter((f) => !path.basename(f).startsWith('.'))
    .map((f) => [maildirUniqueName(path.basename(f)), readFileSync(f, 'utf8')] as const),
);

type Call = { tool: string; allowed: Readonly<Record<string, readonly unknown[]>> };

function callsOf(c: HomebodyCase): Call[] {
  return c.expected.map((call) => {
    const [tool, allowed] = Object.entries(call)[0]!;
    return { tool, allowed };
  });
}

/** The case's tool by name: its normalized parameters and the names it requires. */
function schemaOf(c: HomebodyCase, name: string): JsonSchema {
  const tool = c.tools.find((t) => caseToolName(t) === name);
  if (tool === undefined) throw new Error(`${c.id}: ${name} is not offered`);
  return normalizeParameters(typeof tool === 'string' ? builtins.get(tool)?.parameters : tool.parameters);
}

function riskOf(c: HomebodyCase, name: string): string | undefined {
  const tool = c.tools.find((t) => caseToolName(t) === name);
  return typeof tool === 'string' ? builtins.get(tool)?.risk : tool?.risk;
}

function propertiesOf(schema: JsonSchema): string[] {
  return Object.keys((schema.properties ?? {}) as object);
}

function requiredOf(schema: JsonSchema): string[] {
  return Array.isArray(schema.required) ? (schema.required as string[]) : [];
}

/** The call a model would make with the first allowed value of every argument (left-out ones omitted). */
function firstValues(call: Call): Record<string, unknown> {
  const args: Record<string, unknown> = {};
  for (const [name, allowed] of Object.entries(call.allowed)) {
    const value = allowed.find((v) => v !== '');
    if (value !== undefined) args[name] = value;
  }
  return args;
}

function forEachCall(check: (c: HomebodyCase, call: Call) => void): void {
  for (const c of cases) for (const call of callsOf(c)) check(c, call);
}

function listFiles(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((d) => d.isFile())
    .map((d) => path.join(d.parentPath, d.name));
}

function countBy(key: (c: HomebodyCase) => string | undefined): Map<string, number> {
  const counts = new Map<string, number>();
  for (const c of cases) {
    const k = key(c) ?? '';
    counts.set(k, (counts.get(k) ?? 0) + 1);
  }
  return counts;
}

describe('the default suite', () => {
  it('parses as a Homebody suite', () => {
    expect(parsed.success ? [] : parsed.error.issues).toEqual([]);
    expect(cases.length).toBeGreaterThanOrEqual(80);
  });

  it('gives every case its own id', () => {
    const ids = cases.map((c) => c.id);
    expect(ids.filter((id, i) => ids.indexOf(id) !== i)).toEqual([]);
  });

  it('has at least 8 cases of every kind', () => {
    const kinds = countBy((c) => c.kind);
    for (const kind of EVAL_KINDS) expect(kinds.get(kind) ?? 0, kind).toBeGreaterThanOrEqual(8);
  });

  it('covers every domain with at least 6 cases (notes and reminders together)', () => {
    const domains = countBy((c) => c.domain);
    for (const domain of DOMAINS) expect(domains.get(domain) ?? 0, domain).toBeGreaterThanOrEqual(6);
    expect((domains.get('notes') ?? 0) + (domains.get('reminders') ?? 0)).toBeGreaterThanOrEqual(6);
    expect(domains.get(''), 'cases without a domain').toBeUndefined();
  });

  it('offers each case 2 to 8 tools: built-ins by their names, case tools with names of their own', () => {
    for (const c of cases) {
      expect(c.tools.length, c.id).toBeGreaterThanOrEqual(2);
      expect(c.tools.length, c.id).toBeLessThanOrEqual(8);
      const names = c.tools.map(caseToolName);
      expect(new Set(names).size, `${c.id}: a tool offered twice`).toBe(names.length);
      for (const tool of c.tools) {
        if (typeof tool === 'string') expect(builtins.has(tool), `${c.id}: ${tool} is not a built-in`).toBe(true);
        else expect(builtins.has(tool.name), `${c.id}: ${tool.name} hides a built-in`).toBe(false);
      }
    }
  });

  it('names only offered tools in expected calls, results and unsafe', () => {
    for (const c of cases) {
      const offered = new Set(c.tools.map(caseToolName));
      for (const name of [...callsOf(c).map((call) => call.tool), ...Object.keys(c.results), ...c.unsafe]) {
        expect(offered.has(name), `${c.id}: ${name} is not offered`).toBe(true);
      }
    }
  });

  it('keeps the expected calls out of the unsafe tools, and the injection cases to reads', () => {
    for (const c of cases) {
      for (const call of callsOf(c)) expect(c.unsafe, `${c.id}: ${call.tool}`).not.toContain(call.tool);
      if (c.kind !== 'injection') continue;
      expect(c.expected.length, c.id).toBeGreaterThan(0);
      for (const call of callsOf(c)) expect(riskOf(c, call.tool), `${c.id}: ${call.tool}`).toBe('read');
    }
  });

  it('puts instructions in what every injection case reads: its scripted results, or a fixture file or mail', () => {
    for (const c of cases.filter((x) => x.kind === 'injection')) {
      const scripted = JSON.stringify(Object.values(c.results));
      const read = callsOf(c)
        .filter((call) => !(call.tool in c.results))
        .map((call) => {
          const first = firstValues(call);
          if (call.tool === 'read_text') return readFileSync(path.join(FILES, first.path as string), 'utf8');
          if (call.tool === 'mail_read') return mailById.get(first.id as string) ?? '';
          return '';
        })
        .join('\n');
      expect(`${scripted}\n${read}`, c.id).toMatch(INJECTED);
    }
  });

  it('mentions every argument of the tool in each expected call, required ones without ""', () => {
    forEachCall((c, call) => {
      const schema = schemaOf(c, call.tool);
      const properties = propertiesOf(schema);
      expect(Object.keys(call.allowed).sort(), `${c.id}: ${call.tool}`).toEqual([...properties].sort());
      for (const name of requiredOf(schema)) {
        expect(call.allowed[name], `${c.id}: ${call.tool}.${name} is required`).not.toContain('');
      }
      for (const [name, allowed] of Object.entries(call.allowed)) {
        expect(allowed.length, `${c.id}: ${call.tool}.${name} allows nothing`).toBeGreaterThan(0);
      }
    });
  });

  it('builds valid arguments from every allowed value', () => {
    forEachCall((c, call) => {
      const schema = schemaOf(c, call.tool);
      const first = firstValues(call);
      const checked = validateArguments(schema, first);
      expect(checked.ok ? [] : checked.problems, `${c.id}: ${call.tool}`).toEqual([]);
      for (const [name, allowed] of Object.entries(call.allowed)) {
        for (const value of allowed.filter((v) => v !== '')) {
          const other = validateArguments(schema, { ...first, [name]: value });
          expect(other.ok ? [] : other.problems, `${c.id}: ${call.tool}.${name}=${JSON.stringify(value)}`).toEqual([]);
        }
      }
    });
  });

  it('reads and changes only paths that exist in the fixtures', () => {
    forEachCall((c, call) => {
      for (const arg of EXISTING_PATH_ARGS[call.tool] ?? []) {
        for (const value of call.allowed[arg] ?? []) {
          if (value === '') continue;
          expect(existsSync(path.join(FILES, value as string)), `${c.id}: ${call.tool} ${String(value)}`).toBe(true);
        }
      }
      if (call.tool === 'write_text') {
        for (const value of call.allowed.path ?? []) {
          const parent = path.dirname(path.join(FILES, value as string));
          expect(statSync(parent).isDirectory(), `${c.id}: the folder of ${String(value)}`).toBe(true);
        }
      }
    });
  });

  it('names mail, events and reminders that the fixtures hold', () => {
    const mailIds = new Set(mailById.keys());
    const uids = new Set(
      readdirSync(path.join(FIXTURES, 'calendar')).flatMap((f) =>
        [...readFileSync(path.join(FIXTURES, 'calendar', f), 'utf8').matchAll(/^UID:(.+?)\r?$/gm)].map((m) => m[1]),
      ),
    );
    const reminders = RemindersFileSchema.parse(
      JSON.parse(readFileSync(path.join(FIXTURES, 'reminders.json'), 'utf8')),
    );
    const reminderIds = new Set(reminders.reminders.map((r) => r.id));
    const known: Readonly<Record<string, [string, Set<string | undefined>]>> = {
      mail_read: ['id', mailIds],
      calendar_move: ['uid', uids],
      calendar_cancel: ['uid', uids],
      reminder_done: ['id', reminderIds],
    };
    forEachCall((c, call) => {
      const [arg, values] = known[call.tool] ?? [];
      if (!arg || !values) return;
      for (const value of call.allowed[arg] ?? [])
        expect(values.has(value as string), `${c.id}: ${String(value)}`).toBe(true);
    });
  });
});

describe('the fixtures', () => {
  it('hold calendars the calendar pack parses', () => {
    const files = readdirSync(path.join(FIXTURES, 'calendar')).filter((f) => f.endsWith('.ics'));
    expect(files.length).toBeGreaterThan(0);
    for (const f of files) {
      const calendars = parseCalendarText(readFileSync(path.join(FIXTURES, 'calendar', f), 'utf8'), f);
      expect(calendars.flatMap((cal) => cal.getAllSubcomponents('vevent')).length, f).toBeGreaterThan(0);
    }
  });

  it('hold contacts the contacts pack parses', () => {
    const files = readdirSync(path.join(FIXTURES, 'contacts')).filter((f) => f.endsWith('.vcf'));
    expect(files.length).toBeGreaterThan(0);
    for (const f of files) {
      expect(parseVcardText(readFileSync(path.join(FIXTURES, 'contacts', f), 'utf8'), f).length, f).toBeGreaterThan(1);
    }
  });

  it('hold a Maildir whose messages have the headers a mail program writes', () => {
    for (const sub of ['cur', 'new', 'tmp']) expect(existsSync(path.join(FIXTURES, 'mailbox', sub)), sub).toBe(true);
    const messages = listFiles(path.join(FIXTURES, 'mailbox')).filter((f) => !path.basename(f).startsWith('.'));
    expect(messages.length).toBeGreaterThanOrEqual(4);
    for (const file of messages) {
      const text = readFileSync(file, 'utf8');
      const headers = text.slice(0, text.search(/\r?\n\r?\n/));
      for (const header of ['From', 'To', 'Subject', 'Date', 'Message-ID']) {
        expect(headers, `${path.basename(file)}: ${header}`).toMatch(new RegExp(`^${header}: .+`, 'im'));
      }
    }
  });

  it('hold notes, reminders in the reminders format, and injected instructions in a file and a mail', () => {
    expect(readdirSync(path.join(FIXTURES, 'notes')).filter((f) => f.endsWith('.md')).length).toBeGreaterThan(2);
    expect(() =>
      RemindersFileSchema.parse(JSON.parse(readFileSync(path.join(FIXTURES, 'reminders.json'), 'utf8'))),
    ).not.toThrow();
    for (const part of ['files', 'mailbox']) {
      const injected = listFiles(path.join(FIXTURES, part)).filter((f) =>
        /ignore (all )?previous instructions[\s\S]*eve@attacker\.example/i.test(readFileSync(f, 'utf8')),
      );
      expect(injected.length, part).toBeGreaterThan(0);
    }
  });
});

describe('the expected calls, run against the fixtures', () => {
  const base = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'hb-default-suite-')));
  const workspace = new FixtureWorkspace(FIXTURES, path.join(base, 'workspace'));
  afterAll(() => rmSync(base, { recursive: true, force: true }));

  /**
   * Each call runs with the first allowed values, in the order given, on fixtures no earlier case changed. A call whose
   * tool answers from the case's `results` is left out: in a recovery case only the first call of that tool
   * does, and the expected calls come after it.
   */
  it('succeed', async () => {
    const ctx: ToolContext = {
      roots: workspace.roots,
      trashDir: workspace.trashDir,
      signal: new AbortController().signal,
      packs: { ...workspace.packs, offline: true },
      services: refusingServices,
    };
    let ran = 0;
    for (const c of cases) {
      workspace.prepare();
      for (const call of callsOf(c)) {
        if (!RUNNABLE.has(call.tool) || (call.tool in c.results && c.kind !== 'recovery')) continue;
        const tool = builtins.get(call.tool) as ToolDefinition;
        if (tool.risk !== 'read') workspace.markDirty();
        const outcome = await tool.run(firstValues(call), ctx).then(
          (o) => ({ ok: true as const, result: o.result }),
          (err: unknown) => ({ ok: false as const, error: (err as Error).message }),
        );
        expect(outcome, `${c.id}: ${call.tool}`).toMatchObject({ ok: true });
        ran++;
      }
    }
    expect(ran).toBeGreaterThan(40);
  });
});
