import { describe, expect, it } from 'vitest';
import { ToolRegistry } from './registry.js';
import type { ToolDefinition } from './toolTypes.js';

const tool = (name: string): ToolDefinition => ({
  name,
  description: name,
  parameters: { type: 'object', properties: {} },
  risk: 'read',
  describe: () => ({ title: name, summary: name, details: [] }),
  run: async () => ({ result: null }),
});

describe('ToolRegistry', () => {
  it('holds the built-in file tools with normalized schemas', () => {
    const registry = new ToolRegistry();
    // The file tools come first; the other packs follow (each pack's own test lists its tools).
    expect(registry.names().slice(0, 8)).toEqual([
      'list_folder',
      'search_files',
      'read_text',
      'write_text',
      'move',
      'copy',
      'trash',
      'delete_permanently',
    ]);
    expect(registry.get('move')?.parameters).toMatchObject({ type: 'object', additionalProperties: false });
  });

  it('refuses two tools of one name, or names where one begins the other', () => {
    expect(() => new ToolRegistry([tool('a'), tool('a')])).toThrow(/two tools are named a/);
    expect(() => new ToolRegistry([tool('move'), tool('move_to_trash')])).toThrow(/begin alike/);
  });
});
