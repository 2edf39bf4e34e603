import { ToolError, type JsonValue } from '../../toolTypes.js';

/** The clipboard's text from a shell's answer ({text} from either bridge). */
export function clipboardText(answer: JsonValue): string {
  if (answer !== null && typeof answer === 'object' && !Array.isArray(answer) && typeof answer.text === 'string') {
    return answer.text;
  }
  throw new ToolError('UNAVAILABLE', "The app did not return the clipboard's text.");
}
