import { DEFAULT_MAX_TOKENS, DEFAULT_TEMPERATURE, type ReplyOptions } from '../../agent/chatRunner.js';

/** Reply length cap and temperature: HOMEBODY_MAX_TOKENS and HOMEBODY_TEMPERATURE, else the defaults. */
export function defaultReplyOptions(env: NodeJS.ProcessEnv = process.env): ReplyOptions {
  const maxTokens = Number(env.HOMEBODY_MAX_TOKENS);
  const temperature = Number(env.HOMEBODY_TEMPERATURE);
  return {
    maxTokens: Number.isInteger(maxTokens) && maxTokens > 0 ? maxTokens : DEFAULT_MAX_TOKENS,
    temperature: env.HOMEBODY_TEMPERATURE && temperature >= 0 && temperature <= 2 ? temperature : DEFAULT_TEMPERATURE,
  };
}
