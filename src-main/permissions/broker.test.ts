import { describe, expect, it } from 'vitest';
import {
  basisSentence,
  type CallPath,
  type DecisionBasis,
  type Gate,
  type Policy,
  type PolicyMode,
  type Risk,
} from '../../src-shared/contract/index.js';
import { decide, type ActionManifest, type ResolvedPaths, type TaskState } from './broker.js';

const docs: CallPath = {
  arg: 'path',
  role: 'existing',
  given: 'a.txt',
  path: '/home/u/Docs/a.txt',
  root: '/home/u/Docs',
  untrusted: false,
};
const inside: ResolvedPaths = { ok: true, paths: [docs] };
const none: ResolvedPaths = { ok: true, paths: [] };
const outside: ResolvedPaths = {
  ok: false,
  outside: true,
  reason: '"/etc/hostname" is outside the folders you granted',
};
const missing: ResolvedPaths = { ok: false, outside: false, reason: '"a.txt" does not exist' };
const mail = [{ source: 'mail from eve@example.com', via: 'mail_read' }];

interface Case {
  readonly name: string;
  readonly risk: Risk;
  readonly mode?: PolicyMode;
  readonly alwaysAsk?: boolean;
  readonly reachesOut?: boolean;
  readonly paths?: ResolvedPaths;
  readonly task?: Partial<TaskState> | null;
  readonly evalGateOpen?: boolean;
  readonly gate: Gate | 'refused';
  readonly basis: DecisionBasis;
}

