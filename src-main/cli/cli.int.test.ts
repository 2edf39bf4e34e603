import { execFile } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, inject, it } from 'vitest';
import { inspectGguf } from '../llm/gguf/ggufInspect.js';
import { openStore } from '../store/store.js';
import type { RunJson } from './runCommand.js';
import { COMPILED_CLI } from '../testing/compiledApp.js';

const exec = promisify(execFile);
const root = resolve(import.meta.dirname, '..', '..');
const model = inject('tinyModelPath');
// One data folder for the runs: the system prompt and tool definitions (about 4,700 tokens) are evaluated by the
// first run and saved in its prefix cache, so each later run loads them instead of evaluating them again.
const dataDir = mkdtempSync(join(tmpdir(), 'hb-cli-'));

/** Runs the real CLI in its own process, compiled as users get it (`npm run homebody` runs the same from sources). */
async function homebody(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await exec(process.execPath, [COMPILED_CLI, ...args], {
      cwd: root,
      env: { ...process.env, HOMEBODY_GPU: 'cpu' },
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const e = error as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

describe('homebody CLI', () => {
  it('run --json answers with the task, its messages and stats, and saves the task in the data folder', async () => {
    const result = await homebody(
      'run',
      '--model',
      model,
      '--data-dir',
      dataDir,
      '--max-tokens',
      '8',
      '--json',
      'Hello',
      'there',
    );
    expect(result.code).toBe(0);
    const out = JSON.parse(result.stdout) as RunJson;
    expect(Object.keys(out)).toEqual(['taskId', 'messages', 'stats', 'state']);
    expect(out.messages[0]).toEqual({ role: 'user', text: 'Hello there' });
    expect(out.messages[1]?.role).toBe('assistant');
    expect(out.messages[1]?.text.length).toBeGreaterThan(0);
    // A random model may end its turn within the cap: the prompt's evaluation is split differently when the tools
    // were evaluated ahead in the background, which can change what it writes.
    expect(['truncated', 'complete']).toContain(out.state);
    expect(out.stats?.completionTokens).toBeGreaterThan(0);
    expect(out.stats?.completionTokens).toBeLessThanOrEqual(8);
    expect(out.stats?.promptTokens).toBeGreaterThan(0);
    expect(out.stats?.ttftMs).toBeGreaterThan(0);
    expect(out.stats?.tokensPerSecond).toBeGreaterThan(0);

    const store = openStore(dataDir);
    expect(store.tasks.get(out.taskId)).toMatchObject({ title: 'Hello there', status: 'completed', messageCount: 2 });
    expect(store.messages.listForTask(out.taskId).map((m) => m.text)).toEqual(out.messages.map((m) => m.text));
    store.close();

    const next = await homebody(
      'run',
      '--model',
      model,
      '--data-dir',
      dataDir,
      '--max-tokens',
      '4',
      '--task',
      out.taskId,
      '--json',
      'More',
    );
    expect((JSON.parse(next.stdout) as RunJson).messages).toHaveLength(4);
  });

  it('run streams plain text and reports specific errors with exit codes', async () => {
    const plain = await homebody('run', '--model', model, '--data-dir', dataDir, '--max-tokens', '6', 'Hi');
    expect(plain.code).toBe(0);
    expect(plain.stdout.trim().length).toBeGreaterThan(0);
    expect(plain.stderr).toMatch(/\[truncated\] 6 tokens, [\d.]+ tokens\/s/);

    const notGguf = join(dataDir, 'notes.gguf');
    writeFileSync(notGguf, 'plain text');
    const bad = await homebody('run', '--model', notGguf, '--data-dir', dataDir, 'Hi');
    expect(bad.code).toBe(1);
    expect(bad.stderr).toMatch(/is not a GGUF model file/);

    const usage = await homebody('run', '--model', model, '--max-tokens', 'lots', 'Hi');
    expect(usage.code).toBe(2);
    expect(usage.stderr).toMatch(/--max-tokens must be a whole number/);

    // Without --model: the model this data folder used last; in a new data folder, a sentence saying what to give.
    const last = await homebody('run', '--data-dir', dataDir, '--max-tokens', '4', 'Hi again');
    expect(last.code).toBe(0);
    expect(last.stderr).toMatch(/\[truncated\] 4 tokens/);
    const fresh = await homebody('run', '--data-dir', mkdtempSync(join(tmpdir(), 'hb-cli-new-')), 'Hi');
    expect(fresh.code).toBe(1);
    expect(fresh.stderr).toMatch(/No model has been used in this data folder yet: give one with --model FILE/);

    // A relative path would be read from the folder the command runs in (npm run's is the package's): refused.
    const relative = await homebody('run', '--model', 'models/tiny.gguf', '--data-dir', dataDir, 'Hi');
    expect(relative.code).toBe(2);
    expect(relative.stderr).toMatch(/--model "models\/tiny.gguf" is a relative path; give a full path/);
    const relativeData = await homebody('history', 'list', '--data-dir', 'data');
    expect(relativeData.code).toBe(2);
    expect(relativeData.stderr).toMatch(/--data-dir "data" is a relative path/);
  });

  it('make-model writes a qwen3 GGUF that the validator accepts', async () => {
    const out = join(mkdtempSync(join(tmpdir(), 'hb-make-')), 'tiny-q4.gguf');
    const result = await homebody('make-model', '--preset', 'tiny', '--quant', 'q4_0', '--seed', '7', '--out', out);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/Random weights: for tests and benchmarks only/);
    const summary = inspectGguf(out);
    expect(summary).toMatchObject({ architecture: 'qwen3', fileBytes: expect.any(Number) });
    expect(summary.metadata.get('general.file_type')).toBe(2);
    expect(summary.metadata.get('homebody.chat_template_name')).toBe('qwen3');
    const wrong = await homebody('make-model', '--preset', 'huge', '--quant', 'q4_0', '--out', out);
    expect(wrong.code).toBe(2);
    expect(wrong.stderr).toMatch(/--preset must be one of tiny, qwen3-0.6b, tiny-qwen35, qwen3.5-0.8b/);
    const noTemplate = await homebody(
      'make-model',
      '--preset',
      'tiny',
      '--quant',
      'q4_0',
      '--template',
      'x',
      '--out',
      out,
    );
    expect(noTemplate.code).toBe(2);
    expect(noTemplate.stderr).toMatch(/--template must be one of qwen3, qwen3.5, qwen3.5-thinking-off, not "x"/);
  });

  it('make-model writes a qwen35 (Qwen3.5 hybrid) GGUF with the tiny-qwen35 preset', async () => {
    const out = join(mkdtempSync(join(tmpdir(), 'hb-make-')), 'tiny-qwen35.gguf');
    const result = await homebody('make-model', '--preset', 'tiny-qwen35', '--quant', 'q8_0', '--out', out);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/qwen35 tiny-qwen35 q8_0, 4 layers/);
    const summary = inspectGguf(out);
    expect(summary.architecture).toBe('qwen35');
    expect(summary.metadata.get('qwen35.full_attention_interval')).toBe(4);
    expect(summary.metadata.get('general.file_type')).toBe(7);
    // The qwen35 presets carry Qwen3.5's template unless another is asked for (compiled code reads the .jinja file).
    expect(result.stdout).toMatch(/qwen3\.5 chat template/);
    expect(summary.metadata.get('homebody.chat_template_name')).toBe('qwen3.5');
    expect(summary.metadata.get('tokenizer.chat_template')).toContain('<parameter=');
  });
});
