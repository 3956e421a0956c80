/**
 * URL helpers for rendered messages.
 */

/**
 * Zulip's `hash_util_encode`: percent-encode everything but `[A-Za-z0-9_.~-]`
 * (Python `quote(s, safe="")`), then `.` → `%2E` and `%` → `.`, so the result
 * survives in a URL fragment. E.g. `"my topic"` → `my.20topic`.
 */
export function hashEncode(value: string): string {
  return encodeURIComponent(value)
    .replace(/[!'()*]/g, (ch) => "%" + ch.charCodeAt(0).toString(16).toUpperCase())
    .replace(/\./g, "%2E")
    .replace(/%/g, ".");
}

/** Zulip's channel slug in narrow URLs: `<id>-<name with spaces as dashes, hash-encoded>`. */
export function channelSlug(id: number, name: string): string {
  return `${id}-${hashEncode(name.replace(/ /g, "-"))}`;
}

/** `/#narrow/channel/<slug>` (feature level 250+ spells it `channel`). */
export function channelNarrowUrl(id: number, name: string): string {
  return `/#narrow/channel/${channelSlug(id, name)}`;
}

/** `/#narrow/channel/<slug>/topic/<hash-encoded topic>`. */
export function topicNarrowUrl(id: number, name: string, topic: string): string {
  return `${channelNarrowUrl(id, name)}/topic/${hashEncode(topic)}`;
}

/**
 * `/#narrow/dm/<id>-<name>` for a one-to-one conversation with one other
 * user, `/#narrow/dm/<id>,<id>-group` for a group (Zulip's
 * `personal_narrow_url` / `direct_message_group_narrow_url`: the other
 * participants' IDs ascending; the web app's `dmHash` reads both).
 */
export function dmNarrowUrl(others: readonly { id: number; full_name: string }[]): string {
  const sorted = [...others].sort((a, b) => a.id - b.id);
  const [only] = sorted;
  if (sorted.length === 1 && only) {
    const slug = only.full_name.replace(/[\s/"%<>`]+/g, "-");
    return `/#narrow/dm/${only.id}-${hashEncode(slug)}`;
  }
  return `/#narrow/dm/${sorted.map((u) => u.id).join(",")}-group`;
}

/**
 * The schemes a link may use: http(s), ftp, file and the HTML standard's
 * safelisted schemes — the same list Zulip allows. Anything else
 * (`javascript:`, `data:`, `vbscript:`, app schemes) is not linked.
 */
const ALLOWED_SCHEMES = new Set([
  "http", "https", "ftp", "file",
  "bitcoin", "geo", "im", "irc", "ircs", "magnet", "mailto", "matrix", "mms", "news", "nntp",
  "openpgp4fpr", "sip", "sms", "smsto", "ssh", "tel", "urn", "webcal", "wtai", "xmpp",
]);

/** Characters kept as they are in an href; everything else is percent-encoded. */
const URL_SAFE = /[A-Za-z0-9!#$%&'()*+,\-./:;=?@[\]_~]/;

function percentEncode(url: string): string {
  let out = "";
  for (const ch of url) {
    if (URL_SAFE.test(ch)) {
      out += ch;
    } else {
      out += encodeURIComponent(ch);
    }
  }
  // A `%` not starting an escape would make the URL invalid.
  return out.replace(/%(?![0-9A-Fa-f]{2})/g, "%25");
}

/**
 * Sanitizes a link destination the way Zulip's `sanitize_url` does, then
 * percent-encodes it. Returns `undefined` when the link must not be rendered
 * (a scheme outside {@link ALLOWED_SCHEMES}).
 *
 * - `/path`, `#fragment`, `?query`: kept (relative to the organization).
 * - No scheme: `user@host` → `mailto:`, anything else gets `http://` (Zulip
 *   links `example.com/x` as `http://example.com/x`).
 * - Control characters and spaces are stripped/encoded, so no attribute or
 *   scheme smuggling (`java\nscript:`) gets through.
 *
 * The result still needs `escapeHtml` (shared/html.ts) before going into an attribute.
 */
export function sanitizeUrl(raw: string): string | undefined {
  // eslint-disable-next-line no-control-regex
  const url = raw.trim().replace(/[\u0000-\u001f\u007f]/g, "");
  if (url === "") return undefined;
  if (url.startsWith("/") || url.startsWith("#") || url.startsWith("?")) {
    // `//host` is protocol-relative: an absolute link, fine for http(s).
    return percentEncode(url);
  }
  const scheme = /^([A-Za-z][A-Za-z0-9+.-]*):/.exec(url);
  if (scheme) {
    if (!ALLOWED_SCHEMES.has(scheme[1].toLowerCase())) {
      // `localhost:9991/x` and `example.com:8080` are host:port, not schemes.
      if (!/^[A-Za-z0-9.-]+:\d+(?:[/?#]|$)/.test(url)) return undefined;
      return percentEncode("http://" + url);
    }
    return percentEncode(url);
  }
  if (!url.includes("/") && url.includes("@")) return percentEncode("mailto:" + url);
  return percentEncode("http://" + url);
}

/**
 * Zulip's `rewrite_local_links_to_relative`: a link into this organization's
 * web app (`<realm>/#narrow/…`) or uploads (`<realm>/user_uploads/…`) is made
 * relative, so clients open it in place.
 */
export function relativizeLocalUrl(href: string, realmUrl: string): string {
  if (!realmUrl) return href;
  const prefix = realmUrl + "/";
  if (href.startsWith(prefix + "#") || href.startsWith(prefix + "user_uploads/")) {
    return href.slice(prefix.length);
  }
  return href;
}

const IMAGE_EXTENSION = /\.(?:bmp|gif|jpe?g|png|webp|avif|heic)$/i;

/**
 * The `/user_uploads/` path id of an (already relativized) href, e.g.
 * `user_uploads/2/ab/xyz/file.png` → `2/ab/xyz/file.png`; `undefined` for
 * other links.
 */
export function uploadPathId(href: string): string | undefined {
  const match = /^\/?user_uploads\/(\d+\/[^?#]+)/.exec(href);
  return match ? decodeURIComponentSafe(match[1]) : undefined;
}

/** Whether an upload path names an image (Zulip's `has_image`). */
export function isImagePath(path: string): boolean {
  return IMAGE_EXTENSION.test(path);
}

function decodeURIComponentSafe(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}

/**
 * Zulip links a bare URL or email only where it ends: after it may come
 * closing punctuation (`!:;?),.'">`), then whitespace or the end of the
 * text (`http://x.com<b>` and `a@b.com/x` stay text). A Markdown delimiter
 * (`*`, `_`, `~`, `|`) also ends the text Zulip looks at.
 * @param source the whole content being rendered
 * @param offset where the link's text ends in `source`
 */
export function endsAtLinkBoundary(source: string, offset: number): boolean {
  return /^[!:;?),.'">]*(?:$|[\s*_~|])/.test(source.slice(offset, offset + 64));
}

/** Zulip's URL pattern matches parentheses nested this deep at most; a deeper URL is not linked. */
const MAX_LINK_PAREN_DEPTH = 6;

/** Whether `url` nests parentheses no deeper than Zulip links (six levels). */
export function withinLinkNesting(url: string): boolean {
  let depth = 0;
  let deepest = 0;
  for (const ch of url) {
    if (ch === "(") deepest = Math.max(deepest, ++depth);
    else if (ch === ")") depth = Math.max(0, depth - 1);
  }
  return deepest <= MAX_LINK_PAREN_DEPTH;
}
