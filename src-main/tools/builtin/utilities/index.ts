import type { ToolDefinition } from '../../toolTypes.js';
import { calculate } from './calculate.js';
import { convertUnits } from './convertUnits.js';
import { dateCalcTool } from './dateCalc.js';

/** Pure computations: nothing read from disk or the network, nothing written. */
export const UTILITY_TOOLS: ToolDefinition[] = [calculate, convertUnits, dateCalcTool];
