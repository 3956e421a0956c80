import { djangoEscape } from "../html.js";

/** HTML that is already safe to send: built by {@link html}, whose interpolations are escaped. */
export class SafeHtml {
  constructor(readonly value: string) {}
  toString(): string {
    return this.value;
  }
}

/**
 * A tagged template for email HTML: every interpolated value is escaped
 * (`& < > " '`, so it is safe in element content and in attribute values
 * quoted either way) unless it is itself {@link SafeHtml}; arrays are joined, and
 * `null`, `undefined` and `false` write nothing. So no user-controlled text
 * (a name, a topic, an organization's name) reaches an email unescaped.
 *
 * @example html`<p>${user.full_name} invited you to ${html`<b>${realm.name}</b>`}</p>`
 */
export function html(strings: TemplateStringsArray, ...values: unknown[]): SafeHtml {
  let out = strings[0] ?? "";
  values.forEach((value, i) => {
    out += render(value) + (strings[i + 1] ?? "");
  });
  return new SafeHtml(out);
}

function render(value: unknown): string {
  if (value === null || value === undefined || value === false) return "";
  if (value instanceof SafeHtml) return value.value;
  if (Array.isArray(value)) return value.map(render).join("");
  return djangoEscape(String(value));
}

/** The organization an email comes from, named in its header and footer. */
export interface EmailRealm {
  /** The organization's name (`realm_name`). */
  name: string;
  /** Its site, e.g. `https://chat.example.com`. */
  url: string;
}

/** What a template writes: the subject and the body in both forms. */
export interface EmailContent {
  subject: string;
  /** Plain text, lines separated by `\n`. */
  text: string;
  html: SafeHtml;
}

/**
 * Wraps a template's body in the layout every email shares: the
 * organization's name above, its site below (Zulip's `email_base` and its
 * footer), in plain text and in HTML. The sender's display name is the
 * organization's name (`From: <realm name> <noreply@…>`).
 * @returns the subject, both bodies and the sender's name, ready to spread into a `send_email` job
 */
export function layoutEmail(realm: EmailRealm, content: EmailContent): { subject: string; text: string; html: string; from_name: string } {
  const text = `${content.text.trimEnd()}\n\n--\n${realm.name}\n${realm.url}\n`;
  const body = html`<!DOCTYPE html>
<html>
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width"><title>${content.subject}</title></head>
<body style="margin:0;padding:0;background:#f5f5f5;font-family:-apple-system,'Segoe UI',Helvetica,Arial,sans-serif;font-size:15px;line-height:1.5;color:#222">
<div style="max-width:600px;margin:0 auto;padding:24px">
<div style="font-size:18px;font-weight:600;margin-bottom:16px">${realm.name}</div>
<div style="background:#fff;border-radius:6px;padding:24px">${content.html}</div>
<div style="margin-top:16px;font-size:13px;color:#666">${realm.name} · <a href="${realm.url}" style="color:#666">${realm.url}</a></div>
</div>
</body>
</html>
`;
  return { subject: content.subject, text, html: body.value, from_name: realm.name };
}
