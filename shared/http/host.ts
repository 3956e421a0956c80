/**
 * The organization subdomain of a Host header: `acme.chat.example.com` →
 * `acme`; the root domain itself → `""`, the default organization; a host
 * outside the root domain (another name, a bare IP) → `undefined`, which the
 * caller refuses as Zulip refuses hosts it is not configured for.
 * @param host Host header value, any case, with or without port
 * @param rootDomain configured `ROOT_DOMAIN`, with port where the server has one
 */
export function subdomainOf(host: string, rootDomain: string): string | undefined {
  const h = host.toLowerCase();
  const root = rootDomain.toLowerCase();
  if (h === root) return "";
  if (h.endsWith(`.${root}`)) return h.slice(0, -(root.length + 1));
  // Locally the root domain may be given without a port (or with one), so compare hostnames too.
  const hostName = h.replace(/:\d+$/, "");
  const rootName = root.replace(/:\d+$/, "");
  if (hostName === rootName) return "";
  if (hostName.endsWith(`.${rootName}`)) return hostName.slice(0, -(rootName.length + 1));
  return undefined;
}
