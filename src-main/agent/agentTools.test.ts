import { describe, expect, it } from 'vitest';
import { BUILTIN_TOOLS } from '../tools/builtin/index.js';
import type { GrantedRoot } from '../tools/toolTypes.js';
import { agentToolsFrom } from './agentTools.js';
import type { ToolActions } from './toolActions.js';

function actionsWith(roots: GrantedRoot[]): ToolActions {
  // Only what agentToolsFrom reads of ToolActions.
  return { roots: () => roots, offeredTools: () => [...BUILTIN_TOOLS] } as unknown as ToolActions;
}

describe('agentToolsFrom', () => {
  it('offers the packs to a new user with no granted folder, and the file tools once a folder is granted', () => {
    const before = agentToolsFrom(actionsWith([]))
      .offered()
      .map((t) => t.name);
    expect(before).toContain('calendar_events');
    expect(before).toContain('contact_find');
    expect(before).not.toContain('list_folder');
    expect(before).not.toContain('write_text');

    const after = agentToolsFrom(actionsWith([{ path: '/home/u/Reports', untrusted: false }])).offered();
    expect(after.map((t) => t.name)).toEqual(BUILTIN_TOOLS.map((t) => t.name));
  });
});
