/**
 * A reply's text as it streams, read as the Qwen templates write it: thoughts and answer apart, the tags and a call's
 * opening held back until they are certain. Text only, so the local engine (token by token) and the remote one (chunk
 * by chunk from a server) read a reply the same way.
 */
import { THINK_CLOSE, THINK_OPEN } from './toolDialect.js';

/** The text the model streams: thoughts and answer apart, tags and a call's text held back. */
export class ReplyText {
  text = '';
  reasoning = '';
  reasoningTokens = 0;
  private raw = '';
  private emitted = 0;
  private inThought: boolean;
  private atAnswerStart: boolean;

  constructor(
    thoughtOpen: boolean,
    private readonly onText: (text: string) => void,
    private readonly onReasoning: (text: string) => void,
  ) {
    this.inThought = thoughtOpen;
    this.atAnswerStart = !thoughtOpen;
  }

  get thinking(): boolean {
    return this.inThought;
  }

  /** The step's decoded text so far; emits what is certain. */
  update(decoded: string, final = false): void {
    this.raw = decoded;
    for (;;) {
      const rest = this.raw.slice(this.emitted);
      if (rest === '') return;
      if (this.inThought) {
        // The blank lines that end a thought are not part of it (the template trims them away); those that start
        // one are streamed as they come, so the first token shows at once (the template trims them too).
        const close = rest.indexOf(THINK_CLOSE);
        if (close >= 0) {
          this.thought(rest.slice(0, close).replace(/\n+$/, ''));
          this.emitted = this.raw.indexOf(THINK_CLOSE, this.emitted) + THINK_CLOSE.length;
          this.inThought = false;
          this.atAnswerStart = true;
          continue;
        }
        const shown = this.certain(rest, THINK_CLOSE, final);
        this.thought(final ? shown : shown.replace(/\n+$/, ''));
        return;
      }
      if (this.atAnswerStart) {
        // A thought the model opens itself (Qwen3), and the blank lines after a thought, are not the answer.
        const trimmed = rest.replace(/^\n+/, '');
        if (trimmed === '' && !final) return;
        if (trimmed.startsWith(THINK_OPEN)) {
          this.emitted += rest.length - trimmed.length + THINK_OPEN.length;
          this.inThought = true;
          continue;
        }
        if (!final && THINK_OPEN.startsWith(trimmed)) return;
        this.emitted += rest.length - trimmed.length;
        this.atAnswerStart = false;
        continue;
      }
      this.answer(this.certain(rest, null, final));
      return;
    }
  }

  /** What can be shown of `rest`: not a half-decoded character, nor the start of a tag still arriving. */
  private certain(rest: string, tag: string | null, final: boolean): string {
    let end = rest.length;
    if (!final) {
      if (rest.endsWith('\uFFFD')) end--;
      if (tag) {
        for (let keep = Math.min(tag.length - 1, end); keep > 0; keep--) {
          if (tag.startsWith(rest.slice(end - keep, end))) {
            end -= keep;
            break;
          }
        }
      }
    }
    return rest.slice(0, end);
  }

  private thought(text: string): void {
    if (!text) return;
    this.emitted += text.length;
    this.reasoning += text;
    this.onReasoning(text);
  }

  private answer(text: string): void {
    if (!text) return;
    this.emitted += text.length;
    this.text += text;
    this.onText(text);
  }
}
