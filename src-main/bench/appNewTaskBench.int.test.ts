import { describe, expect, inject, it } from 'vitest';
import { runAppNewTaskBench } from './appNewTaskBench.js';
import { MCP_TOOLS_KEPT, NEW_TASK_PROMPTS } from './newTaskRequests.js';
import { RSS_HEADROOM_BYTES } from './newTaskReport.js';

// The app's half of the new-task benchmark on the tiny qwen35 model, two tasks: its shape and its path (a warm-up
// process, then a restart; every built-in tool, a granted folder, MCP tools), never its times.
const model = inject('tinyQwen35ModelPath');

describe("the new-task benchmark's app half", () => {
  it('times new tasks after a restart through the compiled app, offering every tool the Host lists', async () => {
    const lines: string[] = [];
    const prompts = NEW_TASK_PROMPTS.slice(0, 2);
    const { report, offered } = await runAppNewTaskBench({
      model,
      prompts,
      threads: 1,
      contextSize: 8192,
      // The global setup compiled the app.
      compile: false,
      log: (line) => lines.push(line),
    });

    expect(report.tasks.map((t) => [t.prompt, t.afterRestart])).toEqual([
      [prompts[0], true],
      [prompts[1], false],
    ]);
    for (const task of [...report.tasks, ...report.warmUp.tasks]) {
      expect(task.firstTokenMs, task.prompt).toBeGreaterThan(0);
      expect(task.state, task.prompt).not.toBe('failed');
      expect(task.promptTokens, task.prompt).toBeGreaterThan(0);
      expect(task.evaluatedPromptTokens, task.prompt).toBeGreaterThanOrEqual(0);
      expect(task.evaluatedPromptTokens!, task.prompt).toBeLessThanOrEqual(task.promptTokens!);
    }
    expect(report.warmUp.tasks).toHaveLength(1);
    const times = report.tasks.map((t) => t.firstTokenMs);
    expect(report.maxMs).toBe(Math.max(...times));
    expect(report.p50Ms).toBeGreaterThanOrEqual(Math.min(...times));
    expect(report.p50Ms).toBeLessThanOrEqual(report.maxMs);
    expect(report.firstAfterRestartMs).toBe(times[0]);

    // Every built-in tool (the file tools too: a folder is granted) and the MCP tools left on, none switched off.
    const names = offered.tools.map((t) => t.name);
    expect(report.tools).toBe(names.length);
    expect(report.mcpTools).toBe(MCP_TOOLS_KEPT.length);
    expect(report.builtinTools).toBe(names.length - MCP_TOOLS_KEPT.length);
    expect(names).toEqual(
      expect.arrayContaining(['read_text', 'calendar_events', 'mail_draft', 'mcp_everything_echo']),
    );
    expect(names).not.toContain('mcp_everything_get_env');
    expect(offered.systemPrompt.length).toBeGreaterThan(0);
    for (const tool of offered.tools) expect(tool.parameters, tool.name).toMatchObject({ type: 'object' });

    expect(report.contextSize).toBe(8192);
    expect(report.rssBudgetBytes).toBe(report.fileBytes + RSS_HEADROOM_BYTES);
    // The restarted process loaded the model: its peak is above the file.
    expect(report.peakRssBytes).toBeGreaterThan(report.fileBytes);
    expect(report.warmUp.peakRssBytes).toBeGreaterThan(report.fileBytes);
    expect(lines.some((l) => l.includes('warm-up'))).toBe(true);
  }, 300_000);
});
