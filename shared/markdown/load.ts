/**
 * The Markdown renderer and the HTML differ, loaded on first use.
 *
 * `render.ts` and what it imports (micromark, its GFM extensions, the HTML
 * entity and emoji name tables, the list of top-level domains: about
 * 175 KiB of a bundle) are reached only through this dynamic `import()`, so
 * the bundler puts them in a chunk of their own (infra/bundling.ts) that a
 * function loads on its first rendering, not on every cold start: most
 * requests of the functions that can render (reading messages, listing
 * streams, editing a topic) render nothing. Import types from `render.ts`
 * or `types.ts` freely (`import type` loads nothing); import values from it
 * only through {@link loadMarkdownRenderer}.
 */

/** The renderer module: `renderMarkdown`, `collectReferences`, `RENDERED_VERSION`. */
export type MarkdownRenderer = typeof import("./render.js");

/**
 * The renderer module, imported once per process (Node caches the module;
 * later calls resolve at once). Start it before the reads that precede a
 * rendering so that loading overlaps them.
 * @returns the module of `shared/markdown/render.ts`
 * @throws Error when the module cannot be loaded (a bundle built without its chunk)
 */
export function loadMarkdownRenderer(): Promise<MarkdownRenderer> {
  return import("./render.js");
}

/**
 * The differ of message edit history (`html-diff.ts` and the `diff`
 * package, about 4 KiB), loaded on first use: only `GET
 * /messages/{id}/history` of a message with content edits needs it.
 * @returns the module of `shared/markdown/html-diff.ts`
 * @throws Error when the module cannot be loaded (a bundle built without its chunk)
 */
export function loadHtmlDiff(): Promise<typeof import("./html-diff.js")> {
  return import("./html-diff.js");
}

/**
 * The code highlighter (`highlight/highlight.ts`: highlight.js and its
 * registered languages, about 130 KiB), loaded on first use in a chunk of
 * its own: only a message with a code fence needs it. Pass its
 * `highlightCode` to the renderer (`RenderLookups.highlightCode`).
 * @returns the module of `shared/markdown/highlight/highlight.ts`
 * @throws Error when the module cannot be loaded (a bundle built without its chunk)
 */
export function loadCodeHighlighter(): Promise<typeof import("./highlight/highlight.js")> {
  return import("./highlight/highlight.js");
}

/** Whether `content` may hold a code block that names a language (a ```` ``` ```` or `~~~` fence): then load the highlighter. */
export function mayHaveCodeFence(content: string): boolean {
  return content.includes("```") || content.includes("~~~");
}

/**
 * The free-form `<time:…>` reader (`free-form-time.ts` and date-fns'
 * parser, about 25 KiB), loaded on first use in a chunk of its own: only a
 * message with a global time that is not ISO 8601 needs it. Pass its
 * `parseFreeFormTime` to the renderer (`RenderLookups.parseFreeFormTime`).
 * @returns the module of `shared/markdown/free-form-time.ts`
 * @throws Error when the module cannot be loaded (a bundle built without its chunk)
 */
export function loadFreeFormTimeParser(): Promise<typeof import("./free-form-time.js")> {
  return import("./free-form-time.js");
}

/** Whether `content` may hold a global time (`<time:…>`): then load the free-form time reader. */
export function mayHaveGlobalTime(content: string): boolean {
  return content.includes("<time:");
}