/** Every rule of the broker, as a row: what the user set, what the task has seen, and where the call goes. */
const CASES: readonly Case[] = [
  // The policy decides reads and writes.
  { name: 'a read asks by default', risk: 'read', gate: 'prompt', basis: { kind: 'policy', mode: 'ask' } },
  { name: 'a write asks by default', risk: 'write', gate: 'prompt', basis: { kind: 'policy', mode: 'ask' } },
  {
    name: 'a read set to auto runs',
    risk: 'read',
    mode: 'auto',
    gate: 'none',
    basis: { kind: 'policy', mode: 'auto' },
  },
  {
    name: 'a write set to auto runs',
    risk: 'write',
    mode: 'auto',
    gate: 'none',
    basis: { kind: 'policy', mode: 'auto' },
  },
  {
    name: 'a write set to queue waits',
    risk: 'write',
    mode: 'queue',
    gate: 'queue',
    basis: { kind: 'policy', mode: 'queue' },
  },
  {
    name: 'a tool switched off is refused',
    risk: 'read',
    mode: 'off',
    gate: 'refused',
    basis: { kind: 'switched-off' },
  },
  {
    name: 'off wins over everything, a task grant included',
    risk: 'read',
    mode: 'off',
    task: { granted: true },
    reachesOut: true,
    gate: 'refused',
    basis: { kind: 'switched-off' },
  },
  // Irreversible calls always queue.
  {
    name: 'an irreversible call queues by default',
    risk: 'irreversible',
    gate: 'queue',
    basis: { kind: 'irreversible' },
  },
  {
    name: 'an irreversible call queues even with a policy of auto',
    risk: 'irreversible',
    mode: 'auto',
    gate: 'queue',
    basis: { kind: 'irreversible' },
  },
  {
    name: 'an irreversible call queues even with a task grant and an open evaluation gate',
    risk: 'irreversible',
    mode: 'ask',
    task: { granted: true },
    evalGateOpen: true,
    gate: 'queue',
    basis: { kind: 'irreversible' },
  },
  // Task grants.
  {
    name: 'a task grant lets a read run',
    risk: 'read',
    task: { granted: true },
    gate: 'none',
    basis: { kind: 'task-grant' },
  },
  {
    name: 'a task grant lets a write run',
    risk: 'write',
    task: { granted: true },
    gate: 'none',
    basis: { kind: 'task-grant' },
  },
  {
    name: 'a task grant does not lift a queue',
    risk: 'write',
    mode: 'queue',
    task: { granted: true },
    gate: 'queue',
    basis: { kind: 'policy', mode: 'queue' },
  },
  // Taint.
  {
    name: 'after untrusted content a write asks despite auto',
    risk: 'write',
    mode: 'auto',
    task: { taint: mail },
    gate: 'prompt',
    basis: { kind: 'untrusted-content' },
  },
  {
    name: 'after untrusted content a write asks despite a task grant',
    risk: 'write',
    task: { granted: true, taint: mail },
    gate: 'prompt',
    basis: { kind: 'untrusted-content' },
  },
  {
    name: 'after untrusted content a write asks despite an open evaluation gate',
    risk: 'write',
    task: { taint: mail },
    evalGateOpen: true,
    gate: 'prompt',
    basis: { kind: 'untrusted-content' },
  },
  {
    name: 'after untrusted content a read still runs on auto',
    risk: 'read',
    mode: 'auto',
    task: { taint: mail },
    gate: 'none',
    basis: { kind: 'policy', mode: 'auto' },
  },
  {
    name: 'after untrusted content a read still runs on its task grant',
    risk: 'read',
    task: { granted: true, taint: mail },
    gate: 'none',
    basis: { kind: 'task-grant' },
  },
  {
    name: 'after untrusted content a call that reaches out asks despite a task grant',
    risk: 'read',
    reachesOut: true,
    task: { granted: true, taint: mail },
    gate: 'prompt',
    basis: { kind: 'reaches-out' },
  },
  {
    name: 'after untrusted content a call that reaches out asks despite the evaluation gate',
    risk: 'read',
    reachesOut: true,
    task: { taint: mail },
    evalGateOpen: true,
    gate: 'prompt',
    basis: { kind: 'reaches-out' },
  },
  {
    name: 'the user’s "always allow" stands for a call that reaches out (the egress rules still decide where)',
    risk: 'read',
    mode: 'auto',
    reachesOut: true,
    task: { taint: mail },
    gate: 'none',
    basis: { kind: 'policy', mode: 'auto' },
  },
  {
    name: 'without untrusted content a call that reaches out runs on its task grant',
    risk: 'read',
    reachesOut: true,
    task: { granted: true },
    gate: 'none',
    basis: { kind: 'task-grant' },
  },
  {
    name: 'after untrusted content an irreversible call still queues, naming the content',
    risk: 'irreversible',
    task: { taint: mail },
    gate: 'queue',
    basis: { kind: 'irreversible' },
  },
  // Tools that always ask.
  {
    name: 'a tool that always asks asks despite a task grant',
    risk: 'write',
    alwaysAsk: true,
    task: { granted: true },
    gate: 'prompt',
    basis: { kind: 'always-asks' },
  },
  {
    name: 'a tool that always asks asks despite a hand-written auto',
    risk: 'write',
    alwaysAsk: true,
    mode: 'auto',
    gate: 'prompt',
    basis: { kind: 'always-asks' },
  },
  {
    name: 'a tool that always asks asks despite the evaluation gate',
    risk: 'read',
    alwaysAsk: true,
    evalGateOpen: true,
    gate: 'prompt',
    basis: { kind: 'always-asks' },
  },
  {
    name: 'a tool that always asks can be queued',
    risk: 'write',
    alwaysAsk: true,
    mode: 'queue',
    gate: 'queue',
    basis: { kind: 'policy', mode: 'queue' },
  },
  // The evaluation gate.
  {
    name: 'an open evaluation gate lets an asking write run',
    risk: 'write',
    evalGateOpen: true,
    gate: 'none',
    basis: { kind: 'eval-gate' },
  },
  {
    name: 'a closed evaluation gate asks',
    risk: 'write',
    evalGateOpen: false,
    gate: 'prompt',
    basis: { kind: 'policy', mode: 'ask' },
  },
  // Paths.
  {
    name: 'a path outside every grant is refused before anyone is asked',
    risk: 'read',
    paths: outside,
    gate: 'refused',
    basis: { kind: 'outside-grants' },
  },
  {
    name: 'a path outside every grant is refused even with auto',
    risk: 'write',
    mode: 'auto',
    paths: outside,
    gate: 'refused',
    basis: { kind: 'outside-grants' },
  },
  {
    name: 'a path outside every grant is refused even for a call that would queue',
    risk: 'irreversible',
    paths: outside,
    gate: 'refused',
    basis: { kind: 'outside-grants' },
  },
  {
    name: 'a missing file is refused before anyone is asked',
    risk: 'read',
    paths: missing,
    gate: 'refused',
    basis: { kind: 'unusable-path' },
  },
  {
    name: 'a path inside a grant goes on to the policy',
    risk: 'read',
    paths: inside,
    gate: 'prompt',
    basis: { kind: 'policy', mode: 'ask' },
  },
  // Outside a task (the command line without --task): no grant, no taint.
  {
    name: 'outside a task a read asks',
    risk: 'read',
    task: null,
    gate: 'prompt',
    basis: { kind: 'policy', mode: 'ask' },
  },
];

