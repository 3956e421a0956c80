/**
 * A small HTML-to-Markdown converter for the HTML part of incoming email
 * (Zulip's email gateway converts with `html2text`,
 * `convert_html_to_markdown`): paragraphs and line breaks, headings, bold
 * and italics, links, lists, block quotes (`> `), preformatted blocks
 * (fenced), inline code and images (as links). Everything else keeps its
 * text and loses its tags; `<head>`, `<style>`, `<script>` and comments go
 * whole. It is not a sanitizer: the result is Markdown that the message
 * renderer escapes like any other message's.
 *
 * Linear in the input: one pass over the tags, no backtracking regular
 * expressions over the whole document.
 */

/** Named entities mail clients commonly write; numeric ones are decoded generally. */
const NAMED_ENTITIES: Record<string, string> = {
  amp: "&",
  lt: "<",
  gt: ">",
  quot: '"',
  apos: "'",
  nbsp: " ",
  ndash: "–",
  mdash: "—",
  hellip: "…",
  lsquo: "‘",
  rsquo: "’",
  ldquo: "“",
  rdquo: "”",
  copy: "©",
  reg: "®",
  trade: "™",
  euro: "€",
  middot: "·",
  bull: "•",
};

/** Decodes HTML character references (named ones of {@link NAMED_ENTITIES}, decimal and hex); unknown ones stay as written. */
export function decodeHtmlEntities(text: string): string {
  return text.replace(/&(#[0-9]{1,7}|#[xX][0-9a-fA-F]{1,6}|[a-zA-Z]{2,8});/g, (whole, ref: string) => {
    if (ref.startsWith("#")) {
      const code = ref[1] === "x" || ref[1] === "X" ? Number.parseInt(ref.slice(2), 16) : Number.parseInt(ref.slice(1), 10);
      return code > 0 && code <= 0x10ffff && !(code >= 0xd800 && code <= 0xdfff) ? String.fromCodePoint(code) : whole;
    }
    return NAMED_ENTITIES[ref.toLowerCase()] ?? whole;
  });
}

/** Markers of block-quote depth changes, replaced by `> ` prefixes in a second pass (never in decoded text: private-use). */
const QUOTE_OPEN = "\uE000";
const QUOTE_CLOSE = "\uE001";

/** An attribute's value from a tag's attribute text (`href="…"`, `href='…'` or unquoted). */
function attribute(attrs: string, name: string): string | undefined {
  const match = new RegExp(`(?:^|\\s)${name}\\s*=\\s*(?:"([^"]*)"|'([^']*)'|([^\\s>]+))`, "i").exec(attrs);
  if (!match) return undefined;
  return decodeHtmlEntities(match[1] ?? match[2] ?? match[3] ?? "");
}

/**
 * Converts an email's HTML body to Markdown.
 * @param html the `text/html` part, decoded to a string
 * @returns Markdown with at most one blank line between blocks, trimmed
 */
