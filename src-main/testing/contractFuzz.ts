import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  DELETE_ALL_CONFIRMATION,
  apiSchemas,
  type ApiMethod,
  API_METHODS,
  type ApiRequest,
} from '../../src-shared/contract/index.js';
import { createHost, type HostInternals } from '../host/createHost.js';
import { DATABASE_FILE } from '../store/store.js';
import { snapshotDatabase, type DatabaseSnapshot } from './databaseSnapshot.js';

/**
 * Property-based attacks on the contract: for every method, requests its schema refuses (wrong types, missing and
 * extra keys, huge strings, deep nesting, prototype keys, NaN and friends, mutations of a valid request), and the
 * checks every transport's answer to them must pass. Only refused requests are generated, so even destructive
 * methods (history.deleteAll, privacy.deleteAllData) are fuzzed without risk: nothing may run, nothing may be written.
 */

/** One valid request per method: the starting point of the mutations. Typed, so a new method needs one here. */
export const VALID_REQUESTS: { readonly [M in ApiMethod]: ApiRequest<M> } = {
  'app.info': {},
  'model.state': {},
  'model.open': { path: '/models/tiny.gguf' },
  'model.openLast': {},
  'model.catalog': {},
  'model.chooseFile': {},
  'chat.send': { taskId: null, text: 'hello' },
  'chat.stop': { taskId: 'task-1' },
  'tasks.list': { limit: 10 },
  'tasks.get': { taskId: 'task-1' },
  'tools.list': {},
  'tools.call': { tool: 'read_text', args: { path: '/home/me/notes.txt' }, taskId: null },
  'toolcalls.answer': { id: 'call-1', answer: 'deny', reason: 'not now' },
  'toolcalls.undo': { id: 'call-1' },
  'approvals.list': {},
  'approvals.approve': { ids: ['call-1'] },
  'approvals.deny': { ids: ['call-1'], reason: null },
  'policy.get': {},
  'policy.set': { policy: { version: 1, tools: {}, folders: [] } },
  'policy.setMode': { tool: 'read_file', mode: 'ask' },
  'policy.grantFolder': { path: '/home/me/Documents', untrusted: false },
  'policy.revokeFolder': { path: '/home/me/Documents' },
  'policy.folders': {},
  'audit.list': { limit: 10 },
  'history.list': { statuses: ['idle'], tool: 'read_file', from: 0, to: 1, limit: 10 },
  'history.search': { query: 'hello', limit: 10 },
  'history.tools': {},
  'history.export': { taskIds: ['task-1'], format: 'json' },
  'history.import': { content: '{}' },
  'history.delete': { taskIds: ['task-1'] },
  'history.deleteAll': { confirm: 'delete all history' },
  'history.retention': {},
  'history.setRetention': { days: 30 },
  'device.answer': { id: 'device-1', ok: true, text: 'clipboard' },
  'packs.settings': {},
  'packs.setSettings': { timeZone: 'UTC', searchEndpoint: null },
  'packs.checkCertificate': { account: 'imap' },
  'packs.trustCertificate': { account: 'imap', sha256: null },
  'mcp.list': {},
  'mcp.add': { server: { name: 'files', transport: { kind: 'stdio', command: 'mcp-files', args: ['--ro'] } } },
  'mcp.import': { text: '{"mcpServers":{}}' },
  'mcp.remove': { name: 'files' },
  'mcp.setEnabled': { name: 'files', enabled: false },
  'mcp.restart': { name: 'files' },
  'mcp.confirmCommand': { id: 'confirmation-1', code: '123456' },
  'mcp.setTrustAnnotations': { name: 'files', trust: false },
  'mcp.review': { server: 'files', tool: 'read' },
  'mcp.setRisk': { server: 'files', tool: 'read', risk: null },
  'models.list': {},
  'models.getDownload': { id: 'download-1' },
  'models.download': { catalogId: 'botpsy-q4' },
  'models.pause': { id: 'download-1' },
  'models.resume': { id: 'download-1' },
  'models.cancel': { id: 'download-1' },
  'models.add': { path: '/models/tiny.gguf' },
  'models.verify': { id: 'model-1' },
  'models.remove': { id: 'model-1' },
  'models.activate': { id: 'model-1' },
  'models.setThinking': { id: 'model-1', thinking: 'off' },
  'nodes.list': {},
  'nodes.probe': { url: 'http://192.168.1.20:8080', apiKey: 'key' },
  'nodes.add': { url: 'https://192.168.1.20:8443', fingerprint: `${'AB:'.repeat(31)}AB`, allowOffline: true },
  'nodes.remove': { id: 'node-1' },
  'nodes.setAllowOffline': { id: 'node-1', allow: true },
  'nodes.use': { id: 'node-1' },
  'doctor.report': {},
  'doctor.bench': { catalogId: 'botpsy-q4' },
  'model.settings': {},
  'model.setSettings': { settings: { threads: 2 } },
  'privacy.ledger': { limit: 10, allowedOnly: true },
  'privacy.network': {},
  'privacy.setNetwork': { offline: true },
  'privacy.allow': { feature: 'web', host: 'localhost' },
  'privacy.storage': {},
  'privacy.deleteAllData': { confirm: DELETE_ALL_CONFIRMATION, includeModels: false },
  'eval.suites': {},
  'eval.start': { models: ['/models/tiny.gguf'], suites: ['default'], limit: 3 },
  'eval.cancel': { runId: 'run-1' },
  'eval.runs': {},
  'eval.run': { runId: 'run-1' },
  'eval.deleteRun': { runId: 'run-1' },
  'eval.recordCase': { taskId: 'task-1' },
  'eval.export': { runId: 'run-1', format: 'html' },
  'eval.gates': {},
  'eval.setGate': { tool: 'read_text', threshold: 0.9 },
};

