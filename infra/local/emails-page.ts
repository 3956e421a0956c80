import type { IncomingMessage, ServerResponse } from "node:http";
import { escapeHtml } from "../../shared/html.js";
import { clearMailbox, listMailbox, readMailboxMessage, type MailboxMessage } from "../../shared/mail/mailbox.js";

/**
 * The local stack's `/emails` page, like Zulip's development `/emails`:
 * every email the stack "sent" (the `.eml` files of its mailbox), newest
 * first, each opening to show the message, and a button that clears the
 * mailbox. Served by the local HTTP adapter only (`infra/local/adapter.ts`),
 * before the route table is consulted: no Lambda and no route has it, so a
 * deployed stack never shows anyone's mail.
 *
 * - `GET /emails`: the list (date, recipient, subject, template).
 * - `GET /emails/<file>`: one message: its headers, the HTML body in a
 *   sandboxed frame (no scripts, no access to this page; links open in a
 *   new tab), the plain text with its links clickable, and the raw message.
 * - `POST /emails/clear`: deletes every email, then back to the list (303).
 *
 * Every value from a message is escaped; the HTML body goes only into the
 * frame's `srcdoc` attribute, escaped as an attribute value.
 */
export const EMAILS_PATH = "/emails";

/** Whether the local adapter should hand this request to {@link serveEmailsPage}. */
export function isEmailsPath(pathname: string): boolean {
  return pathname === EMAILS_PATH || pathname.startsWith(`${EMAILS_PATH}/`);
}

/**
 * The page's policy: nothing but its own inline styles, the message's images
 * and the `srcdoc` frame (which inherits this policy, so the email's HTML
 * runs no script even were the sandbox gone).
 */
const CSP = "default-src 'none'; style-src 'unsafe-inline'; img-src http: https: data:; frame-src 'self'; form-action 'self'; frame-ancestors 'none'";

const STYLE = `body{font-family:-apple-system,'Segoe UI',Helvetica,Arial,sans-serif;margin:24px;color:#222}
table{border-collapse:collapse;width:100%}th,td{text-align:left;padding:6px 10px;border-bottom:1px solid #ddd;vertical-align:top}
th{background:#f5f5f5}td.date{white-space:nowrap;color:#555}code{font-size:12px}
iframe{width:100%;height:520px;border:1px solid #ccc;background:#fff}pre{white-space:pre-wrap;background:#f7f7f7;padding:12px;border:1px solid #ddd}
dl{display:grid;grid-template-columns:max-content 1fr;gap:4px 12px}dt{font-weight:600}dd{margin:0}
header{display:flex;gap:16px;align-items:center}form{margin:0}`;

/**
 * Answers a request under {@link EMAILS_PATH} from the mailbox folder.
 * @param mailDir the local stack's mailbox (`stack.mailDir`)
 */
