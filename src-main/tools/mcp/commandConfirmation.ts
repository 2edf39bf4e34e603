import { createHash } from 'node:crypto';
import { visibleText, type McpServerConfig } from '../../../src-shared/contract/index.js';

/**
 * A stdio MCP server runs a command on this computer. It starts only once the user has seen that exact command
 * (its arguments, and the names of its environment variables: their values are secrets) in the app and confirmed
 * it; the shell asks (a native dialog in the desktop app, the page and a code printed in the terminal in browser
 * mode), never the API alone. What the user confirmed is kept as a digest: a changed command, argument or variable
 * name needs confirming again.
 */

/** What the user is asked to confirm. */
export interface CommandToConfirm {
  readonly server: string;
  readonly command: string;
  readonly args: readonly string[];
  readonly envKeys: readonly string[];
}

export type ConfirmationOutcome =
  | { readonly confirmed: true }
  /** `reason` says why it did not run when the user did not simply cancel (a wrong code, no answer in time). */
  | { readonly confirmed: false; readonly reason: string | null };

/** A confirmation the page answers (browser mode), as the server's view shows it. */
export interface PendingConfirmation {
  readonly id: string;
  readonly expiresAt: number;
}

/** How the shell asks the user. `shown` is called when the question waits in the page, so the view can carry it. */
export interface CommandConfirmer {
  confirm(request: CommandToConfirm, shown: (pending: PendingConfirmation) => void): Promise<ConfirmationOutcome>;
  /** Browser mode: the page's answer (`mcp.confirmCommand`); false when no confirmation waits for `id`. */
  answer?(id: string, code: string | null): boolean;
}

/** What to confirm for a server, or null for one that runs no command (HTTP). */
export function commandToConfirm(config: McpServerConfig): CommandToConfirm | null {
  const { transport } = config;
  if (transport.kind !== 'stdio') return null;
  return { server: config.name, command: transport.command, args: transport.args, envKeys: Object.keys(transport.env) };
}

/** The digest of a command as confirmed: command, arguments in order, environment names in any order. */
export function commandFingerprint(request: CommandToConfirm): string {
  const canonical = JSON.stringify([request.command, request.args, [...request.envKeys].sort()]);
  return createHash('sha256').update(canonical).digest('hex');
}

/**
 * The command as the user reads it, one fact a line: nothing in it can hide text or steer a terminal, and the
 * arguments are quoted so that where one ends is plain.
 */
export function commandLines(request: CommandToConfirm): string[] {
  return [
    `Command: ${visibleText(request.command)}`,
    `Arguments: ${request.args.length ? request.args.map((a) => `"${visibleText(a).replaceAll('"', '\\"')}"`).join(' ') : '(none)'}`,
    `Environment variables: ${request.envKeys.length ? request.envKeys.map(visibleText).join(', ') + ' (values not shown)' : '(none)'}`,
  ];
}
