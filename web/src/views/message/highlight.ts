/**
 * Syntax highlighting of code blocks with highlight.js, in a chunk of its own
 * that the app loads only when a message shows a code block (Zulip's server
 * sends code unhighlighted with the language in `data-code-language`).
 */
import hljs from "highlight.js/lib/common";
import "../../styles/highlight.css";

/** Pygments names (the server's `data-code-language`) whose highlight.js name is not just the name in lower case. */
const HLJS_NAMES: Record<string, string> = {
  "python 2.x": "python",
  "python console session": "python-repl",
  "python traceback": "python",
  jsx: "javascript",
  tsx: "typescript",
  "bash session": "shell",
  html: "xml",
  "c++": "cpp",
  "c#": "csharp",
  "objective-c": "objectivec",
  "postgresql sql dialect": "sql",
  mysql: "sql",
  docker: "dockerfile",
  "text only": "plaintext",
  "emacs lisp": "lisp",
  "common lisp": "lisp",
};

/** The highlight.js language for a `data-code-language` value, or undefined when it has none loaded. */
export function hljsLanguage(pygmentsName: string): string | undefined {
  const lower = pygmentsName.toLowerCase();
  const name = HLJS_NAMES[lower] ?? lower;
  return hljs.getLanguage(name) ? name : undefined;
}

/**
 * Highlights every not yet highlighted code block under `root` in place.
 * highlight.js escapes the code it puts back, so the result holds no markup of the sender's.
 */
export function highlightCodeBlocks(root: ParentNode): void {
  for (const block of root.querySelectorAll<HTMLElement>("div.codehilite[data-code-language]")) {
    const code = block.querySelector("code");
    if (!code || code.classList.contains("hljs")) continue;
    const language = hljsLanguage(block.dataset.codeLanguage ?? "");
    if (!language) continue;
    code.innerHTML = hljs.highlight(code.textContent ?? "", { language, ignoreIllegals: true }).value;
    code.classList.add("hljs");
  }
}
