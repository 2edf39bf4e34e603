import type { BuiltinToolDefinition } from '../../toolTypes.js';
import { webFetch } from './webFetch.js';
import { webSearch } from './webSearch.js';

/** Web research: search through the user's own SearXNG-style endpoint, and read a page's main text. */
export const WEB_TOOLS: BuiltinToolDefinition[] = [webSearch, webFetch];
