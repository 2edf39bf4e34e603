import type { BuiltinToolDefinition } from '../../toolTypes.js';
import { copy } from './copy.js';
import { deletePermanently } from './deletePermanently.js';
import { listFolder } from './listFolder.js';
import { move } from './move.js';
import { moveToTrash } from './moveToTrash.js';
import { readText } from './readText.js';
import { searchFiles } from './searchFiles.js';
import { writeText } from './writeText.js';

export { applyUndo, describeUndo } from './undo.js';

/** The built-in file tools; each confines its paths to the granted folders through sandbox/pathGuard. */
export const FILE_TOOLS: BuiltinToolDefinition[] = [
  listFolder,
  searchFiles,
  readText,
  writeText,
  move,
  copy,
  moveToTrash,
  deletePermanently,
];
