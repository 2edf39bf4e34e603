import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  CHAT_TEMPLATE_NAMES,
  chatTemplateFile,
  chatTemplateText,
  chatTemplatesDir,
  isChatTemplateName,
  qwen3PackageTemplate,
} from './chatTemplates.js';

describe('the chat templates', () => {
  it('keep qwen3.jinja identical to the template the Qwen3 tokenizer package ships', () => {
    expect(chatTemplateFile('qwen3')).toBe(qwen3PackageTemplate());
    expect(chatTemplateText('qwen3')).toBe(qwen3PackageTemplate());
  });

  it('have a file and a licence note for every name', () => {
    for (const name of CHAT_TEMPLATE_NAMES) {
      expect(chatTemplateText(name)).toBe(chatTemplateFile(name));
      expect(chatTemplateText(name).length).toBeGreaterThan(1000);
    }
    expect(existsSync(join(chatTemplatesDir(), 'LICENSES.md'))).toBe(true);
  });

  it('differ as their sources say: the call format, and the thinking default of the two Qwen3.5 templates', () => {
    expect(chatTemplateFile('qwen3')).toContain('<tool_call>\\n{\\"name\\": <function-name>');
    for (const name of ['qwen3.5', 'qwen3.5-thinking-off'] as const) {
      expect(chatTemplateFile(name)).toContain("'<parameter=' + args_name + '>\\n'");
    }
    expect(chatTemplateFile('qwen3.5')).toContain('enable_thinking is defined and enable_thinking is false');
    expect(chatTemplateFile('qwen3.5-thinking-off')).toContain(
      'enable_thinking is defined and enable_thinking is true',
    );
  });

  it('name only the three templates', () => {
    expect(CHAT_TEMPLATE_NAMES.filter(isChatTemplateName)).toEqual(['qwen3', 'qwen3.5', 'qwen3.5-thinking-off']);
    expect(isChatTemplateName('qwen3.6')).toBe(false);
  });
});