const HUGE_STRING = 'x'.repeat(300_000);
const HUGE_KEY = 'k'.repeat(10_000);

/** A value nested `depth` levels deep; it names itself in fast-check's reports, which would overflow the stack. */
function nested(depth: number, kind: 'array' | 'object'): unknown {
  let value: unknown = 'bottom';
  for (let i = 0; i < depth; i++) value = kind === 'array' ? [value] : { a: value };
  Object.defineProperty(value, fc.toStringMethod, { value: () => `<${kind} nested ${depth} deep>` });
  return value;
}

/** Objects as JSON.parse makes them: `__proto__` and friends as own keys, the shape of a prototype pollution. */
const pollutingObjects: unknown[] = [
  JSON.parse('{"__proto__": {"polluted": "yes"}}'),
  JSON.parse('{"constructor": {"prototype": {"polluted": "yes"}}}'),
  JSON.parse('{"prototype": {"polluted": "yes"}, "__proto__": null}'),
];

/** Values no field of the contract should take as they are. */
const strangeValue: fc.Arbitrary<unknown> = fc.oneof(
  fc.constantFrom<unknown>(
    null,
    undefined,
    Number.NaN,
    Number.POSITIVE_INFINITY,
    Number.NEGATIVE_INFINITY,
    -0,
    -1,
    2 ** 53 + 2,
    Number.MAX_VALUE,
    -Number.MAX_SAFE_INTEGER,
    0.5,
    true,
    false,
    '',
    ' ',
    '\u0000',
    '../../etc/passwd',
    'null',
    '__proto__',
    HUGE_STRING,
    [],
    [null],
    {},
    nested(1000, 'array'),
    nested(1000, 'object'),
    ...pollutingObjects,
  ),
  fc.string({ maxLength: 40 }),
  fc.double(),
  fc.integer(),
  fc.jsonValue({ maxDepth: 3 }),
  fc.array(fc.anything({ maxDepth: 2 }), { maxLength: 4 }),
);

const strangeKey: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom('__proto__', 'constructor', 'prototype', 'toString', 'hasOwnProperty', '', ' ', HUGE_KEY),
  fc.string({ maxLength: 20 }),
);

/** Sets an own property even for `__proto__`, as JSON.parse or a structured clone would deliver it. */
function withKey(base: object, key: string, value: unknown): Record<string, unknown> {
  const copy: Record<string, unknown> = { ...base };
  Object.defineProperty(copy, key, { value, enumerable: true, writable: true, configurable: true });
  return copy;
}

function withoutKey(base: object, key: string): Record<string, unknown> {
  const copy: Record<string, unknown> = { ...base };
  delete copy[key];
  return copy;
}

/** What the Host validates: an absent request (undefined, or JSON's null) counts as `{}`. */
export function isRefusedBySchema(method: ApiMethod, request: unknown): boolean {
  return !apiSchemas[method].request.safeParse(request ?? {}).success;
}

