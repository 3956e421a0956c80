/**
 * Parses an HTTP Basic `Authorization` header (RFC 7617).
 * @returns `{username, password}`, or undefined when the header is absent,
 *   not Basic, or not decodable
 */
export function parseBasicAuth(header: string | undefined): { username: string; password: string } | undefined {
  if (!header) return undefined;
  const match = /^Basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(header);
  if (!match) return undefined;
  const decoded = Buffer.from(match[1]!, "base64").toString("utf8");
  const colon = decoded.indexOf(":");
  if (colon < 0) return undefined;
  return { username: decoded.slice(0, colon), password: decoded.slice(colon + 1) };
}
