import { describe, expect, it } from "vitest";
import { carriedJsonBytes } from "../../domain/response-budget.js";
import { fitPageToBudget } from "./page-budget.js";

const message = (id: number) => ({ id, content: "x".repeat(90) });
const envelope = { result: "success", messages: [] };
// Every test message has a one-digit ID: all the same size.
const size = carriedJsonBytes(message(1)) + 1;
const base = carriedJsonBytes(envelope);

describe("fitPageToBudget", () => {
  it("keeps everything that fits, dropping nothing", () => {
    const parts = { before: [message(1), message(2)], anchor: message(3), after: [message(4)] };
    expect(fitPageToBudget(parts, envelope, 10_000)).toEqual({ ...parts, droppedBefore: false, droppedAfter: false });
  });

  it("keeps the anchor, then the nearest messages on alternating sides", () => {
    const parts = { before: [1, 2, 3, 4].map(message), anchor: message(5), after: [6, 7, 8, 9].map(message) };
    const fitted = fitPageToBudget(parts, envelope, base + 4 * size);
    expect(fitted.before.map((m) => m.id)).toEqual([3, 4]);
    expect(fitted.anchor?.id).toBe(5);
    expect(fitted.after.map((m) => m.id)).toEqual([6]);
    expect(fitted).toMatchObject({ droppedBefore: true, droppedAfter: true });
  });

  it("drops only the far end of a one-sided page", () => {
    const parts = { before: [1, 2, 3, 4, 5].map(message), anchor: undefined, after: [] };
    const fitted = fitPageToBudget(parts, envelope, base + 3 * size);
    expect(fitted.before.map((m) => m.id)).toEqual([3, 4, 5]);
    expect(fitted).toMatchObject({ droppedBefore: true, droppedAfter: false });
  });

  it("keeps the nearest message even alone over the budget, so paging advances", () => {
    const parts = { before: [1, 2].map(message), anchor: undefined, after: [] };
    const fitted = fitPageToBudget(parts, envelope, 10);
    expect(fitted.before.map((m) => m.id)).toEqual([2]);
    expect(fitted.droppedBefore).toBe(true);
  });

  it("counts escaped bytes: quotes cost two", () => {
    const quoted = { id: 1, content: '"'.repeat(100) };
    const plain = { id: 2, content: "a".repeat(100) };
    const budget = base + carriedJsonBytes(plain) + 1 + JSON.stringify(quoted).length + 1;
    // Unescaped both fit; escaped, the quoted one takes 100 more bytes.
    const fitted = fitPageToBudget({ before: [quoted], anchor: plain, after: [] }, envelope, budget);
    expect(fitted.before).toEqual([]);
    expect(fitted.droppedBefore).toBe(true);
  });
});
