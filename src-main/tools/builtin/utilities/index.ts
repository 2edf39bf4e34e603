import type { BuiltinToolDefinition } from '../../toolTypes.js';
import { calculate } from './calculate.js';
import { convertUnits } from './convertUnits.js';
import { dateCalcTool } from './dateCalc.js';

/** Pure computations: nothing read from disk or the network, nothing written. */
export const UTILITY_TOOLS: BuiltinToolDefinition[] = [calculate, convertUnits, dateCalcTool];
