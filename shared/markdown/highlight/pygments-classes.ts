/**
 * highlight.js output → the markup Zulip's server writes for a highlighted
 * code block (Pygments' `HtmlFormatter`): one `<span class="…">` per token
 * with Pygments' short token classes (`k` keyword, `nf` function name,
 * `s2` double-quoted string…), adjacent tokens of one class merged, tokens
 * split at line ends, whitespace bare. Every Zulip client styles these
 * classes, so the server's markup is what they expect.
 *
 * highlight.js decides what the tokens are; this module only names them.
 * Text highlight.js leaves unmarked (names, operators, punctuation, which
 * Pygments marks too) is split into those three kinds by character class.
 *
 * @see https://zulip.com/help/code-blocks
 */

/** One token of output: Pygments' class (undefined: plain text) and its text. */
export interface CodeToken {
  cls: string | undefined;
  text: string;
}

/** How a language's unmarked text is classed (Pygments differs per lexer family). */
export interface GapStyle {
  /** `code`: names, operators and punctuation are marked; `tex`: only braces (`nb`); `text`: nothing. */
  kind: "code" | "tex" | "text";
  /** Pygments' class for a bare name: `n`, or `nx` (Name.Other) in JavaScript and PHP lexers. */
  name: string;
}

/** highlight.js scope → Pygments class; scopes absent here are containers whose children are classed. */
const SCOPE_CLASSES: Readonly<Record<string, string>> = {
  keyword: "k",
  built_in: "nb",
  type: "kt",
  literal: "kc",
  "char.escape": "se",
  subst: "si",
  meta: "cp",
  "meta.keyword": "cp",
  "meta.string": "cpf",
  "title.function": "nf",
  "title.class": "nc",
  title: "nf",
  variable: "nv",
  "variable.language": "bp",
  "variable.constant": "no",
  attr: "na",
  attribute: "na",
  symbol: "ss",
  regexp: "sr",
  operator: "o",
  punctuation: "p",
  name: "nt",
  "selector-tag": "nt",
  "selector-class": "nc",
  "selector-id": "nn",
  "selector-attr": "na",
  "selector-pseudo": "nd",
  section: "gh",
  emphasis: "ge",
  strong: "gs",
  addition: "gi",
  deletion: "gd",
  doctag: "cs",
  decorator: "nd",
};

/** Scopes whose whole text is one token of a class decided by the text itself. */
function textClass(scope: string, text: string, firstLine: boolean): string | undefined {
  switch (scope) {
    case "string":
      return text.startsWith('"') ? "s2" : text.startsWith("'") ? "s1" : "s";
    case "number":
      if (/^0[xX]/.test(text)) return "mh";
      if (/^0[oO]/.test(text)) return "mo";
      if (/^0[bB]/.test(text)) return "mb";
      return /[.eE]/.test(text) && !/^\d+$/.test(text) ? "mf" : "mi";
    case "comment":
      if (firstLine && text.startsWith("#!")) return "ch";
      return /^\/\*|^<!--|^"""|^'''/.test(text) ? "cm" : "c1";
    case "quote":
      return "c1";
    default:
      return undefined;
  }
}

/** Unmarked text split the way Pygments' lexers mark it. */
export function classifyGap(text: string, style: GapStyle): CodeToken[] {
  if (style.kind === "text") return [{ cls: undefined, text }];
  if (style.kind === "tex") {
    return text.split(/([{}])/).flatMap((part) => (part === "" ? [] : [{ cls: part === "{" || part === "}" ? "nb" : undefined, text: part }]));
  }
  const tokens: CodeToken[] = [];
  for (const [part] of text.matchAll(/\s+|[\p{L}_$][\p{L}\p{N}_$]*|\d[\w.]*|[-+*/%=<>!&|^~?@]+|[^\s\p{L}\p{N}_$]/gu)) {
    let cls: string | undefined;
    if (/^\s/u.test(part)) cls = undefined;
    else if (/^[\p{L}_$]/u.test(part)) cls = style.name;
    else if (/^\d/.test(part)) cls = textClass("number", part, false);
    else if (/^[-+*/%=<>!&|^~?@]/.test(part)) cls = "o";
    else cls = "p";
    tokens.push({ cls, text: part });
  }
  return tokens;
}

/** A node of highlight.js's HTML: text, or a scope with children. */
export type ScopeNode = string | { scope: string; children: ScopeNode[] };

/**
 * Parses highlight.js's HTML (`<span class="hljs-keyword">def</span>…`, text
 * escaped with `&amp; &lt; &gt; &quot; &#x27;`) into a tree of scopes.
 */
export function parseHighlighted(html: string): ScopeNode[] {
  const root: ScopeNode[] = [];
  const stack: ScopeNode[][] = [root];
  for (const [whole, classes] of html.matchAll(/<span class="([^"]*)">|<\/span>|[^<]+/g)) {
    const top = stack[stack.length - 1]!;
    if (classes !== undefined) {
      // `hljs-title function_` → `title.function`
      const scope = classes
        .split(" ")
        .map((c) => c.replace(/^hljs-/, "").replace(/_+$/, ""))
        .join(".");
      const node = { scope, children: [] as ScopeNode[] };
      top.push(node);
      stack.push(node.children);
    } else if (whole === "</span>") {
      if (stack.length > 1) stack.pop();
    } else {
      top.push(unescapeHljs(whole));
    }
  }
  return root;
}

function unescapeHljs(text: string): string {
  return text.replace(/&(amp|lt|gt|quot|#x27);/g, (_m, name: string) => ({ amp: "&", lt: "<", gt: ">", quot: '"', "#x27": "'" })[name] ?? "");
}

/** The plain text of a node. */
export function nodeText(node: ScopeNode): string {
  return typeof node === "string" ? node : node.children.map(nodeText).join("");
}

/** The Pygments class of a scoped node's whole text, or undefined when its children are classed one by one. */
export function scopeClass(scope: string, text: string, firstLine: boolean): string | undefined {
  // A `#!` line opening the block (a comment or a "meta" line to highlight.js) is Pygments' hashbang.
  if (firstLine && text.startsWith("#!") && (scope === "meta" || scope === "comment")) return "ch";
  return SCOPE_CLASSES[scope] ?? textClass(scope, text, firstLine);
}

/** The escaping of Zulip's highlighted code: `&`, `<`, `>` and `"` (a `'` stays as typed there). */
function escapeCode(value: string): string {
  return value.replace(/[&<>"]/g, (ch) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" })[ch] ?? ch);
}

/**
 * Pygments' `HtmlFormatter` output for tokens: adjacent tokens of one class
 * merged, each token split at line ends (a span never crosses a line), plain
 * text bare.
 */
export function formatTokens(tokens: readonly CodeToken[]): string {
  const merged: CodeToken[] = [];
  for (const token of tokens) {
    if (token.text === "") continue;
    const last = merged[merged.length - 1];
    if (last && last.cls === token.cls) last.text += token.text;
    else merged.push({ ...token });
  }
  return merged
    .map(({ cls, text }) =>
      cls === undefined
        ? escapeCode(text)
        : text
            .split("\n")
            .map((line) => (line === "" ? "" : `<span class="${cls}">${escapeCode(line)}</span>`))
            .join("\n"),
    )
    .join("");
}
