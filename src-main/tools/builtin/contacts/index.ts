import type { BuiltinToolDefinition } from '../../toolTypes.js';
import { contactAdd } from './contactAdd.js';
import { contactFind } from './contactFind.js';

/** The contacts pack: vCard files in the contacts folder, read from any app, one new contact per file. */
export const CONTACT_TOOLS: BuiltinToolDefinition[] = [contactFind, contactAdd];
