import { copyFileSync, mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import {
  DELETE_ALL_CONFIRMATION,
  type EvalRun,
  type HostEvent,
  type HostEventOf,
} from '../../src-shared/contract/index.js';
import { createHost, type HostInternals } from './createHost.js';
import { scriptedEngines } from '../testing/scriptedEngine.js';
import { settledReply } from '../testing/settledTask.js';

/**
 * Evaluation through the Host, as the Evaluation page drives it: two generated models on the default suite, with
 * progress and the end as events, the run kept in the store, the report exported; a chat recorded as a case; the
 * gate that lets a tool run without asking while the active model scores well on it.
 */
const work = realpathSync(mkdtempSync(join(tmpdir(), 'hb-eval-host-')));
const tiny = inject('tinyModelPath');
const tinyQwen35 = inject('tinyQwen35ModelPath');
const notes = join(work, 'Notes');
const READ_PROMPT = 'what does plan.txt say?';
// The default suite's first case, answered right by the scripted model (the fixtures hold reports/q3.txt).
const Q3_PROMPT = 'Can you open reports/q3.txt and tell me what the risks section says?';
const scripts = {
  [READ_PROMPT]: [
    { name: 'read_text', params: `{"path": ${JSON.stringify(join(notes, 'plan.txt'))}, "maxBytes": 4096}` },
  ],
  [Q3_PROMPT]: [{ name: 'read_text', params: '{"path": "reports/q3.txt", "maxBytes": null}' }],
};

let host: HostInternals;
const events: HostEvent[] = [];

beforeAll(async () => {
  mkdirSync(notes);
  writeFileSync(join(notes, 'plan.txt'), 'Ship the evaluation page.');
  host = await createHost({
    dataDir: join(work, 'data'),
    shell: 'cli',
    loadModelOnStart: false,
    // One llama.cpp thread: the tiny models' work per token is too small to share, and two test files run at once
    // on two cores, so a second thread mostly waits for the first (several times slower on a busy machine).
    engineConfig: { gpu: false, contextSize: 4096, threads: 1 },
    reply: { maxTokens: 48, temperature: 0 },
    createEngine: scriptedEngines(scripts),
  });
  host.subscribe((event) => events.push(event));
  await host.invoke('policy.grantFolder', { path: notes, untrusted: false });
  expect((await host.invoke('model.open', { path: tiny })).status).toBe('ready');
});
afterAll(async () => {
  await host?.dispose();
  rmSync(work, { recursive: true, force: true });
});

function finished(runId: string): Promise<HostEventOf<'eval.finished'>> {
  return new Promise((resolve) => {
    const seen = events.find((e) => e.type === 'eval.finished' && e.run.id === runId);
    if (seen) return resolve(seen as HostEventOf<'eval.finished'>);
    const stop = host.subscribe((event) => {
      if (event.type !== 'eval.finished' || event.run.id !== runId) return;
      stop();
      resolve(event);
    });
  });
}

describe('evaluation in the app', { timeout: 300_000 }, () => {
  let run: EvalRun;

  it('lists the default suite, with its cases', async () => {
    const { suites } = await host.invoke('eval.suites', {});
    expect(suites[0]).toMatchObject({ id: 'default', format: 'homebody' });
    expect(suites[0]!.cases).toBeGreaterThanOrEqual(80);
  });

  it('runs two models side by side with progress, keeps the run, and refuses a second run meanwhile', async () => {
    const { runId, total } = await host.invoke('eval.start', {
      models: [tiny, tinyQwen35],
      suites: ['default'],
      limit: 2,
    });
    expect(total).toBe(4);
    await expect(host.invoke('eval.start', { models: [tiny], suites: ['default'] })).rejects.toMatchObject({
      code: 'EVAL_BUSY',
    });
    const end = await finished(runId);
    expect(end.run).toMatchObject({ status: 'done', models: [tiny, tinyQwen35], total: 4 });
    const progress = events.filter((e): e is HostEventOf<'eval.progress'> => e.type === 'eval.progress');
    expect(progress.filter((p) => p.phase === 'loading').map((p) => p.model)).toEqual([tiny, tinyQwen35]);
    expect(progress.filter((p) => p.caseId !== null).map((p) => p.done)).toEqual([1, 2, 3, 4]);
    expect(progress.at(-1)).toMatchObject({ done: 4, total: 4, etaMs: 0 });
    run = await host.invoke('eval.run', { runId });
    expect(run.results.map((r) => r.model)).toEqual([tiny, tinyQwen35]);
    for (const result of run.results) {
      expect(result.cases.map((c) => c.id)).toEqual(['files-read-q3', 'files-list-invoices']);
      // The scripted read ran in the sandbox against the fixtures, never the user's folders.
      const q3 = result.cases[0]!;
      expect(q3).toMatchObject({ correct: true, validArgs: true });
      expect(q3.calls[0]).toMatchObject({ name: 'read_text', args: { path: 'reports/q3.txt' }, decision: 'ask' });
      expect(q3.calls[0]!.result).toMatch(/risk/i);
      expect(result.cases[1]).toMatchObject({ correct: false, failure: 'Wrong number of functions.' });
      expect(result.summary).toMatchObject({ cases: 2, correct: 1, toolAccuracy: 0.5, argAccuracy: 0.5 });
      expect(result.perTool.read_text).toEqual({ cases: 1, correct: 1 });
    }
    expect((await host.invoke('eval.runs', {})).runs[0]).toMatchObject({ id: runId, status: 'done' });
  });

  it('exports the run as an HTML page with charts and as JSON', async () => {
    const html = await host.invoke('eval.export', { runId: run.id, format: 'html' });
    expect(html).toMatchObject({ mimeType: 'text/html' });
    expect(html.fileName).toMatch(/^homebody-eval-.*\.html$/);
    expect(html.content).toContain('<svg');
    expect(html.content).toContain('tiny-qwen35-q8_0');
    expect(html.content).not.toMatch(/<script/i);
    const json = await host.invoke('eval.export', { runId: run.id, format: 'json' });
    const report = JSON.parse(json.content) as { models: Array<{ model: string; summary: object; cases: object[] }> };
    expect(report.models.map((m) => m.model)).toEqual([tiny, tinyQwen35]);
    expect(Object.keys(report.models[0]!.summary)).toEqual(
      expect.arrayContaining(['toolAccuracy', 'argValidity', 'argAccuracy', 'noCallAccuracy', 'peakRssMb']),
    );
    await expect(host.invoke('eval.export', { runId: 'nope', format: 'json' })).rejects.toMatchObject({
      code: 'EVAL_RUN_NOT_FOUND',
    });
  });

  it('records a chat from history as a case, which then runs in the recorded suite', async () => {
    const off = host.subscribe((event) => {
      if (event.type === 'toolcall.updated' && event.call.state === 'pending' && event.call.gate === 'prompt') {
        void host.call('toolcalls.answer', { id: event.call.id, answer: 'allow-once', reason: null });
      }
    });
    const sent = await host.invoke('chat.send', { taskId: null, text: READ_PROMPT });
    await settledReply(host, sent.taskId);
    off();
    const recorded = await host.invoke('eval.recordCase', { taskId: sent.taskId });
    expect(recorded).toMatchObject({ category: 'single', calls: 1 });
    const { suites } = await host.invoke('eval.suites', {});
    expect(suites.find((s) => s.id === 'recorded')).toMatchObject({ cases: 1 });
    const { runId } = await host.invoke('eval.start', { models: [tiny], suites: ['recorded'] });
    await finished(runId);
    const result = (await host.invoke('eval.run', { runId })).results[0]!;
    expect(result.cases[0]).toMatchObject({ id: recorded.caseId, prompt: READ_PROMPT, correct: true });
    await expect(host.invoke('eval.recordCase', { taskId: 'gone' })).rejects.toMatchObject({ code: 'TASK_NOT_FOUND' });
  });

  it('lets a gated tool run without asking only while the active model scores at or above the threshold', async () => {
    const propose = () =>
      host.tools.propose({
        taskId: null,
        tool: 'read_text',
        args: { path: join(notes, 'plan.txt') },
        actor: 'model',
        interactive: false,
      });
    await expect(host.invoke('eval.setGate', { tool: 'delete_permanently', threshold: 0.5 })).rejects.toMatchObject({
      code: 'INVALID_REQUEST',
    });
    // The newest run scored read_text 1 of 1: at the threshold the gate opens.
    const { gates } = await host.invoke('eval.setGate', { tool: 'read_text', threshold: 1 });
    expect(gates).toEqual([expect.objectContaining({ tool: 'read_text', score: 1, cases: 1, active: true })]);
    expect(await propose()).toMatchObject({ status: 'done' });
    // Another model is active now (a copy of the same file elsewhere), with no run: the tool asks again.
    const other = join(work, 'other.gguf');
    copyFileSync(tiny, other);
    expect((await host.invoke('model.open', { path: other })).status).toBe('ready');
    expect((await host.invoke('eval.gates', {})).gates[0]).toMatchObject({ active: false, score: null });
    expect(await propose()).toMatchObject({ status: 'needs-permission' });
    await host.invoke('eval.setGate', { tool: 'read_text', threshold: null });
    expect((await host.invoke('eval.gates', {})).gates).toEqual([]);
  });

  it('cancels a run, keeping what finished, and deletes it', async () => {
    const { runId } = await host.invoke('eval.start', { models: [tiny, tinyQwen35], suites: ['default'], limit: 40 });
    const stop = host.subscribe((event) => {
      if (event.type === 'eval.progress' && event.runId === runId && event.done === 1) {
        stop();
        void host.invoke('eval.cancel', { runId });
      }
    });
    expect((await finished(runId)).run.status).toBe('cancelled');
    const cancelled = await host.invoke('eval.run', { runId });
    expect(cancelled.results[0]!.cases.length).toBeLessThan(40);
    expect(await host.invoke('eval.deleteRun', { runId })).toEqual({ deleted: true });
    await expect(host.invoke('eval.run', { runId })).rejects.toMatchObject({ code: 'EVAL_RUN_NOT_FOUND' });
  });

  it('stops a run when all data is deleted, and announces its end without its row', async () => {
    const { runId } = await host.invoke('eval.start', { models: [tiny], suites: ['default'], limit: 40 });
    const ended = finished(runId);
    await new Promise<void>((resolve) => {
      const stop = host.subscribe((event) => {
        if (event.type === 'eval.progress' && event.runId === runId && event.phase === 'running') {
          stop();
          resolve();
        }
      });
    });
    await host.invoke('privacy.deleteAllData', { confirm: DELETE_ALL_CONFIRMATION, includeModels: false });
    expect((await ended).run).toMatchObject({ id: runId, status: 'cancelled' });
    expect((await host.invoke('eval.runs', {})).runs).toEqual([]);
    // The Host goes on: a new run starts and ends.
    const again = await host.invoke('eval.start', { models: [tiny], suites: ['default'], limit: 1 });
    expect((await finished(again.runId)).run.status).toBe('done');
  });
});
