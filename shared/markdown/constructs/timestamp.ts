/**
 * Global times: `<time:2024-01-01T12:00:00+00:00>` → `<time datetime="…Z">…</time>`,
 * which clients show in each reader's time zone.
 *
 * @see https://zulip.com/help/global-times
 */
import type { Code, CompileContext, Effects, Extension, HtmlExtension, State, Token, TokenizeContext } from "micromark-util-types";
import { GREATER_THAN, LESS_THAN } from "./codes.js";

const PREFIX = "time:";
/** Longest time text we look at: bounds the scan so `<time:<time:…` stays linear. */
const MAX_TIME_LENGTH = 200;

/**
 * Parses the time text of `<time:…>` into a UTC instant (milliseconds).
 *
 * Accepted: ISO 8601 dates and date-times (`2024-01-01`, `2024-01-01T12:00`,
 * `2024-01-01 12:00:00.5`, with `Z` or `±HH:MM` / `±HHMM` / `±HH`; no offset
 * means UTC, as in Zulip) and Unix timestamps in seconds (`1496701800`).
 * Free-form dates (`Jun 5th 2017, 10:30PM`) are read by the renderer's
 * `parseFreeFormTime` lookup when given (`free-form-time.ts`). Returns
 * `undefined` when invalid.
 */
export function parseGlobalTime(text: string): number | undefined {
  const value = text.trim();
  if (/^-?\d+(?:\.\d+)?$/.test(value)) {
    const ms = Math.round(Number(value) * 1000);
    return Number.isFinite(ms) && Math.abs(ms) <= 8.64e15 ? ms : undefined;
  }
  const match =
    /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?)?\s*(Z|[+-]\d{2}(?::?\d{2})?)?$/i.exec(value);
  if (!match) return undefined;
  const [, y, mo, d, h = "0", mi = "0", s = "0", frac = "", zone] = match;
  const year = Number(y);
  const month = Number(mo);
  const day = Number(d);
  const hour = Number(h);
  const minute = Number(mi);
  const second = Number(s);
  if (month < 1 || month > 12 || day < 1 || day > 31 || hour > 23 || minute > 59 || second > 59) return undefined;
  let ms = Date.UTC(year, month - 1, day, hour, minute, second, Number((frac + "000").slice(0, 3)));
  // Reject dates that rolled over (2023-02-30 → March 2).
  if (new Date(ms).getUTCDate() !== day) return undefined;
  if (zone && zone.toUpperCase() !== "Z") {
    const sign = zone[0] === "-" ? -1 : 1;
    const digits = zone.slice(1).replace(":", "");
    const offsetMinutes = Number(digits.slice(0, 2)) * 60 + Number(digits.slice(2, 4) || "0");
    ms -= sign * offsetMinutes * 60_000;
  }
  return ms;
}

/** Zulip's `datetime` attribute: ISO 8601 in UTC with `Z`, seconds always, fractions only when present. */
export function formatGlobalTime(ms: number): string {
  const iso = new Date(ms).toISOString(); // 2024-01-01T12:00:00.000Z
  return iso.endsWith(".000Z") ? iso.slice(0, -5) + "Z" : iso.slice(0, -1) + "000Z";
}

/**
 * Syntax + HTML extensions for `<time:…>`; `freeForm` reads the texts that
 * are neither ISO 8601 nor Unix seconds (absent: those are errors).
 */
export function timestampExtensions(
  freeForm?: (text: string) => number | undefined,
): { syntax: Extension; html: HtmlExtension } {
  function tokenize(this: TokenizeContext, effects: Effects, ok: State, nok: State): State {
    let index = 0;
    let length = 0;
    return start;

    function start(code: Code): State | undefined {
      if (code !== LESS_THAN) return nok(code);
      effects.enter("zulipTimestamp");
      effects.consume(code);
      return prefix;
    }
    function prefix(code: Code): State | undefined {
      if (code !== PREFIX.charCodeAt(index)) return nok(code);
      effects.consume(code);
      index++;
      return index === PREFIX.length ? body : prefix;
    }
    function body(code: Code): State | undefined {
      if (code === GREATER_THAN) {
        effects.consume(code);
        effects.exit("zulipTimestamp");
        return ok;
      }
      if (code === null || code < -2 || ++length > MAX_TIME_LENGTH) return nok(code);
      effects.consume(code);
      return body;
    }
  }

  const syntax: Extension = {
    text: { [LESS_THAN]: { name: "zulipTimestamp", tokenize } },
  };

  const html: HtmlExtension = {
    exit: {
      zulipTimestamp(this: CompileContext, token: Token) {
        const text = this.sliceSerialize(token).slice(1 + PREFIX.length, -1);
        const ms = parseGlobalTime(text) ?? freeForm?.(text.trim());
        if (ms === undefined) {
          this.tag(`<span class="timestamp-error">Invalid time format: ${this.encode(text)}</span>`);
        } else {
          this.tag(`<time datetime="${formatGlobalTime(ms)}">${this.encode(text)}</time>`);
        }
      },
    },
  };

  return { syntax, html };
}
