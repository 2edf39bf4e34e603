import type { ToolDefinition } from '../toolTypes.js';
import { FILE_TOOLS } from './files/index.js';
import { MAIL_TOOLS } from './mail/index.js';

/**
 * Every built-in tool pack, in the order the model is offered them. A pack is a folder under builtin/ with an
 * index.ts exporting its tools; add it here with one line. The tool worker runs exactly these.
 */
export const BUILTIN_TOOLS: readonly ToolDefinition[] = [...FILE_TOOLS, ...MAIL_TOOLS];
