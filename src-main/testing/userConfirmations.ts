import type { CommandConfirmer, CommandToConfirm, ConfirmationOutcome } from '../tools/mcp/commandConfirmation.js';

export interface UserAtDialog {
  /** Every command the user was shown, in order. */
  readonly asked: CommandToConfirm[];
  /** How the user answers; "Run it" unless the test sets another. */
  answer: (request: CommandToConfirm) => ConfirmationOutcome;
  readonly confirmer: CommandConfirmer;
}

/** Tests only: the user at the desktop app's confirmation of an MCP command, answering as the test says. */
export function userAtDialog(): UserAtDialog {
  const user: UserAtDialog = {
    asked: [],
    answer: () => ({ confirmed: true }),
    confirmer: {
      async confirm(request) {
        user.asked.push(request);
        return user.answer(request);
      },
    },
  };
  return user;
}
