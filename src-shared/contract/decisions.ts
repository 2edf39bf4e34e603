import { z } from 'zod';

/**
 * What the permission broker decides with, and records: the files a call touches (resolved the way the tool
 * will resolve them), the basis of each decision as data, and the one table of the states a call moves through.
 */

/**
 * How a tool uses a path argument; the broker resolves each one before anyone is asked, exactly as the tool will.
 * existing: a file or folder that must exist (links followed); entry: the entry itself (a link is moved or deleted
 * as a link); create: a new file (its folder must exist); destination: a new path, or an existing folder that
 * receives the entry under its own name; target: a path or a web address (device_open).
 */
export const PathRoleSchema = z.enum(['existing', 'entry', 'create', 'destination', 'target']);
export type PathRole = z.infer<typeof PathRoleSchema>;

/** One path argument of a call as the user is shown it: absolute, and the granted folder it lies in. */
export const CallPathSchema = z.object({
  /** The argument's name (`path`, `from`, `to`). */
  arg: z.string(),
  role: PathRoleSchema,
  /** What the model wrote. */
  given: z.string(),
  /** The absolute path the tool will touch (its folder's links resolved). */
  path: z.string(),
  /** The granted folder it lies in; null for a path in a pack's own folder, or a web address. */
  root: z.string().nullable(),
  /** The granted folder is marked untrusted (content there was written by others). */
  untrusted: z.boolean(),
});
export type CallPath = z.infer<typeof CallPathSchema>;

/**
 * Why a call ran, waited or was refused, as data: "who allowed this deletion, and why" is a query on these.
 * policy: the tool's mode in the user's policy (auto: ran without asking; ask: asked; queue: queued);
 * task-grant: an earlier "Allow for this task" (or an allowed read) in the same task; eval-gate: the user's
 * evaluation gate for the active model; irreversible: it cannot be undone, so it always waits in the queue;
 * always-asks: the tool asks each time; untrusted-content: the task read content others wrote, so a change asks;
 * reaches-out: after such content, a call that sends data off the device asks; user / cli: a person decided
 * (answer: allow-once, allow-task, always, approve or deny); switched-off: the policy never offers the tool;
 * outside-grants: a path lies outside every granted folder; unusable-path: a path that cannot be used as
 * asked (missing, a granted folder itself, a link to write through, inside Homebody's own data); system: Homebody itself (a stop, a crash, no one to ask).
 */
export const DecisionBasisSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('policy'), mode: z.enum(['auto', 'ask', 'queue']) }),
  z.object({ kind: z.literal('task-grant') }),
  z.object({ kind: z.literal('eval-gate') }),
  z.object({ kind: z.literal('irreversible') }),
  z.object({ kind: z.literal('always-asks') }),
  z.object({ kind: z.literal('untrusted-content') }),
  z.object({ kind: z.literal('reaches-out') }),
  z.object({
    kind: z.literal('user'),
    answer: z.enum(['allow-once', 'allow-task', 'always', 'approve', 'deny']),
    edited: z.boolean().optional(),
  }),
  z.object({ kind: z.literal('cli'), answer: z.enum(['approve', 'deny']) }),
  z.object({ kind: z.literal('switched-off') }),
  z.object({ kind: z.literal('outside-grants') }),
  z.object({ kind: z.literal('unusable-path') }),
  z.object({ kind: z.literal('system'), why: z.enum(['stopped', 'crash', 'no-one-to-ask', 'changed', 'superseded']) }),
]);
export type DecisionBasis = z.infer<typeof DecisionBasisSchema>;
export type DecisionBasisKind = DecisionBasis['kind'];
export const DecisionBasisKindSchema = z.enum(
  DecisionBasisSchema.options.map((o) => o.shape.kind.value) as [DecisionBasisKind, ...DecisionBasisKind[]],
);

/** An untrusted source as the broker names it, and the call that read it. */
export const TaintSourceSchema = z.object({ source: z.string(), via: z.string().nullable() });
export type TaintSource = z.infer<typeof TaintSourceSchema>;

/**
 * A place in a tool's result, written as dotted fields with `[]` for each element of an array:
 * `path`, `events[].description`, `notes[].file`.
 */
export type ResultField = string;

/**
 * Which of a tool's outputs were written by someone other than the user (declared taint). The broker reads this,
 * never the handler: once a task has such output, its next change asks. `always`: everything it returns (a mail,
 * a web page); `fields`: only when one of these is present and not empty (a calendar event's description).
 * `what` names it in prompts, followed by the value of `from` when given ("mail from eve@example.com").
 */
export interface UntrustedOutputDeclaration {
  readonly what: string;
  readonly always?: true;
  readonly fields?: readonly ResultField[];
  readonly from?: ResultField;
}

/**
 * A key that names something a tool reads or writes across tasks: `file:` + absolute path, or a pack's item
 * (`note:` + file name, `event:` + uid, `reminder:` + id, `contact:` + uid, `draft:` + id).
 */
export interface ProvenanceKey {
  readonly field: ResultField;
  readonly prefix: 'file:' | 'note:' | 'event:' | 'reminder:' | 'contact:' | 'draft:';
}

/**
 * What a call read and wrote, so labels follow content: what a tainted task writes keeps the task's untrusted
 * sources; a copy or move keeps the labels of what it came from; reading something labelled taints the reader.
 */
export interface ProvenanceDeclaration {
  readonly reads?: readonly ProvenanceKey[];
  readonly writes?: ReadonlyArray<{
    readonly key: ProvenanceKey;
    readonly from?: ProvenanceKey;
    readonly moved?: true;
  }>;
}

/** The basis in words, for the audit log and the pages that show it ("Allowed by the task grant"). */
export function basisSentence(basis: DecisionBasis): string {
  switch (basis.kind) {
    case 'policy':
      return basis.mode === 'auto'
        ? 'the policy (runs without asking)'
        : basis.mode === 'queue'
          ? 'the policy (waits in the approval queue)'
          : 'the policy (asks first)';
    case 'task-grant':
      return 'the task grant (allowed earlier in this task)';
    case 'eval-gate':
      return "the model's evaluation scores (gate)";
    case 'irreversible':
      return 'its risk: it cannot be undone, so it waits in the approval queue';
    case 'always-asks':
      return 'the tool, which asks every time';
    case 'untrusted-content':
      return 'content others wrote, read earlier in this task: every change asks';
    case 'reaches-out':
      return 'content others wrote, read earlier in this task: sending data off the device asks';
    case 'user':
      return `the user (${basis.answer}${basis.edited ? ', arguments edited' : ''})`;
    case 'cli':
      return `the command line (${basis.answer})`;
    case 'switched-off':
      return 'the policy: the tool is switched off';
    case 'outside-grants':
      return 'the granted folders: a path lies outside them';
    case 'unusable-path':
      return 'a path that cannot be used as asked';
    case 'system':
      return basis.why === 'crash'
        ? 'Homebody stopping while it ran'
        : basis.why === 'stopped'
          ? 'the task being stopped'
          : basis.why === 'no-one-to-ask'
            ? 'no one being there to ask'
            : basis.why === 'superseded'
              ? 'a new message written instead of an answer'
              : 'a file that changed';
    default:
      return basis satisfies never;
  }
}
