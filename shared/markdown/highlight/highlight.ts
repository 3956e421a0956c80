/**
 * Syntax highlighting of code blocks with highlight.js, written as Zulip's
 * server writes it (Pygments' token classes; see `pygments-classes.ts`).
 *
 * Languages: a common set is registered (the list below; each adds a few
 * KiB to this module's chunk, which loads only for messages with a code
 * fence: `../load.ts`). A fence's language is looked up by highlight.js's
 * own names and aliases, then by Zulip's (Pygments') name for it
 * (`py2` → "Python 2.x" → Python). A block without a language is
 * highlighted when its first line names one, as Zulip's codehilite does
 * (`#!python`, `#!/usr/bin/env python`, `:::python`); that line stays.
 * Anything else is not highlighted (the caller writes it plain).
 *
 * @see https://zulip.com/help/code-blocks
 */
import hljs from "highlight.js/lib/core";
import bash from "highlight.js/lib/languages/bash";
import c from "highlight.js/lib/languages/c";
import cpp from "highlight.js/lib/languages/cpp";
import csharp from "highlight.js/lib/languages/csharp";
import css from "highlight.js/lib/languages/css";
import diff from "highlight.js/lib/languages/diff";
import go from "highlight.js/lib/languages/go";
import java from "highlight.js/lib/languages/java";
import javascript from "highlight.js/lib/languages/javascript";
import json from "highlight.js/lib/languages/json";
import kotlin from "highlight.js/lib/languages/kotlin";
import latex from "highlight.js/lib/languages/latex";
import markdown from "highlight.js/lib/languages/markdown";
import php from "highlight.js/lib/languages/php";
import python from "highlight.js/lib/languages/python";
import ruby from "highlight.js/lib/languages/ruby";
import rust from "highlight.js/lib/languages/rust";
import scss from "highlight.js/lib/languages/scss";
import shell from "highlight.js/lib/languages/shell";
import sql from "highlight.js/lib/languages/sql";
import swift from "highlight.js/lib/languages/swift";
import typescript from "highlight.js/lib/languages/typescript";
import xml from "highlight.js/lib/languages/xml";
import yaml from "highlight.js/lib/languages/yaml";
import { codeLanguageName } from "../code-languages.js";
import {
  classifyGap,
  formatTokens,
  nodeText,
  parseHighlighted,
  scopeClass,
  type CodeToken,
  type GapStyle,
  type ScopeNode,
} from "./pygments-classes.js";

const LANGUAGES = {
  bash, c, cpp, csharp, css, diff, go, java, javascript, json, kotlin, latex, markdown,
  php, python, ruby, rust, scss, shell, sql, swift, typescript, xml, yaml,
};
for (const [name, definition] of Object.entries(LANGUAGES)) hljs.registerLanguage(name, definition);

/** Zulip's (Pygments') language names whose highlight.js name is not one of their aliases. */
const BY_PYGMENTS_NAME: Readonly<Record<string, string>> = {
  "Python 2.x": "python",
  "Python console session": "python",
  TeX: "latex",
  "Bash Session": "shell",
  HTML: "xml",
  JSX: "javascript",
  TSX: "typescript",
  "PostgreSQL SQL dialect": "sql",
  MySQL: "sql",
  "CSS+PHP": "php",
  "HTML+PHP": "php",
  "JavaScript+PHP": "php",
  "XML+PHP": "php",
};

/** Languages whose Pygments lexer marks bare names `nx` (Name.Other). */
const NAME_OTHER: ReadonlySet<string> = new Set(["javascript", "typescript", "php"]);
/** Languages whose unmarked text Pygments leaves plain. */
const PLAIN_GAPS: ReadonlySet<string> = new Set(["markdown", "xml", "diff", "yaml", "json"]);

function gapStyle(language: string): GapStyle {
  if (language === "latex") return { kind: "tex", name: "n" };
  return { kind: PLAIN_GAPS.has(language) ? "text" : "code", name: NAME_OTHER.has(language) ? "nx" : "n" };
}

/** The registered highlight.js language for a fence's language word, if any. */
export function highlightLanguage(word: string): string | undefined {
  const lower = word.toLowerCase();
  const direct = hljs.getLanguage(lower);
  if (direct) return Object.keys(LANGUAGES).find((name) => hljs.getLanguage(name) === direct);
  const byName = BY_PYGMENTS_NAME[codeLanguageName(lower)] ?? codeLanguageName(lower).toLowerCase();
  return hljs.getLanguage(byName) ? byName : undefined;
}

/** The language a block without one names on its first line (`#!python`, `#!/usr/bin/env bash`, `:::python`). */
function firstLineLanguage(code: string): string | undefined {
  const line = code.split("\n", 1)[0]!;
  const match = /^#!(?:\S*\/)?(?:env\s+)?([\w+#.-]+)/.exec(line) ?? /^:::([\w+#.-]+)\s*$/.exec(line);
  return match ? highlightLanguage(match[1]!.replace(/\d+(?:\.\d+)*$/, "")) : undefined;
}

/** Pygments-classed tokens of highlight.js's tree. */
function tokensOf(nodes: readonly ScopeNode[], language: string, style: GapStyle, offset: number, depth: number): CodeToken[] {
  const tokens: CodeToken[] = [];
  let position = offset;
  for (const node of nodes) {
    const text = nodeText(node);
    if (typeof node === "string") {
      tokens.push(...classifyGap(node, style));
    } else if (node.scope === "params" && depth === 0) {
      // highlight.js marks a parameter list without looking inside it; its
      // parts are highlighted like top-level code (`self` is a builtin there).
      for (const child of node.children) {
        if (typeof child === "string") tokens.push(...tokensOf(parseHighlighted(highlightHtml(child, language)), language, style, 1, depth + 1));
        else tokens.push(...tokensOf([child], language, style, 1, depth + 1));
      }
    } else if (node.scope === "meta" && language === "php" && text.startsWith("<?")) {
      // Zulip highlights PHP with `startinline`: the opening tag is an operator and a name.
      tokens.push({ cls: "o", text: "<?" }, ...classifyGap(text.slice(2), style));
    } else {
      const cls = scopeClass(node.scope, text, position === 0);
      if (cls !== undefined) tokens.push({ cls, text });
      else tokens.push(...tokensOf(node.children, language, style, position, depth));
    }
    position += text.length;
  }
  return tokens;
}

function highlightHtml(code: string, language: string): string {
  return hljs.highlight(code, { language, ignoreIllegals: true }).value;
}

/**
 * The highlighted HTML of a code block's content (inside `<code>`, without
 * the final newline), or undefined when the language is not one we
 * highlight: the caller then writes the code plain.
 * @param code the block's text, lines joined by `\n`, no trailing newline
 * @param language the fence's language word as typed (`py`, `JavaScript`), or undefined
 */
export function highlightCode(code: string, language: string | undefined): string | undefined {
  const name = language ? highlightLanguage(language) : firstLineLanguage(code);
  if (name === undefined) return undefined;
  const tokens = tokensOf(parseHighlighted(highlightHtml(code, name)), name, gapStyle(name), 0, 0);
  return formatTokens(tokens);
}
