export {
  anyValueSchema,
  createToolNameMap,
  MAX_TOOL_NAME_LENGTH,
  normalizeParameters,
  normalizeToolName,
} from './normalizeSchema.js';
export type { ToolNameMap } from './normalizeSchema.js';
export { compileValidator, validateArguments } from './validateArgs.js';
export type { ValidationResult } from './validateArgs.js';
