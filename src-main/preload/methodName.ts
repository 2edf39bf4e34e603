/**
 * The shape of every contract method name (`area.name`, e.g. `chat.send`).
 * The preload refuses anything else before it reaches IPC; main then checks
 * the name against the contract itself.
 */
const METHOD_NAME = /^[a-z]+\.[a-zA-Z]+$/;

export function isMethodName(value: unknown): value is string {
  return typeof value === 'string' && value.length <= 64 && METHOD_NAME.test(value);
}
