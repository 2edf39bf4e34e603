import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it, vi } from 'vitest';
import { API_METHODS, HomebodyError, type ApiMethod } from '../../src-shared/contract/index.js';
import type { Handlers, HandlersOf } from '../services/handlers.js';
import { createDispatch, registerHandlers } from './dispatch.js';

/** Handlers for `methods` that answer which method they are, with the request they were given. */
function answering(methods: readonly ApiMethod[]): Partial<Handlers> {
  return Object.fromEntries(methods.map((method) => [method, async (request: unknown) => ({ method, request })]));
}

const half = Math.floor(API_METHODS.length / 2);
const everyMethod = [answering(API_METHODS.slice(0, half)), answering(API_METHODS.slice(half))] as Array<Handlers>;

describe('registering the services’ handlers', () => {
  it('maps every contract method to the one service that answers it', async () => {
    const { invoke } = createDispatch(registerHandlers(everyMethod));
    for (const method of ['app.info', 'tools.call', 'eval.setGate'] as const) {
      await expect(invoke(method, VALID[method])).resolves.toEqual({ method, request: VALID[method] });
    }
  });

  it('is a type error, and refused at start, when a method has no service', () => {
    const appInfoOnly: HandlersOf<'app.info'> = {
      'app.info': async () => ({ name: 'Homebody', version: '0', shell: 'browser', dataDir: '/d', notices: [] }),
    };
    // @ts-expect-error: every method but app.info is missing, which the compiler names.
    expect(() => registerHandlers([appInfoOnly])).toThrow(/No service answers the contract methods .*tools\.call/);
    const withoutOne = answering(API_METHODS.filter((method) => method !== 'history.delete')) as Handlers;
    expect(() => registerHandlers([withoutOne])).toThrow('No service answers the contract methods history.delete.');
  });

  it('refuses at start a method two services would answer, and one the contract lacks', () => {
    expect(() => registerHandlers([...everyMethod, answering(['policy.get'])])).toThrow(
      'Two services answer the contract method policy.get.',
    );
    const stray = { 'tools.propose': async () => null } as unknown as Handlers;
    expect(() => registerHandlers([...everyMethod, stray])).toThrow(/contract lacks: tools\.propose/);
  });
});

describe('the Host’s entry points', () => {
  it('invoke validates the request and throws HomebodyError, naming the field', async () => {
    const { invoke } = createDispatch(registerHandlers(everyMethod));
    const refused = invoke('tools.call', { tool: '', args: {} } as never);
    await expect(refused).rejects.toBeInstanceOf(HomebodyError);
    await expect(refused).rejects.toThrow(/^Invalid tools\.call request: tool: /);
  });

  it('call answers a result value, never throwing, whatever the method or the failure', async () => {
    const failing = {
      ...answering(API_METHODS),
      'chat.stop': async () => {
        throw new HomebodyError('TASK_NOT_FOUND', 'There is no task t.');
      },
      'chat.send': async () => {
        throw new Error('boom');
      },
    } as Handlers;
    const { call } = createDispatch(registerHandlers([failing]));
    expect(await call('no.such', {})).toEqual({
      ok: false,
      error: { code: 'UNKNOWN_METHOD', message: 'Homebody has no method "no.such".' },
    });
    expect(await call('tasks.get', {})).toMatchObject({ ok: false, error: { code: 'INVALID_REQUEST' } });
    expect(await call('chat.stop', { taskId: 't' })).toEqual({
      ok: false,
      error: { code: 'TASK_NOT_FOUND', message: 'There is no task t.' },
    });
    const logged = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    try {
      expect(await call('chat.send', { taskId: null, text: 'hi' })).toEqual({
        ok: false,
        error: { code: 'INTERNAL', message: 'chat.send failed: boom' },
      });
    } finally {
      logged.mockRestore();
    }
  });
});

/** The source files of a src-main folder, tests left out. */
function productionFiles(folder: string): string[] {
  const root = fileURLToPath(new URL(`../${folder}/`, import.meta.url));
  return readdirSync(root, { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.ts') && !file.endsWith('.test.ts'))
    .map((file) => join(root, file));
}

describe('the shells and commands go through the contract', () => {
  it('no CLI command, benchmark, server or desktop shell uses the Host’s internals', () => {
    const files = ['cli', 'bench', 'server', 'ipc', 'app'].flatMap(productionFiles);
    expect(files.length).toBeGreaterThan(20);
    const offenders = files.filter((file) => /HostInternals|hostInternals\.js/.test(readFileSync(file, 'utf8')));
    expect(offenders).toEqual([]);
  });
});

const VALID = {
  'app.info': {},
  'tools.call': { tool: 'read_text', args: { path: '/home/me/notes.txt' }, taskId: null },
  'eval.setGate': { tool: 'read_text', threshold: 0.9 },
} as const;
