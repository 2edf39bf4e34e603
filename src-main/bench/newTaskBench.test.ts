import { describe, expect, it } from 'vitest';
import { formatChildLine, parseChildLine, type TaskLine } from './newTaskProtocol.js';
import {
  RSS_HEADROOM_BYTES,
  firstTokenFigures,
  medianRate,
  rssBudgetBytes,
  sideBySideLines,
  type AppNewTask,
  type LlamaServerRun,
} from './newTaskReport.js';
import { parseVmHwm } from './processMemory.js';

const MB = 1024 * 1024;

describe('the new-task figures', () => {
  it('are the median and the maximum of the first-token times', () => {
    expect(firstTokenFigures([300, 100, 200, 500, 400])).toEqual({ p50Ms: 300, maxMs: 500 });
    expect(firstTokenFigures([120.004, 80])).toEqual({ p50Ms: 100, maxMs: 120 });
    expect(firstTokenFigures([42])).toEqual({ p50Ms: 42, maxMs: 42 });
    expect(() => firstTokenFigures([])).toThrow(RangeError);
  });

  it('take the median rate over the tasks that have one', () => {
    expect(medianRate([30, null, 32, Number.NaN, 0, 31])).toBe(31);
    expect(medianRate([null, 0])).toBeNull();
  });

  it('budget peak memory at the file plus 400 MB', () => {
    expect(RSS_HEADROOM_BYTES).toBe(400 * MB);
    expect(rssBudgetBytes(433 * MB)).toBe(833 * MB);
  });
});

describe('the lines between the benchmark and its app processes', () => {
  const task: TaskLine = {
    kind: 'task',
    prompt: 'What is 15% of 80?',
    taskId: 't1',
    firstTokenMs: 219.5,
    firstEvent: 'reasoning',
    promptTokens: 252,
    evaluatedPromptTokens: 14,
    completionTokens: 8,
    tokensPerSecond: 31.2,
    state: 'truncated',
  };

  it('go through stdout and back unchanged', () => {
    const text = formatChildLine(task);
    expect(text.endsWith('\n')).toBe(true);
    expect(parseChildLine(text)).toEqual(task);
    expect(parseChildLine(formatChildLine({ kind: 'done', peakRssBytes: 1 }))).toEqual({
      kind: 'done',
      peakRssBytes: 1,
    });
  });

  it("are told apart from anything else a process prints, the app's own JSON included", () => {
    for (const other of ['', 'Loading model… 40%', '{"taskId":"t1","messages":[]}', '{not json', '[1,2]', 'null']) {
      expect(parseChildLine(other), other).toBeNull();
    }
    expect(parseChildLine('{"newTaskBench":{"kind":"something else"}}')).toBeNull();
  });
});

describe("a process's peak memory", () => {
  it('is read from VmHWM in /proc/<pid>/status, in bytes', () => {
    const status = 'Name:\tnode\nVmPeak:\t 2000000 kB\nVmHWM:\t  1118432 kB\nVmRSS:\t 1000000 kB\n';
    expect(parseVmHwm(status)).toBe(1_118_432 * 1024);
    expect(parseVmHwm('Name:\tnode\n')).toBeNull();
  });
});

describe('the side-by-side table', () => {
  const app: AppNewTask = {
    model: '/models/bench.gguf',
    fileBytes: 433 * MB,
    contextSize: 8192,
    threads: 2,
    tools: 38,
    builtinTools: 35,
    mcpTools: 3,
    maxTokens: 8,
    loadMs: 3100,
    tasks: [
      {
        prompt: 'What is on my calendar on Thursday?',
        afterRestart: true,
        firstTokenMs: 13_400,
        firstEvent: 'text',
        promptTokens: 1843,
        evaluatedPromptTokens: 1843,
        completionTokens: 8,
        state: 'truncated',
      },
      {
        prompt: 'What is 15% of 80?',
        afterRestart: false,
        firstTokenMs: 1400,
        firstEvent: 'text',
        promptTokens: 252,
        evaluatedPromptTokens: 252,
        completionTokens: 8,
        state: 'truncated',
      },
    ],
    p50Ms: 7400,
    maxMs: 13_400,
    firstAfterRestartMs: 13_400,
    decodeTokensPerSecond: 32.5,
    peakRssBytes: 1115 * MB,
    rssBudgetBytes: 833 * MB,
    warmUp: { tasks: [], peakRssBytes: 1100 * MB },
  };
  const server: LlamaServerRun = {
    binary: '/cache/llama-server',
    model: '/models/bench.gguf',
    contextSize: 8192,
    threads: 2,
    tools: 38,
    maxTokens: 8,
    loadMs: 900,
    tasks: [
      {
        prompt: 'What is on my calendar on Thursday?',
        firstTokenMs: 30_100,
        firstContentMs: 30_120,
        promptTokens: 6357,
        cachedTokens: 0,
        completionTokens: 8,
        decodeTokensPerSecond: 30,
      },
      {
        prompt: 'What is 15% of 80?',
        firstTokenMs: 338,
        firstContentMs: 340,
        promptTokens: 6341,
        cachedTokens: 6325,
        completionTokens: 8,
        decodeTokensPerSecond: 30.4,
      },
    ],
    p50Ms: 15_219,
    maxMs: 30_100,
    firstTaskMs: 30_100,
    decodeTokensPerSecond: 30.2,
    peakRssBytes: 1180 * MB,
  };

  it('sets the two halves side by side, then each task with its tokens', () => {
    const text = sideBySideLines(app, server).join('\n');
    expect(text).toMatch(/first token, p50\s+7,400 ms\s+15,219 ms/);
    expect(text).toMatch(/first token, max\s+13,400 ms\s+30,100 ms/);
    expect(text).toMatch(/peak RSS\s+1,115 MB\s+1,180 MB/);
    expect(text).toMatch(
      /What is on my calendar on Thursday\? \(after a restart\)\s+13,400 ms\s+1,843 \/ 1,843\s+30,100 ms\s+6,357 \/ 0/,
    );
    expect(text).toMatch(/What is 15% of 80\?\s+1,400 ms\s+252 \/ 252\s+338 ms\s+6,341 \/ 6,325/);
    expect(text).toContain('over its budget of 833 MB');
    expect(text).toContain('Tools offered: 38 (35 built-in, 3 MCP)');
  });

  it("says why llama-server did not run, and still shows the app's half", () => {
    const text = sideBySideLines(app, { error: 'llama-server could not be built (cmake could not start)' }).join('\n');
    expect(text).toContain('llama-server did not run: llama-server could not be built (cmake could not start)');
    expect(text).toMatch(/first token, p50\s+7,400 ms\s+-/);
    expect(text).toMatch(/What is 15% of 80\?\s+1,400 ms\s+252 \/ 252\s+-\s+-/);
  });
});
