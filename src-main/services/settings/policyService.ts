import {
  HomebodyError,
  PolicySchema,
  type GrantedFolder,
  type Policy,
  type PolicyMode,
} from '../../../src-shared/contract/index.js';
import {
  bindIdentities,
  checkMode,
  emptyPolicy,
  grantFolder,
  parsePolicy,
  revokeFolder,
} from '../../permissions/policy.js';
import { describeChanges, policyChanges } from '../../permissions/policyChanges.js';
import type { Store } from '../../store/store.js';
import type { ToolRegistry } from '../../tools/registry.js';

const POLICY_KEY = 'policy';

export interface PolicyServiceDeps {
  readonly store: Store;
  readonly registry: ToolRegistry;
  /** Homebody's data folder, which can never be granted. */
  readonly dataDir: string;
  readonly now?: () => number;
}

/** Who changed the policy, as the audit log records it. */
export type PolicyActor = 'user' | 'cli';

/**
 * The user's policy: read once at start, changed only through here, and every change audited with what changed
 * (a folder granted or removed, a tool's mode from and to). Grants are checked as grants: a broad folder needs the
 * user's explicit confirmation, the data folder is refused, and each folder is bound to its identity.
 */
export function createPolicyService(deps: PolicyServiceDeps) {
  const now = deps.now ?? Date.now;
  const { store, registry } = deps;
  // The stored policy is read leniently (a granted folder may be gone for now); imports are checked in full.
  const stored = PolicySchema.safeParse(store.settings.get(POLICY_KEY));
  let policy: Policy = stored.success ? stored.data : emptyPolicy();
  // Grants recorded before identities were kept are bound, once, to the folders now at their paths.
  const bound = bindIdentities(policy);
  if (bound !== policy) {
    policy = bound;
    store.settings.set(POLICY_KEY, policy);
  }
  const riskOf = (tool: string) => registry.get(tool)?.risk;
  const alwaysAsks = (tool: string) => registry.get(tool)?.alwaysAsk === true;

  /** Saves `next` and audits the difference; nothing is audited for a save that changes nothing. */
  function save(next: Policy, by: PolicyActor, taskId: string | null = null, callId: string | null = null): Policy {
    const changes = policyChanges(policy, next);
    store.settings.set(POLICY_KEY, next);
    policy = next;
    if (changes.length > 0) {
      store.audit.append({
        at: now(),
        taskId,
        callId,
        kind: 'policy-changed',
        actor: by,
        summary: describeChanges(changes),
        detail: { changes },
      });
    }
    return next;
  }

  return {
    current: (): Policy => policy,
    /** Saves a policy built from the current one (ToolActions' "always allow" audits its own change). */
    saveQuietly(next: Policy): void {
      store.settings.set(POLICY_KEY, next);
      policy = next;
    },
    setMode(tool: string, mode: PolicyMode, by: PolicyActor): Policy {
      const risk = riskOf(tool);
      if (!risk) throw new HomebodyError('INVALID_REQUEST', `There is no tool named ${tool}.`);
      checkMode(tool, risk, mode, alwaysAsks(tool));
      return save({ ...policy, tools: { ...policy.tools, [tool]: mode } }, by);
    },
    grant(folder: Pick<GrantedFolder, 'path' | 'untrusted'>, by: PolicyActor, confirmBroad = false): Policy {
      return save(grantFolder(policy, folder, { confirmBroad, dataDir: deps.dataDir }), by);
    },
    revoke(path: string, by: PolicyActor): Policy {
      return save(revokeFolder(policy, path), by);
    },
    /** An import: every tool mode and folder checked as if set one by one (broad folders need the confirmation). */
    replace(raw: unknown, by: PolicyActor, confirmBroad = false): Policy {
      return save(parsePolicy(raw, riskOf, alwaysAsks, { confirmBroad, dataDir: deps.dataDir }), by);
    },
    /** After "Delete all my data": back to a new install's policy (the settings row is already gone). */
    reset(): void {
      policy = emptyPolicy();
    },
  };
}

export type PolicyService = ReturnType<typeof createPolicyService>;