/** Requests the method's schema refuses: the whole request strange, or a valid one mutated in one place. */
export function malformedRequest(method: ApiMethod): fc.Arbitrary<unknown> {
  const example = VALID_REQUESTS[method] as Record<string, unknown>;
  const keys = Object.keys(example);
  const mutations: Array<fc.Arbitrary<unknown>> = [
    strangeValue,
    fc.tuple(strangeKey, strangeValue).map(([key, value]) => withKey(example, key, value)),
    fc.dictionary(strangeKey, strangeValue, { maxKeys: 4 }),
    fc.constant([example]),
    fc.constant(JSON.stringify(example)),
  ];
  if (keys.length > 0) {
    const key = fc.constantFrom(...keys);
    mutations.push(
      fc.tuple(key, strangeValue).map(([k, value]) => withKey(example, k, value)),
      key.map((k) => withoutKey(example, k)),
    );
  }
  return fc.oneof(...mutations).filter((request) => isRefusedBySchema(method, request));
}

/** Method names that are not in the contract, including the ones an object inherits. */
export const unknownMethodName: fc.Arbitrary<string> = fc
  .oneof(
    fc.constantFrom(
      '__proto__',
      'constructor',
      'toString',
      'hasOwnProperty',
      'valueOf',
      '',
      'app.info ',
      'APP.INFO',
      'app.info\u0000',
      'app',
      'privacy.deleteAllData/../app.info',
    ),
    fc.string({ maxLength: 40 }),
  )
  .filter((name) => !Object.hasOwn(apiSchemas, name));

/** The longest error message an invalid request may bring back: enough to name fields, never an echo of a payload. */
export const MAX_ERROR_MESSAGE = 1000;

/**
 * The answer to a refused request: an INVALID_REQUEST result value, short, naming the first field the schema found
 * wrong (or the request as a whole).
 */
export function expectRefused(method: ApiMethod, received: unknown, result: unknown): void {
  const parsed = apiSchemas[method].request.safeParse(received ?? {});
  expect(parsed.success, `${method} accepted a request the fuzzer meant to be invalid`).toBe(false);
  const first = parsed.error?.issues[0];
  const field = first && first.path.length > 0 ? String(first.path[0]) : 'request';
  expect(result).toMatchObject({ ok: false, error: { code: 'INVALID_REQUEST' } });
  const message = (result as { error: { message: unknown } }).error.message;
  expect(typeof message).toBe('string');
  expect(message as string).toMatch(new RegExp(`^Invalid ${method.replace('.', '\\.')} request: `));
  expect(message as string).toContain(field);
  expect((message as string).length).toBeLessThanOrEqual(MAX_ERROR_MESSAGE);
}

export function expectUnknownMethod(result: unknown): void {
  expect(result).toMatchObject({ ok: false, error: { code: 'UNKNOWN_METHOD' } });
  const message = (result as { error: { message: unknown } }).error.message;
  expect(typeof message).toBe('string');
  expect((message as string).length).toBeLessThanOrEqual(MAX_ERROR_MESSAGE);
}

/** Everything a batch of calls could have changed: every row of the database and every path in the data folder. */
export interface DataSnapshot {
  readonly rows: DatabaseSnapshot;
  readonly files: string[];
}

function listFiles(root: string): string[] {
  return readdirSync(root, { recursive: true, withFileTypes: true })
    .map((entry) => `${relative(root, join(entry.parentPath, entry.name))}${entry.isDirectory() ? '/' : ''}`)
    .sort();
}

export function snapshotData(dataDir: string): DataSnapshot {
  return { rows: snapshotDatabase(join(dataDir, DATABASE_FILE)), files: listFiles(dataDir) };
}

/** Fails a property that has not answered in time: a hang is a failure with the seed printed, not a stuck run. */
export function bounded<T>(what: string, promise: Promise<T>, ms = 15_000): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} did not answer within ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/** Object.prototype's own keys, to prove no request added one (a polluted prototype shows in every object). */
export function prototypeKeys(): string[] {
  return Reflect.ownKeys(Object.prototype).map(String).sort();
}

/** Fixed, so a run is repeatable; fast-check prints it (and the shrunk request) when a property fails. */
export const FUZZ_SEED = Number(process.env.HOMEBODY_FUZZ_SEED) || 20_261_130;

