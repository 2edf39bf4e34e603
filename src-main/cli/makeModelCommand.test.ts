import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { UsageError } from './args.js';
import { makeModelCommand } from './makeModelCommand.js';

const dir = mkdtempSync(join(tmpdir(), 'hb-make-model-cli-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('make-model --template', () => {
  it('refuses a template it does not have, naming the ones it has, before writing anything', () => {
    const out = join(dir, 'never.gguf');
    const run = () => makeModelCommand(['--preset', 'tiny', '--quant', 'q4_0', '--out', out, '--template', 'qwen3.6']);
    expect(run).toThrow(UsageError);
    expect(run).toThrow('--template must be one of qwen3, qwen3.5, qwen3.5-thinking-off, not "qwen3.6"');
    expect(existsSync(out)).toBe(false);
  });

  it('refuses --template without a value', () => {
    expect(() => makeModelCommand(['--preset', 'tiny', '--quant', 'q4_0', '--out', 'x.gguf', '--template'])).toThrow(
      UsageError,
    );
  });
});