function run(c: Case) {
  const manifest: ActionManifest = {
    name: 'tool_x',
    risk: c.risk,
    ...(c.alwaysAsk ? { alwaysAsk: true } : {}),
    ...(c.reachesOut ? { reachesOut: true } : {}),
  };
  const policy: Policy = { version: 1, tools: c.mode ? { tool_x: c.mode } : {}, folders: [] };
  const task = c.task === null ? null : { granted: false, taint: [], ...c.task };
  return decide({
    manifest,
    paths: c.paths ?? none,
    policy,
    task,
    ...(c.evalGateOpen === undefined ? {} : { evalGateOpen: c.evalGateOpen }),
  });
}

describe('the permission broker', () => {
  it.each(CASES.map((c) => [c.name, c] as const))('%s', (_name, c) => {
    const verdict = run(c);
    expect({ gate: verdict.gate, basis: verdict.basis }).toEqual({ gate: c.gate, basis: c.basis });
  });

  it('names every untrusted source the task read, whatever the gate', () => {
    for (const c of CASES.filter((x) => x.task && x.task.taint)) expect(run(c).untrusted).toEqual(mail);
    expect(
      run({ name: 'clean', risk: 'write', gate: 'prompt', basis: { kind: 'policy', mode: 'ask' } }).untrusted,
    ).toEqual([]);
  });

  it('gives the reason of a refusal as a sentence', () => {
    const refused = run({ name: '', risk: 'read', paths: outside, gate: 'refused', basis: { kind: 'outside-grants' } });
    expect(refused.gate === 'refused' && refused.reason).toMatch(/outside the folders you granted/);
    const off = run({ name: '', risk: 'read', mode: 'off', gate: 'refused', basis: { kind: 'switched-off' } });
    expect(off.gate === 'refused' && off.reason).toMatch(/tool_x is switched off/);
  });

  it('covers every combination of risk, mode, grant, taint, reach and gate without throwing, and never runs an irreversible call', () => {
    const risks: Risk[] = ['read', 'write', 'irreversible'];
    const modes: Array<PolicyMode | undefined> = [undefined, 'auto', 'ask', 'queue', 'off'];
    let combinations = 0;
    for (const risk of risks)
      for (const mode of modes)
        for (const granted of [false, true])
          for (const tainted of [false, true])
            for (const reachesOut of [false, true])
              for (const alwaysAsk of [false, true])
                for (const evalGateOpen of [false, true]) {
                  combinations += 1;
                  const verdict = run({
                    name: '',
                    risk,
                    ...(mode ? { mode } : {}),
                    task: { granted, taint: tainted ? mail : [] },
                    reachesOut,
                    alwaysAsk,
                    evalGateOpen,
                    gate: 'none',
                    basis: { kind: 'task-grant' },
                  });
                  if (risk === 'irreversible')
                    expect(verdict.gate === 'queue' || verdict.gate === 'refused').toBe(true);
                  if (tainted && risk === 'write') expect(verdict.gate).not.toBe('none');
                  if (alwaysAsk) expect(verdict.gate).not.toBe('none');
                  expect(basisSentence(verdict.basis)).not.toBe('');
                }
    expect(combinations).toBe(3 * 5 * 2 * 2 * 2 * 2 * 2);
  });
});