export function htmlToMarkdown(html: string): string {
  const source = html
    .replace(/<!--[\s\S]*?-->/g, "")
    .replace(/<(head|style|script|title)\b[^>]*>[\s\S]*?<\/\1\s*>/gi, "");
  let out = "";
  let pre = 0;
  const links: (string | undefined)[] = [];
  const lists: { ordered: boolean; next: number }[] = [];
  let linkTextStart: number[] = [];
  const tag = /<(\/?)([a-zA-Z][a-zA-Z0-9]*)([^>]*)>/g;
  let last = 0;
  const text = (raw: string) => {
    const decoded = decodeHtmlEntities(raw.replace(/[\uE000\uE001]/g, ""));
    if (pre > 0) {
      out += decoded;
      return;
    }
    const collapsed = decoded.replace(/[ \t\r\n\f]+/g, " ");
    // A space at a line's start is noise from the source's indentation.
    out += /(^|\n)$/.test(out) ? collapsed.replace(/^ /, "") : collapsed;
  };
  const block = (separator: string) => {
    out = out.replace(/[ \t]+$/, "");
    if (out !== "" && !out.endsWith("\n")) out += "\n";
    if (separator === "\n\n" && out !== "" && !out.endsWith("\n\n")) out += "\n";
  };
  for (let match = tag.exec(source); match !== null; match = tag.exec(source)) {
    text(source.slice(last, match.index));
    last = tag.lastIndex;
    const closing = match[1] === "/";
    const name = match[2]!.toLowerCase();
    const attrs = match[3] ?? "";
    switch (name) {
      case "br":
        out = out.replace(/[ \t]+$/, "") + "\n";
        break;
      case "p":
      case "div":
      case "table":
      case "tr":
      case "section":
      case "article":
      case "header":
      case "footer":
        block(name === "p" ? "\n\n" : "\n");
        break;
      case "td":
      case "th":
        if (closing) out += " ";
        break;
      case "h1":
      case "h2":
      case "h3":
      case "h4":
      case "h5":
      case "h6":
        block("\n\n");
        if (!closing) out += `${"#".repeat(Number(name[1]))} `;
        break;
      case "hr":
        block("\n\n");
        out += "---\n\n";
        break;
      case "strong":
      case "b":
        out += "**";
        break;
      case "em":
      case "i":
        out += "*";
        break;
      case "code":
        if (pre === 0) out += "`";
        break;
      case "pre":
        block(closing ? "\n" : "\n\n");
        if (closing) {
          if (pre > 0) pre--;
          out += "```\n\n";
        } else {
          pre++;
          out += "```\n";
        }
        break;
      case "blockquote":
        block("\n\n");
        out += closing ? `${QUOTE_CLOSE}\n` : `${QUOTE_OPEN}\n`;
        break;
      case "ul":
      case "ol":
        block(closing || lists.length === 0 ? "\n\n" : "\n");
        if (closing) lists.pop();
        else lists.push({ ordered: name === "ol", next: 1 });
        break;
      case "li":
        if (closing) break;
        block("\n");
        {
          const list = lists[lists.length - 1];
          const indent = "  ".repeat(Math.max(0, lists.length - 1));
          out += list?.ordered ? `${indent}${list.next++}. ` : `${indent}- `;
        }
        break;
      case "a":
        if (closing) {
          const href = links.pop();
          const start = linkTextStart.pop() ?? out.length;
          if (href === undefined) break;
          const label = out.slice(start).trim();
          out = out.slice(0, start) + (label === "" || label === href ? href : `[${label.replace(/[[\]]/g, "")}](${href})`);
        } else {
          const href = attribute(attrs, "href");
          links.push(href !== undefined && /^(https?:|mailto:)/i.test(href) ? href : undefined);
          linkTextStart.push(out.length);
        }
        break;
      case "img": {
        const src = attribute(attrs, "src");
        const alt = attribute(attrs, "alt") ?? "";
        if (src !== undefined && /^https?:/i.test(src)) out += `[${alt.replace(/[[\]]/g, "") || "image"}](${src})`;
        else if (alt !== "") out += alt;
        break;
      }
      default:
        break;
    }
  }
  text(source.slice(last));
  linkTextStart = [];
  return quoteLines(out)
    .split("\n")
    .map((line) => line.replace(/[ \t]+$/, ""))
    .join("\n")
    .replace(/\n{3,}/g, "\n\n")
    .trim();
}

/** Replaces the block-quote markers by `> ` prefixes on the lines between them (nested quotes: `> > `). */
function quoteLines(markdown: string): string {
  let depth = 0;
  const lines: string[] = [];
  for (const line of markdown.split("\n")) {
    let rest = line;
    let opened = false;
    while (rest.startsWith(QUOTE_OPEN) || rest.startsWith(QUOTE_CLOSE)) {
      if (rest.startsWith(QUOTE_OPEN)) {
        depth++;
        opened = true;
      } else depth = Math.max(0, depth - 1);
      rest = rest.slice(1);
    }
    if ((opened || line !== rest) && rest.trim() === "") continue;
    lines.push(depth > 0 ? `${"> ".repeat(depth)}${rest}`.trimEnd() : rest);
  }
  // A bare `>` line stays only between two quoted lines with text (a paragraph break inside the quote).
  const bare = (l: string | undefined) => l !== undefined && /^(>\s*)+$/.test(l);
  const quoted = (l: string | undefined) => l !== undefined && l.startsWith(">") && !bare(l);
  return lines.filter((l, i) => !bare(l) || (quoted(lines[i - 1]) && quoted(lines[i + 1]))).join("\n");
}
