import type { Policy, PolicyMode, ToolInfo } from '../../../src-shared/contract/index.js';

/** The mode the Host applies to a tool with no written one (as src-main's DEFAULT_MODE): irreversible queues, others ask. */
export function defaultModeFor(risk: ToolInfo['risk']): PolicyMode {
  return risk === 'irreversible' ? 'queue' : 'ask';
}

/** The mode the select shows for a tool: the written one, else the default for its risk. */
export function policyModeFor(policy: Policy | null, tool: Pick<ToolInfo, 'name' | 'risk'>): PolicyMode {
  return policy?.tools[tool.name] ?? defaultModeFor(tool.risk);
}

export function policyModeLabel(mode: PolicyMode): string {
  switch (mode) {
    case 'auto':
      return 'Run alone';
    case 'ask':
      return 'Ask each time';
    case 'queue':
      return 'Queue for approval';
    case 'off':
      return 'Off';
    default:
      return mode satisfies never;
  }
}
