/**
 * The organization subdomain of a Host header below the root domain:
 * `acme.chat.example.com` → `acme`; the root domain itself, and any host
 * outside it (an API Gateway default domain, a bare IP), → `""`, the default
 * organization.
 * @param host Host header value, any case, with or without port
 * @param rootDomain configured `ROOT_DOMAIN`, with port where the server has one
 */
export function subdomainOf(host: string, rootDomain: string): string {
  const h = host.toLowerCase();
  const root = rootDomain.toLowerCase();
  if (h === root) return "";
  if (h.endsWith(`.${root}`)) return h.slice(0, -(root.length + 1));
  // Locally the root domain may be given without a port (or with one), so compare hostnames too.
  const hostName = h.replace(/:\d+$/, "");
  const rootName = root.replace(/:\d+$/, "");
  if (hostName === rootName) return "";
  if (hostName.endsWith(`.${rootName}`)) return hostName.slice(0, -(rootName.length + 1));
  return "";
}
