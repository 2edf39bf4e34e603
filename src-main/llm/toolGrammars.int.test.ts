import { getLlama, LlamaLogLevel } from 'node-llama-cpp';
import { describe, expect, it } from 'vitest';
import { BUILTIN_TOOLS } from '../tools/builtin/index.js';
import { ToolRegistry } from '../tools/registry.js';
import { ToolGrammarCheck } from './toolGrammars.js';

const llama = getLlama({ gpu: false, build: 'never', logLevel: LlamaLogLevel.disabled, maxThreads: 2 });

describe('ToolGrammarCheck', () => {
  it('offers every built-in tool: each one has a schema llama.cpp can build a grammar for', async () => {
    const lines: string[] = [];
    const check = new ToolGrammarCheck(
      () => llama,
      (line) => lines.push(line),
    );
    const tools = new ToolRegistry(BUILTIN_TOOLS).all();
    expect(await check.usable(tools)).toHaveLength(tools.length);
    expect(lines).toEqual([]);
  });

  it('leaves out a tool whose grammar llama.cpp refuses, keeps the others, and says so once', async () => {
    const lines: string[] = [];
    const check = new ToolGrammarCheck(
      () => llama,
      (line) => lines.push(line),
    );
    const ok = { name: 'ok', description: '', parameters: { type: 'object', properties: { a: { type: 'string' } } } };
    // llama.cpp refuses a rule repeated 2,000 times: a string of at most 2,000 characters.
    const bad = {
      name: 'long_text',
      description: '',
      parameters: { type: 'object', properties: { a: { type: 'string', maxLength: 2000 } } },
    };
    expect((await check.usable([ok, bad, ok])).map((t) => t.name)).toEqual(['ok', 'ok']);
    expect(await check.usable([bad])).toEqual([]);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/The tool long_text is not offered: llama\.cpp cannot build a grammar/);
  });
});
