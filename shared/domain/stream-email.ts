/**
 * The incoming-email address of a stream, in Zulip's form
 * (`encode_email_address_helper`, `show_sender` on as `GET
 * /streams/{stream_id}/email_address` asks):
 * `<name slug>.<email token>.show-sender@<domain>`.
 *
 * The name slug: every run of non-word characters (Unicode letters, digits
 * and `_` are word characters) becomes one `-`, then the result is reduced
 * to ASCII the way Django's `slugify` does (compatibility decomposition,
 * non-ASCII dropped, lower-cased, `-`/space runs collapsed, `-` and `_`
 * trimmed at both ends). When that loses characters (a name in a non-Latin
 * script) the slug would mangle the name, so the address has no name part:
 * `<token>.show-sender@<domain>`.
 * @param name the stream's current name
 * @param token the stream's email token (32 hex digits)
 * @param domain the gateway's domain, e.g. `example.com`
 * @see https://zulip.com/api/get-stream-email-address
 */
export function streamEmailAddress(name: string, token: string, domain: string): string {
  const hyphenated = name.replace(/[^\p{L}\p{N}_]+/gu, "-");
  const slug = djangoSlugify(hyphenated);
  const encoded = slug.length === hyphenated.length && slug !== "" ? `${slug}.${token}` : token;
  return `${encoded}.show-sender@${domain}`;
}

/** Django's `slugify` without `allow_unicode`. */
function djangoSlugify(value: string): string {
  const ascii = value.normalize("NFKD").replace(/[^\x00-\x7f]/g, "");
  return ascii
    .replace(/[^\w\s-]/g, "")
    .toLowerCase()
    .trim()
    .replace(/[-\s]+/g, "-")
    .replace(/^[-_]+|[-_]+$/g, "");
}

/** The gateway domain: the configured one, else the host name of the site's root domain (without its port). */
export function emailGatewayDomain(config: { EMAIL_GATEWAY_DOMAIN?: string; ROOT_DOMAIN: string }): string {
  return config.EMAIL_GATEWAY_DOMAIN ?? config.ROOT_DOMAIN.replace(/:\d+$/, "");
}

/** The options an incoming-email address may carry between its dots (or `+`), as Zulip's email gateway reads them. */
export interface GatewayAddressOptions {
  /** `show-sender`: the message starts with `From: <the email's From header>`. */
  showSender: boolean;
  /** `include-footer`: keep what follows a lone `--` line (a signature). */
  includeFooter: boolean;
  /** `include-quotes`: keep quoted replies; unset: kept only for forwarded mail (Zulip's default). */
  includeQuotes?: boolean;
  /** `prefer-html` (false) / `prefer-text` (true, the default): which body part is used when both exist. */
  preferText: boolean;
}

/** The most dot- or plus-separated parts an address's local part may have (name, token and each option once). */
const MAX_ADDRESS_PARTS = 8;

/**
 * Reads an incoming-email address back (Zulip's `decode_email_address`):
 * the local part of an address at the gateway's `domain`, split at `.` and
 * `+` (old addresses used `+`), its option words (`show-sender`,
 * `include-footer`, `include-quotes`, `prefer-text`, `prefer-html`) taken
 * out; of the one or two parts left, the token is the last
 * (`<name slug>.<token>` or `<token>`). The token's form is checked (32 hex
 * digits, the only one {@link streamEmailAddress} hands out), so a guessed
 * address costs no table read.
 * @param address an address as a recipient header names it (any case)
 * @param domain the gateway's domain ({@link emailGatewayDomain})
 * @returns the token (lower-cased) and options; undefined for an address that is not the gateway's
 * @see https://zulip.com/help/message-a-channel-by-email
 */
export function decodeStreamEmailAddress(
  address: string,
  domain: string,
): { token: string; options: GatewayAddressOptions } | undefined {
  const at = address.lastIndexOf("@");
  if (at <= 0 || address.slice(at + 1).toLowerCase() !== domain.toLowerCase()) return undefined;
  const parts = address.slice(0, at).toLowerCase().split(/[.+]/);
  if (parts.length > MAX_ADDRESS_PARTS) return undefined;
  const options: GatewayAddressOptions = { showSender: false, includeFooter: false, preferText: true };
  const rest: string[] = [];
  for (const part of parts) {
    if (part === "show-sender") options.showSender = true;
    else if (part === "include-footer") options.includeFooter = true;
    else if (part === "include-quotes") options.includeQuotes = true;
    else if (part === "prefer-text") options.preferText = true;
    else if (part === "prefer-html") options.preferText = false;
    else rest.push(part);
  }
  if (rest.length < 1 || rest.length > 2) return undefined;
  const token = rest[rest.length - 1]!;
  return /^[0-9a-f]{32}$/.test(token) ? { token, options } : undefined;
}
