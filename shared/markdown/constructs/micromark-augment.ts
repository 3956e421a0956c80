/**
 * Registers our token types with micromark's types (module augmentation), so
 * `effects.enter("zulipMention")` and `exit: { zulipMention }` type-check.
 */
import type { Token } from "micromark-util-types";

/** State our fenced quote/spoiler containers keep between lines. */
export interface ZulipFenceContainerState {
  marker: number;
  size: number;
  /** Fences opened inside this container and not yet closed (innermost last). */
  inner: { marker: number; size: number; code: boolean }[];
  /** The closing fence was consumed; the container ends before the next line. */
  closed: boolean;
  /** Where the opening fence starts (identifies the container while open). */
  offset: number;
}

declare module "micromark-util-types" {
  interface TokenTypeMap {
    zulipMention: "zulipMention";
    zulipStreamLink: "zulipStreamLink";
    zulipEmoji: "zulipEmoji";
    zulipEmoticon: "zulipEmoticon";
    zulipTimestamp: "zulipTimestamp";
    zulipTex: "zulipTex";
    zulipUnderscore: "zulipUnderscore";
    zulipQuoteFence: "zulipQuoteFence";
    zulipSpoilerFence: "zulipSpoilerFence";
    zulipFenceOpen: "zulipFenceOpen";
    zulipFenceClose: "zulipFenceClose";
    /** Only inside a check (`code-fence.ts`); never reaches the HTML. */
    zulipFenceProbe: "zulipFenceProbe";
    /** Only inside a check (`block-quote.ts`); never reaches the HTML. */
    zulipQuoteProbe: "zulipQuoteProbe";
    zulipSpoilerHeader: "zulipSpoilerHeader";
    /** A `**…**` Zulip does not render (spans lines): no HTML of its own. */
    zulipPlainAttention: "zulipPlainAttention";
    /** A bare domain Zulip links (`example.com/path`): see `bare-domain.ts`. */
    zulipBareLink: "zulipBareLink";
  }
  interface ContainerState {
    zulipFence?: ZulipFenceContainerState | undefined;
  }
}

export type { Token };
