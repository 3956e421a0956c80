/**
 * One pass over micromark's events between parsing and compiling, marking
 * tokens whose HTML depends on where they sit (which an HTML handler cannot
 * see on its own):
 *
 * - mentions inside a block quote (`>` or ```` ```quote ````): Zulip silences
 *   them, so quoting a message does not notify its mentions again;
 * - line endings inside paragraph text (not inside inline code): Zulip's
 *   nl2br renders them as `<br>`.
 */
import type { Event } from "micromark-util-types";
import type { RenderState } from "./render-state.js";

export function annotateEvents(events: readonly Event[], state: RenderState): void {
  let quoteDepth = 0;
  let paragraphDepth = 0;
  let codeTextDepth = 0;
  for (const [kind, token] of events) {
    const delta = kind === "enter" ? 1 : -1;
    switch (token.type) {
      case "blockQuote":
      case "zulipQuoteFence":
        quoteDepth += delta;
        break;
      case "paragraph":
        paragraphDepth += delta;
        break;
      case "codeText":
        codeTextDepth += delta;
        break;
      case "zulipMention":
        if (kind === "enter" && quoteDepth > 0) state.quotedMentions.add(token);
        break;
      case "lineEnding":
        if (kind === "enter" && paragraphDepth > 0 && codeTextDepth === 0) state.softBreaks.add(token);
        break;
      default:
        break;
    }
  }
}
