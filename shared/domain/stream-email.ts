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