export async function serveEmailsPage(mailDir: string, req: IncomingMessage, res: ServerResponse, pathname: string): Promise<void> {
  const method = (req.method ?? "GET").toUpperCase();
  const rest = pathname.slice(EMAILS_PATH.length).replace(/^\//, "");
  if (rest === "clear") {
    if (method !== "POST") return send(res, 405, page("Method not allowed", "<p>Use the Clear button.</p>"), { allow: "POST" });
    // A page elsewhere must not clear a developer's mailbox by posting a form here.
    if (!sameOrigin(req)) return send(res, 403, page("Forbidden", "<p>Cross-origin request refused.</p>"));
    await clearMailbox(mailDir);
    res.writeHead(303, { location: EMAILS_PATH, "cache-control": "no-store" });
    res.end();
    return;
  }
  if (method !== "GET" && method !== "HEAD") return send(res, 405, page("Method not allowed", ""), { allow: "GET, HEAD" });
  if (rest === "") return send(res, 200, await listPage(mailDir));
  const message = await readMailboxMessage(mailDir, decodeSegment(rest));
  if (!message) return send(res, 404, page("No such email", `<p>It may have been cleared. <a href="${EMAILS_PATH}">All emails</a></p>`));
  return send(res, 200, messagePage(message));
}

async function listPage(mailDir: string): Promise<string> {
  const emails = await listMailbox(mailDir);
  const rows = emails
    .map(
      (m) => `<tr><td class="date">${escapeHtml(m.date)}</td><td>${escapeHtml(m.to)}</td>` +
        `<td><a href="${EMAILS_PATH}/${encodeURIComponent(m.file)}">${escapeHtml(m.subject || "(no subject)")}</a></td>` +
        `<td><code>${escapeHtml(m.template)}</code></td></tr>`,
    )
    .join("\n");
  const body = `<header><h1>Emails</h1>${clearButton()}</header>
<p>Every email this local server sent, newest first. They are files in <code>${escapeHtml(mailDir)}</code>.</p>
${emails.length === 0 ? `<p id="empty">No emails yet.</p>` : `<table><thead><tr><th>Date</th><th>To</th><th>Subject</th><th>Template</th></tr></thead><tbody>\n${rows}\n</tbody></table>`}`;
  return page("Emails", body);
}

function messagePage(m: MailboxMessage): string {
  const field = (name: string, value: string) => (value ? `<dt>${name}</dt><dd>${escapeHtml(value)}</dd>` : "");
  const frameDoc = withBaseTarget(m.html);
  const body = `<header><a href="${EMAILS_PATH}">← All emails</a>${clearButton()}</header>
<h1>${escapeHtml(m.subject || "(no subject)")}</h1>
<dl>${field("Date", m.date)}${field("From", m.from)}${field("To", m.to)}${field("Reply-To", m.replyTo)}${field("Template", m.template)}${field("File", m.file)}</dl>
<h2>HTML</h2>
${m.html ? `<iframe title="HTML body" sandbox="allow-popups allow-popups-to-escape-sandbox" srcdoc="${escapeHtml(frameDoc)}"></iframe>` : "<p>(none)</p>"}
<h2>Plain text</h2>
<pre id="text">${linkify(m.text)}</pre>
<details><summary>Raw message</summary><pre>${escapeHtml(m.raw)}</pre></details>`;
  return page(m.subject || "Email", body);
}

/**
 * The email's HTML with `<base target="_blank">` at the start of its head
 * (before anything else would put a full document in quirks mode), so its
 * links open in a new tab rather than inside the frame.
 */
export function withBaseTarget(emailHtml: string): string {
  const base = `<base target="_blank">`;
  const head = /<head(\s[^>]*)?>/i.exec(emailHtml);
  if (!head) return base + emailHtml;
  const at = head.index + head[0].length;
  return emailHtml.slice(0, at) + base + emailHtml.slice(at);
}

/** Plain text as HTML: escaped, its `http(s)` links made clickable (opening in a new tab). */
export function linkify(text: string): string {
  let out = "";
  let last = 0;
  for (const match of text.matchAll(/https?:\/\/[^\s<>"]+/g)) {
    // A sentence's closing punctuation is not part of the link.
    const url = match[0].replace(/[.,;:!?)\]']+$/, "");
    out += escapeHtml(text.slice(last, match.index)) + `<a href="${escapeHtml(url)}" target="_blank" rel="noopener noreferrer">${escapeHtml(url)}</a>`;
    last = match.index + url.length;
  }
  return out + escapeHtml(text.slice(last));
}

function clearButton(): string {
  return `<form method="post" action="${EMAILS_PATH}/clear"><button type="submit">Clear</button></form>`;
}

function page(title: string, body: string): string {
  return `<!DOCTYPE html>
<html lang="en">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width"><title>${escapeHtml(title)}</title><style>${STYLE}</style></head>
<body>
${body}
</body>
</html>
`;
}

function send(res: ServerResponse, status: number, html: string, headers: Record<string, string> = {}): void {
  res.writeHead(status, {
    "content-type": "text/html; charset=utf-8",
    "content-security-policy": CSP,
    "x-content-type-options": "nosniff",
    "referrer-policy": "no-referrer",
    "cache-control": "no-store",
    ...headers,
  });
  res.end(html);
}

/** A form post from this very page: an `Origin` (or, lacking one, `Referer`) of the request's own host, or neither (curl). */
function sameOrigin(req: IncomingMessage): boolean {
  const claimed = req.headers.origin ?? req.headers.referer;
  if (claimed === undefined) return true;
  try {
    return new URL(claimed).host === req.headers.host;
  } catch {
    return false;
  }
}

function decodeSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return "";
  }
}