/**
 * A Host on a fresh data folder holding a little of everything (a task with a message, a granted folder, a retention
 * period, an MCP server, pack settings), so that a stray write or deletion would show in the snapshot. No model.
 */
export async function seededHost(): Promise<{ host: HostInternals; dataDir: string; dispose: () => Promise<void> }> {
  const dataDir = mkdtempSync(join(tmpdir(), 'hb-fuzz-'));
  // A folder of the user's to grant (Homebody's own data folder can never be granted).
  const documents = mkdtempSync(join(tmpdir(), 'hb-fuzz-docs-'));
  const host = await createHost({
    dataDir,
    shell: 'browser',
    loadModelOnStart: false,
    engineConfig: { gpu: false },
  });
  const now = Date.now();
  host.store.tasks.create({ id: 'task-1', title: 'Seeded task', now });
  host.store.messages.insert({
    id: 'message-1',
    taskId: 'task-1',
    role: 'user',
    text: 'hello',
    state: 'complete',
    now,
  });
  for (const [method, request] of [
    ['policy.grantFolder', { path: documents, untrusted: false }],
    ['history.setRetention', { days: 3650 }],
    ['mcp.add', VALID_REQUESTS['mcp.add']],
    ['packs.setSettings', { timeZone: 'UTC' }],
  ] as const) {
    const result = await host.call(method, request);
    if (!result.ok) throw new Error(`seeding ${method} failed: ${result.error.message}`);
  }
  return {
    host,
    dataDir,
    dispose: async () => {
      await host.dispose();
      rmSync(dataDir, { recursive: true, force: true });
      rmSync(documents, { recursive: true, force: true });
    },
  };
}

/** One transport as the fuzzer drives it: what the Host received (after the wire) and what came back. */
export type FuzzTransport = (method: string, request: unknown) => Promise<{ received: unknown; result: unknown }>;

export interface FuzzSetup {
  readonly transport: () => FuzzTransport;
  /**
   * What the Host will receive for a request, as the transport carries it (JSON turns NaN into null): a request
   * that the wire turns valid is not sent, so that only refused requests ever reach the Host.
   */
  readonly wire: (request: unknown) => unknown;
  readonly dataDir: () => string;
  readonly numRuns: number;
}

/**
 * The fuzz suite for one transport: for every method of the contract, refused requests get INVALID_REQUEST naming
 * the field, and nothing in the data folder changes; unknown method names get UNKNOWN_METHOD; Object.prototype is
 * left alone. A snapshot is first shown to see a real write, so the no-write assertions can fail.
 */
export function describeContractFuzz(name: string, setup: FuzzSetup): void {
  describe(name, () => {
    const prototypeBefore = prototypeKeys();

    it('sees a real write in the snapshot (so the no-write checks below can fail)', async () => {
      const before = snapshotData(setup.dataDir());
      const { result } = await setup.transport()('history.setRetention', { days: 3000 });
      expect(result).toMatchObject({ ok: true });
      expect(snapshotData(setup.dataDir())).not.toEqual(before);
      await setup.transport()('history.setRetention', { days: 3650 });
    });

    it.each(API_METHODS)('%s refuses malformed requests, names the field and writes nothing', async (method) => {
      const before = snapshotData(setup.dataDir());
      await fc.assert(
        fc.asyncProperty(malformedRequest(method), async (request) => {
          fc.pre(isRefusedBySchema(method, setup.wire(request)));
          const { received, result } = await bounded(method, setup.transport()(method, request));
          expectRefused(method, received, result);
        }),
        { seed: FUZZ_SEED, numRuns: setup.numRuns },
      );
      expect(snapshotData(setup.dataDir())).toEqual(before);
    });

    it('answers unknown method names with UNKNOWN_METHOD and writes nothing', async () => {
      const before = snapshotData(setup.dataDir());
      await fc.assert(
        fc.asyncProperty(unknownMethodName, strangeValue, async (method, request) => {
          const { result } = await bounded(method, setup.transport()(method, request));
          expectUnknownMethod(result);
        }),
        { seed: FUZZ_SEED, numRuns: setup.numRuns },
      );
      expect(snapshotData(setup.dataDir())).toEqual(before);
    });

    it('leaves Object.prototype as it was', () => {
      expect(prototypeKeys()).toEqual(prototypeBefore);
      expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    });
  });
}
