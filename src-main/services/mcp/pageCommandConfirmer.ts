import { randomInt, randomUUID, timingSafeEqual } from 'node:crypto';
import {
  commandLines,
  type CommandConfirmer,
  type CommandToConfirm,
  type ConfirmationOutcome,
  type PendingConfirmation,
} from '../../tools/mcp/commandConfirmation.js';

/** How long the user has to read the command and type the code. */
export const CONFIRMATION_TIMEOUT_MS = 120_000;
/** Wrong codes in one launch after which no command can be confirmed until `homebody serve` is started again. */
export const MAX_WRONG_CODES = 5;

export interface PageCommandConfirmerOptions {
  /** Writes to the terminal `homebody serve` runs in: the one place the code is shown. */
  readonly tell: (text: string) => void;
  readonly timeoutMs?: number;
  readonly newId?: () => string;
  readonly newCode?: () => string;
  readonly now?: () => number;
}

interface Waiting {
  readonly id: string;
  readonly code: string;
  readonly server: string;
  readonly timer: ReturnType<typeof setTimeout>;
  readonly resolve: (outcome: ConfirmationOutcome) => void;
}

/** Six digits, typed as shown ("493 028") or without the space. */
function sixDigits(): string {
  return String(randomInt(0, 1_000_000)).padStart(6, '0');
}

const digitsOf = (text: string) => text.replace(/[\s-]/g, '');

function minutes(ms: number): string {
  const count = Math.max(1, Math.round(ms / 60_000));
  return `${count} ${count === 1 ? 'minute' : 'minutes'}`;
}

/**
 * Browser mode's confirmation of a stdio MCP server's command. Whoever holds the page's access token can call
 * every method and read every event, exactly as the page can, so a nonce sent to the page would prove nothing a
 * script could not also do. The proof comes from outside the API: the command and a six-digit code are printed in
 * the terminal where `homebody serve` runs, the page shows the same command and asks for the code, and only the
 * right code, typed within two minutes, once, confirms it. One confirmation waits at a time, a wrong code ends it,
 * and after five wrong codes nothing more can be confirmed until the server is started again: guessing is not a
 * way in. What it does not stop: someone who can read that terminal, or who runs commands as this user anyway.
 */
export class PageCommandConfirmer implements CommandConfirmer {
  private waiting: Waiting | null = null;
  private wrongCodes = 0;

  constructor(private readonly options: PageCommandConfirmerOptions) {}

  confirm(request: CommandToConfirm, shown: (pending: PendingConfirmation) => void): Promise<ConfirmationOutcome> {
    if (this.wrongCodes >= MAX_WRONG_CODES) {
      return Promise.resolve({
        confirmed: false,
        reason: `Too many wrong codes: no command can be confirmed until you stop and start \`homebody serve\` again.`,
      });
    }
    if (this.waiting) {
      return Promise.resolve({
        confirmed: false,
        reason: `The command of the MCP server "${this.waiting.server}" is waiting for your confirmation; answer that one first.`,
      });
    }
    const id = (this.options.newId ?? randomUUID)();
    const code = (this.options.newCode ?? sixDigits)();
    const ms = this.options.timeoutMs ?? CONFIRMATION_TIMEOUT_MS;
    const expiresAt = (this.options.now ?? Date.now)() + ms;
    return new Promise<ConfirmationOutcome>((resolve) => {
      const timer = setTimeout(
        () =>
          this.finish(id, {
            confirmed: false,
            reason: `Nobody confirmed its command within ${minutes(ms)}; switch it on again to be asked again.`,
          }),
        ms,
      );
      this.waiting = { id, code, server: request.server, timer, resolve };
      this.options.tell(
        [
          '',
          `Homebody: the MCP server "${request.server}" asks to run a command on this computer.`,
          ...commandLines(request).map((line) => `  ${line}`),
          `  To run it, type this code in Homebody's page: ${code.slice(0, 3)} ${code.slice(3)}`,
          `  (valid once, for ${minutes(ms)}). If you did not ask for this, type nothing: it will not run.`,
          '',
        ].join('\n'),
      );
      shown({ id, expiresAt });
    });
  }

  /**
   * The page's answer: the code the user typed, or null for Cancel. False when no confirmation waits for `id`
   * (answered, expired, or never asked). A wrong code ends the confirmation: the next try prints a new code.
   */
  answer(id: string, code: string | null): boolean {
    const waiting = this.waiting;
    if (!waiting || !sameText(waiting.id, id)) return false;
    if (code === null) {
      this.finish(id, { confirmed: false, reason: null });
      return true;
    }
    if (sameText(digitsOf(code), waiting.code)) {
      this.finish(id, { confirmed: true });
      return true;
    }
    this.wrongCodes++;
    this.options.tell(
      `Homebody: a wrong code was typed for the MCP server "${waiting.server}"; its command did not run.`,
    );
    this.finish(id, {
      confirmed: false,
      reason:
        this.wrongCodes >= MAX_WRONG_CODES
          ? 'That was not the code, for the last time: no command can be confirmed until `homebody serve` starts again.'
          : 'That was not the code printed in the terminal, so nothing ran. Switch it on again for a new code.',
    });
    return true;
  }

  /** Closing: a waiting confirmation ends unconfirmed. */
  dispose(): void {
    if (this.waiting) this.finish(this.waiting.id, { confirmed: false, reason: 'Homebody is closing.' });
  }

  private finish(id: string, outcome: ConfirmationOutcome): void {
    const waiting = this.waiting;
    if (!waiting || waiting.id !== id) return;
    this.waiting = null;
    clearTimeout(waiting.timer);
    waiting.resolve(outcome);
  }
}

function sameText(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}
