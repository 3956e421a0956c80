/**
 * HTML escaping, in the three forms the wire uses. Each reproduces what
 * Zulip's server sends in that place, so clients see the same bytes.
 */

/**
 * Escapes text for HTML element content and double-quoted attribute values
 * (`& < > "`), as rendered messages do (Python-Markdown's output).
 */
export function escapeHtml(value: string): string {
  return value.replace(/[&<>"]/g, (ch) => (ch === "&" ? "&amp;" : ch === "<" ? "&lt;" : ch === ">" ? "&gt;" : "&quot;"));
}

/**
 * Django's `escape` (`django.utils.html.escape`): `& < > " '` as
 * `&amp; &lt; &gt; &quot; &#x27;` — how Zulip escapes a topic before
 * highlighting search terms in `match_subject`.
 */
export function djangoEscape(text: string): string {
  return text
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/"/g, "&quot;")
    .replace(/'/g, "&#x27;");
}

/**
 * Escapes text for HTML with numeric character references (`&` → `&#38;`,
 * `<` → `&#60;`, `>` → `&#62;`, `"` → `&#34;`, `'` → `&#39;`): how the
 * organization's plain-text description is put into `realm_description`
 * (https://zulip.com/api/get-server-settings, https://zulip.com/api/register-queue).
 */
export function escapeHtmlNumeric(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
