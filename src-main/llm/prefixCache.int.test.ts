import { cpSync, existsSync, mkdtempSync, readdirSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { defaultEngineConfig, type EngineConfig } from './engineConfig.js';
import type { EngineTool, GenerateOptions, GenerateResult } from './engineTypes.js';
import { LlamaEngine } from './llamaEngine.js';

// Real inference on the generated tiny model. Assertions are on token counts, never on times.
const model = inject('tinyModelPath');

/** Tools enough that the system prompt + their definitions are a few hundred tokens. */
function tools(names: readonly string[]): EngineTool[] {
  return names.map((name) => ({
    name,
    description: `The ${name.replace(/_/g, ' ')} tool: does what its name says with the user's own files and notes.`,
    parameters: {
      type: 'object',
      properties: {
        path: { type: 'string', maxLength: 40, description: 'A path inside a granted folder' },
        limit: { type: 'integer', description: 'How many results at most' },
      },
      required: ['path'],
      additionalProperties: false,
    },
  }));
}
const TOOLS = tools(['list_folder', 'read_text', 'search_files', 'write_text', 'move_file', 'copy_file']);

const engines: LlamaEngine[] = [];
async function start(
  dir: string,
  overrides: Partial<EngineConfig> = {},
): Promise<{ engine: LlamaEngine; logs: string[] }> {
  const logs: string[] = [];
  const engine = new LlamaEngine({
    ...defaultEngineConfig(),
    gpu: false,
    contextSize: 2048,
    // One llama.cpp thread: the tiny model's work per token is too small to share, and two test files run at once
    // on two cores, so a second thread mostly waits for the first (several times slower on a busy machine).
    threads: 1,
    prefixCacheDir: dir,
    log: (line) => logs.push(line),
    ...overrides,
  });
  engines.push(engine);
  expect((await engine.load(model)).status).toBe('ready');
  return { engine, logs };
}
afterAll(async () => {
  for (const engine of engines) await engine.dispose();
});

function ask(engine: LlamaEngine, prompt: string, offered: readonly EngineTool[] = TOOLS): Promise<GenerateResult> {
  const options: GenerateOptions = {
    history: [],
    prompt,
    maxTokens: 4,
    temperature: 0,
    signal: new AbortController().signal,
    onText: () => {},
    onReasoning: () => {},
    tools: offered,
    onToolCall: async () => 'ok',
  };
  return engine.generate(options);
}

const stateFiles = (dir: string) => readdirSync(dir).filter((name) => name.endsWith('.bin'));

const QUESTION = 'Which files are in Reports?';
/**
 * The first start on an empty cache folder, and the question asked cold there: the first test's subject, and the
 * saved state every other test starts from (a copy of `seeded`, so each gets its own folder without paying for
 * another engine and another cold prefix).
 */
let first: { engine: LlamaEngine; dir: string; cold: GenerateResult; seeded: string };
beforeAll(async () => {
  const dir = mkdtempSync(join(tmpdir(), 'hb-prefix-'));
  const { engine } = await start(dir);
  const cold = await ask(engine, QUESTION);
  const seeded = mkdtempSync(join(tmpdir(), 'hb-prefix-seeded-'));
  cpSync(dir, seeded, { recursive: true });
  first = { engine, dir, cold, seeded };
}, 600_000);

/** A new cache folder holding the state the first start saved, as a restart finds it. */
function savedFolder(): string {
  const dir = mkdtempSync(join(tmpdir(), 'hb-prefix-'));
  cpSync(first.seeded, dir, { recursive: true });
  expect(stateFiles(dir)).toHaveLength(1);
  return dir;
}

// Generous: several engines start per test, and the machine may be busy.
describe('the system prompt + tools prefix', { timeout: 600_000 }, () => {
  it('is evaluated once: a new task evaluates only its own tokens', async () => {
    const { engine, dir, cold } = first;
    expect(cold.stats.promptTokens).toBeGreaterThan(300);
    // The whole prompt was evaluated the first time.
    expect(cold.evaluatedPromptTokens).toBeGreaterThanOrEqual(cold.stats.promptTokens - 1);
    expect(stateFiles(dir)).toHaveLength(1);

    const second = await ask(engine, 'Please read the budget notes from last week');
    expect(second.stats.promptTokens).toBeGreaterThan(300);
    expect(second.evaluatedPromptTokens).toBeLessThan(30);
    expect(stateFiles(dir)).toHaveLength(1);
  });

  it('is loaded from its saved state after a restart', async () => {
    const dir = savedFolder();
    const { cold } = first;

    const { engine: after, logs } = await start(dir);
    const warm = await ask(after, QUESTION);
    expect(warm.stats.promptTokens).toBe(cold.stats.promptTokens);
    expect(warm.evaluatedPromptTokens).toBeLessThan(30);
    expect(warm.text).toBe(cold.text);
    expect(logs).toEqual([]);
  });

  it('is evaluated again when the tools or the system prompt change', async () => {
    const dir = savedFolder();

    // Other tools: the saved state is not used, the new prefix is evaluated and saved beside it.
    const { engine: otherTools } = await start(dir);
    const changed = await ask(otherTools, QUESTION, tools(['list_calendar', 'add_event', 'send_mail']));
    expect(changed.evaluatedPromptTokens).toBeGreaterThan(changed.stats.promptTokens - 100);
    expect(stateFiles(dir)).toHaveLength(2);
    await otherTools.dispose();

    // Another system prompt: the same.
    const { engine: otherPrompt } = await start(dir, {
      systemPrompt: 'You are a terse assistant. Answer in one line.',
    });
    const reworded = await ask(otherPrompt, QUESTION);
    // The model's latest prefix is loaded with it; of that, only the system turn's opening matches the new prompt.
    expect(reworded.evaluatedPromptTokens).toBeGreaterThan(reworded.stats.promptTokens - 10);
    expect(stateFiles(dir)).toHaveLength(3);
  });

  it('ignores and deletes a damaged state file, and evaluates the prefix again', async () => {
    const dir = savedFolder();
    const { cold } = first;
    const [name] = stateFiles(dir);
    const state = join(dir, name!);

    // Cut short, as by a full disk or a crash in another writer.
    truncateSync(state, 1000);
    const { engine: afterTruncation, logs } = await start(dir);
    const again = await ask(afterTruncation, QUESTION);
    expect(again.evaluatedPromptTokens).toBeGreaterThanOrEqual(cold.stats.promptTokens - 1);
    expect(again.text).toBe(cold.text);
    expect(logs.join('\n')).toMatch(/ignoring .*\.bin/);
    // Saved again, whole.
    expect(existsSync(state)).toBe(true);
    await afterTruncation.dispose();

    // Garbage of the right length: llama.cpp's own checks, or the token check, refuse it.
    const manifest = state.replace(/\.bin$/, '.json');
    const { bytes } = JSON.parse((await import('node:fs')).readFileSync(manifest, 'utf8')) as { bytes: number };
    writeFileSync(state, Buffer.alloc(bytes, 7));
    const { engine: afterGarbage, logs: garbageLogs } = await start(dir);
    const third = await ask(afterGarbage, QUESTION);
    expect(third.evaluatedPromptTokens).toBeGreaterThanOrEqual(cold.stats.promptTokens - 1);
    expect(third.text).toBe(cold.text);
    expect(garbageLogs.join('\n')).toMatch(/ignoring/);

    // An unreadable manifest.
    await afterGarbage.dispose();
    writeFileSync(manifest, '{not json');
    const { engine: afterManifest, logs: manifestLogs } = await start(dir);
    const fourth = await ask(afterManifest, QUESTION);
    expect(fourth.text).toBe(cold.text);
    expect(manifestLogs.join('\n')).toMatch(/unreadable/);
  });
});
