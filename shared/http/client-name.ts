/**
 * Zulip's client name of a request: the `client` parameter when sent, else
 * the product name at the start of the User-Agent (`ZulipPython/0.9.0 (...)`
 * → `ZulipPython`, `ZulipMobile/27.2 ...` → `ZulipMobile`), else `Unspecified`.
 * Recorded as a message's `client` field.
 */
export function clientNameOf(clientParam: string | undefined, userAgent: string | undefined): string {
  if (clientParam) return clientParam.slice(0, 30);
  if (!userAgent) return "Unspecified";
  const match = /^([^/ ]*[^0-9/(]*)/.exec(userAgent);
  const name = match?.[1]?.trim();
  return name ? name.slice(0, 30) : "Unspecified";
}
