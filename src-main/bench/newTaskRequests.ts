import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';

/**
 * What the new-task benchmark asks, on both sides (the app and llama-server): five different requests, each the
 * first message of a new task, of the kinds a user makes (MEASURED.md, "through the app"). The first is the first
 * task after a restart.
 */
export const NEW_TASK_PROMPTS: readonly string[] = [
  'What is on my calendar on Thursday?',
  'Read the file notes.txt and summarise it',
  'Draft an email to Ana saying I am late',
  'Remind me to call the dentist tomorrow at 9',
  'What is 15% of 80?',
];

/** The warm-up process's one task: none of the five, so nothing of theirs is on disk before they are measured. */
export const WARM_UP_PROMPT = 'Hello! What can you help me with?';

/** A granted folder with a couple of files, so the file tools are offered as they are to a user who granted one. */
export const GRANTED_FILES: Readonly<Record<string, string>> = {
  'notes.txt': 'Meeting with Ana on Thursday at 10. Bring the budget report.\nCall the garage about the brakes.\n',
  'todo.txt': '- renew the passport\n- pay the electricity bill\n- book the dentist\n',
};

/** A few MCP tools beside the built-in ones: this stdio server (a devDependency), with these of its tools left on. */
export const MCP_SERVER_NAME = 'everything';
export const MCP_TOOLS_KEPT: readonly string[] = ['echo', 'get-sum', 'get-annotated-message'];

const repoRoot = resolve(import.meta.dirname, '..', '..');

/** `@modelcontextprotocol/server-everything`'s entry point, run as `node <entry> stdio`. */
export function everythingServerEntry(): string {
  const entry = join(repoRoot, 'node_modules', '@modelcontextprotocol', 'server-everything', 'dist', 'index.js');
  if (!existsSync(entry)) {
    throw new Error(`the MCP test server is missing (${entry}); run npm ci to install the devDependencies`);
  }
  return entry;
}
