import type { BuiltinToolDefinition } from '../../toolTypes.js';
import { noteRead } from './noteRead.js';
import { noteSearch } from './noteSearch.js';
import { noteWrite } from './noteWrite.js';

/** Markdown notes in the notes folder (a folder other apps such as Obsidian can open too). */
export const NOTE_TOOLS: BuiltinToolDefinition[] = [noteSearch, noteRead, noteWrite];
