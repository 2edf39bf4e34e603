/**
 * A conversation in the shape a Hugging Face chat template reads (`messages`, `tools`, `add_generation_prompt`,
 * `enable_thinking`). Homebody's dialects render it in TypeScript; tests render the same value with the model's own
 * Jinja template and compare the two texts.
 */
import type { WrittenValue } from '../writtenJson.js';

export interface TemplateToolCall {
  readonly type: 'function';
  readonly function: {
    readonly name: string;
    /** As the model wrote them: numbers keep their literal, so `5.0` renders as Python renders a float. */
    readonly arguments: { readonly [key: string]: WrittenValue };
  };
}

export type TemplateMessage =
  | { readonly role: 'system'; readonly content: string }
  | { readonly role: 'user'; readonly content: string }
  | {
      readonly role: 'assistant';
      readonly content: string;
      readonly reasoning_content?: string;
      readonly tool_calls?: readonly TemplateToolCall[];
    }
  | { readonly role: 'tool'; readonly content: string };

export interface TemplateTool {
  readonly type: 'function';
  readonly function: {
    readonly name: string;
    readonly description: string;
    readonly parameters: { readonly [key: string]: unknown };
  };
}

export interface TemplateContext {
  readonly messages: readonly TemplateMessage[];
  readonly tools?: readonly TemplateTool[];
  readonly add_generation_prompt: boolean;
  /** Absent: the template's own default. */
  readonly enable_thinking?: boolean;
}
