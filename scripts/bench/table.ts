/**
 * Plain-text tables for the bench's report: aligned columns, numbers right
 * aligned, no colours (the output is pasted into docs/performance.md).
 */

export type Cell = string | number | undefined;

/**
 * Formats a number for a table cell: NaN/undefined → `-`, integers with
 * thousands separators, others with `digits` decimals.
 */
export function fmt(value: number | undefined, digits = 1): string {
  if (value === undefined || Number.isNaN(value)) return "-";
  if (!Number.isFinite(value)) return value > 0 ? "inf" : "-inf";
  if (Number.isInteger(value) && Math.abs(value) >= 1000) return value.toLocaleString("en-US");
  if (Number.isInteger(value)) return String(value);
  const fixed = value.toFixed(digits);
  return Math.abs(value) >= 1000 ? Number(fixed).toLocaleString("en-US", { maximumFractionDigits: digits }) : fixed;
}

/** Milliseconds with one decimal below 10 ms, whole above. */
export function fmtMs(ms: number | undefined): string {
  if (ms === undefined || Number.isNaN(ms)) return "-";
  return ms < 10 ? ms.toFixed(1) : fmt(Math.round(ms));
}

/**
 * Renders rows under a header as aligned text. Cells that are numbers (or
 * look numeric, like `1,234` or `12.5` or `-`) are right-aligned.
 * @param title printed above the table with an underline
 * @param notes lines printed under the table
 */
export function renderTable(title: string, header: string[], rows: Cell[][], notes: string[] = []): string {
  const text = rows.map((r) => header.map((_, i) => cellText(r[i])));
  const widths = header.map((h, i) => Math.max(h.length, ...text.map((r) => r[i]!.length)));
  const numeric = header.map((_, i) => text.every((r) => /^[-+]?[\d,.]*%?x?$|^-$|^inf$/.test(r[i]!) || r[i] === ""));
  const line = (cells: string[], isHeader: boolean) =>
    cells
      .map((c, i) => (numeric[i] && !(isHeader && i === 0) ? c.padStart(widths[i]!) : c.padEnd(widths[i]!)))
      .join("  ")
      .trimEnd();
  const out = [title, "=".repeat(title.length), line(header, true), widths.map((w) => "-".repeat(w)).join("  ")];
  for (const r of text) out.push(line(r, false));
  for (const n of notes) out.push(n);
  return out.join("\n");
}

function cellText(c: Cell): string {
  if (c === undefined) return "-";
  return typeof c === "number" ? fmt(c) : c;
}
