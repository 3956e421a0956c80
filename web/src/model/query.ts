/**
 * The search box's typed queries (https://zulip.com/help/search-for-messages):
 * parsed into narrow terms and written back.
 */
import { ALIASES, typedOperand, type NarrowNames, type NarrowTerm, type Operator } from "./narrow.js";

/** Splits a typed query into tokens: words, `op:operand`, `op:"quoted operand"`, `"quoted words"`. */
function tokenize(query: string): string[] {
  const tokens: string[] = [];
  const re = /(-?[\w-]+:)?"([^"]*)"?|\S+/g;
  for (let m = re.exec(query); m; m = re.exec(query)) {
    tokens.push(m[2] !== undefined ? `${m[1] ?? ""}\u0000${m[2]}` : m[0]);
  }
  return tokens;
}

/** Resolves a typed operand to an ID where the app knows the name; the server accepts names and emails otherwise. */
function resolveOperand(operator: Operator, raw: string, names: NarrowNames): NarrowTerm["operand"] {
  if (operator === "channel") return names.streamIdByName(raw) ?? typedOperand(operator, raw);
  if (operator === "sender" || operator === "dm-including") {
    if (raw === "me") return names.myUserId;
    return names.userIdByEmailOrName(raw) ?? typedOperand(operator, raw);
  }
  if (operator === "dm") {
    const people = raw.split(",").map((p) => p.trim()).filter(Boolean);
    const ids = people.map((p) => (p === "me" ? names.myUserId : names.userIdByEmailOrName(p)));
    if (ids.every((id): id is number => id !== undefined)) {
      const others = [...new Set(ids)].filter((id) => id !== names.myUserId);
      return (others.length > 0 ? others : [names.myUserId]).sort((a, b) => a - b);
    }
    return raw;
  }
  return typedOperand(operator, raw);
}

/**
 * Parses what a person typed in the search box into narrow terms, with
 * Zulip's search operators: `channel:`/`stream:`, `topic:`, `sender:`
 * (`me` for oneself), `dm:` (comma-separated people), `is:`, `has:`, `near:`,
 * `id:`, a leading `-` to negate, `"quoted operands"`; everything else is
 * search words, gathered into one `search` term at the end. Names resolve to
 * IDs through `names` where known.
 */
export function parseSearchQuery(query: string, names: NarrowNames): NarrowTerm[] {
  const terms: NarrowTerm[] = [];
  const words: string[] = [];
  for (const token of tokenize(query.trim())) {
    const quoted = token.indexOf("\u0000");
    const colon = quoted >= 0 ? quoted - 1 : token.indexOf(":");
    const opText = colon > 0 ? token.slice(0, colon) : "";
    const negated = opText.startsWith("-");
    const operator = ALIASES[(negated ? opText.slice(1) : opText).toLowerCase()];
    const raw = quoted >= 0 ? token.slice(quoted + 1) : token.slice(colon + 1);
    if (!operator || (raw === "" && quoted < 0)) {
      words.push(quoted >= 0 ? token.slice(quoted + 1) : token);
      continue;
    }
    if (operator === "search") {
      words.push(raw);
      continue;
    }
    const operand = resolveOperand(operator, operator === "is" || operator === "has" ? raw.toLowerCase() : raw, names);
    terms.push({ operator, operand, ...(negated ? { negated } : {}) });
  }
  const text = words.join(" ").trim();
  if (text) terms.push({ operator: "search", operand: text });
  return terms;
}

/** Writes terms back as a typed query (what the search box shows for the open narrow). */
export function searchQueryFromTerms(terms: NarrowTerm[], names: NarrowNames): string {
  const quote = (s: string) => (/[\s"]/.test(s) ? `"${s.replace(/"/g, "")}"` : s);
  return terms
    .map((t) => {
      if (t.operator === "search") return String(t.operand);
      let text: string;
      if (t.operator === "channel" && typeof t.operand === "number") text = names.streamName(t.operand) ?? String(t.operand);
      else if (t.operator === "sender" && typeof t.operand === "number") {
        text = t.operand === names.myUserId ? "me" : (names.userName(t.operand) ?? String(t.operand));
      } else if (t.operator === "dm" && Array.isArray(t.operand)) {
        text = t.operand.map((id) => names.userName(id) ?? String(id)).join(",");
      } else text = String(t.operand);
      return `${t.negated ? "-" : ""}${t.operator}:${quote(text)}`;
    })
    .join(" ");
}

