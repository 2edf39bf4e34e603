import { commandLines, type CommandConfirmer, type CommandToConfirm } from '../tools/mcp/commandConfirmation.js';

/** The options of Electron's message box that the confirmation uses (main.ts passes Electron's own; tests a fake). */
export interface CommandDialogOptions {
  readonly type: 'warning';
  readonly title: string;
  readonly message: string;
  readonly detail: string;
  readonly buttons: string[];
  readonly defaultId: number;
  readonly cancelId: number;
  readonly noLink: boolean;
}

/** Shows the message box over the app's window and answers the index of the button clicked. */
export type ShowCommandDialog = (options: CommandDialogOptions) => Promise<{ response: number }>;

const RUN = 1;

/** The native dialog's text: the exact command, arguments and variable names, and what running it means. */
export function commandDialogOptions(request: CommandToConfirm): CommandDialogOptions {
  return {
    type: 'warning',
    title: 'Run this command?',
    message: `The MCP server "${request.server}" runs this command on your computer, with your permissions.`,
    detail: [
      ...commandLines(request),
      '',
      'Run it only if you added this server yourself and trust where it came from. You are asked again if its command, arguments or environment variables change.',
    ].join('\n'),
    buttons: ['Cancel', 'Run it'],
    // Enter and Esc both cancel: running a program takes a deliberate click.
    defaultId: 0,
    cancelId: 0,
    noLink: true,
  };
}

/**
 * The desktop app asks in the main process, with a native dialog the page cannot draw, click or answer: whatever
 * the renderer sends, a stdio server's command runs only after the user clicked "Run it" here.
 */
export function createDesktopCommandConfirmer(show: ShowCommandDialog): CommandConfirmer {
  return {
    async confirm(request) {
      const { response } = await show(commandDialogOptions(request));
      return response === RUN ? { confirmed: true } : { confirmed: false, reason: null };
    },
  };
}
