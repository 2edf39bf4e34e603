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

  it('takes tools that come and go by source, refusing a name that clashes with another source', () => {
    const registry = new ToolRegistry([tool('move')]);
    registry.setSource('mcp:a', [tool('mcp_a_echo')], new Map([['mcp_a_held', 'mcp_a_held changed']]));
    expect(registry.names()).toEqual(['move', 'mcp_a_echo']);
    expect(registry.unavailableReason('mcp_a_held')).toBe('mcp_a_held changed');
    expect(registry.unavailableReason('move')).toBeUndefined();
    expect(() => registry.setSource('mcp:b', [tool('mcp_a_echo_twice')])).toThrow(
      /mcp_a_echo and mcp_a_echo_twice begin alike/,
    );
    expect(registry.clashElsewhere('mov', 'mcp:b')).toBe('move');
    // A refused source changes nothing; an emptied one is gone.
    expect(registry.names()).toEqual(['move', 'mcp_a_echo']);
    registry.setSource('mcp:a', []);
    expect(registry.names()).toEqual(['move']);
    expect(registry.unavailableReason('mcp_a_held')).toBeUndefined();
  });
});
