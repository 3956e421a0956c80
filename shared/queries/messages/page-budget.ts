import { carriedJsonBytes } from "../../domain/response-budget.js";

/** A page's wire messages split around its anchor, each side ascending by ID. */
export interface PageParts<T> {
  before: T[];
  anchor: T | undefined;
  after: T[];
}

/** What {@link fitPageToBudget} kept, and whether it dropped any on each side. */
export interface FittedPage<T> extends PageParts<T> {
  droppedBefore: boolean;
  droppedAfter: boolean;
}

/**
 * Shortens a `GET /messages` page so its response body stays within
 * `budget` bytes as Lambda carries it (`RESPONSE_BYTE_BUDGET`). Messages
 * are kept nearest the anchor first — the anchor, then one before and one
 * after in turn — so what is dropped is the far end of each side, and a
 * client paging from the last message it got (Zulip's protocol: a page may
 * be shorter than asked, `found_oldest`/`found_newest` say whether more
 * exist) continues exactly where this page stops. The nearest message is
 * kept even alone over the budget, so paging always advances; a message
 * item is at most DynamoDB's 400 KB, far below Lambda's limit.
 * @param envelope the response without messages (its `messages: []` included), to count its bytes
 * @param budget bytes for the whole body
 */
export function fitPageToBudget<T>(parts: PageParts<T>, envelope: Record<string, unknown>, budget: number): FittedPage<T> {
  // Nearest first: anchor, then alternately the closest remaining before / after.
  const order: { side: "before" | "anchor" | "after"; index: number }[] = [];
  if (parts.anchor !== undefined) order.push({ side: "anchor", index: 0 });
  for (let i = 0; i < Math.max(parts.before.length, parts.after.length); i++) {
    if (i < parts.before.length) order.push({ side: "before", index: parts.before.length - 1 - i });
    if (i < parts.after.length) order.push({ side: "after", index: i });
  }
  let used = carriedJsonBytes(envelope);
  let keptBefore = 0;
  let keptAfter = 0;
  let keptAnchor = false;
  for (const { side, index } of order) {
    const message = side === "anchor" ? parts.anchor : side === "before" ? parts.before[index] : parts.after[index];
    // One separating comma per message besides its own bytes.
    const bytes = carriedJsonBytes(message) + 1;
    const first = keptBefore + keptAfter + (keptAnchor ? 1 : 0) === 0;
    if (!first && used + bytes > budget) break;
    used += bytes;
    if (side === "anchor") keptAnchor = true;
    else if (side === "before") keptBefore++;
    else keptAfter++;
  }
  return {
    before: parts.before.slice(parts.before.length - keptBefore),
    anchor: keptAnchor ? parts.anchor : undefined,
    after: parts.after.slice(0, keptAfter),
    droppedBefore: keptBefore < parts.before.length,
    droppedAfter: keptAfter < parts.after.length,
  };
}
