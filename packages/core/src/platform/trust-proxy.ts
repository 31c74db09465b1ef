// TRUST_PROXY: which peers may tell the app the client's address in X-Forwarded-For. Parsed once
// with the app's settings; clientIp() (platform/client-ip.ts) applies it to each request.
import ipaddr from "ipaddr.js";

/**
 * - `false`: no proxy; the socket's peer is the client and X-Forwarded-For is ignored.
 * - `{ hops }`: exactly that many proxies stand in front of the app (the socket's peer is the
 *   nearest); the client is the entry that many places from the right of X-Forwarded-For.
 * - `{ proxies }`: the proxies' addresses, as CIDR ranges (`10.0.0.0/8`, `2001:db8::/32`; a single
 *   address is a /32 or /128); the client is the rightmost address that is not one of them.
 */
export type TrustProxy = false | { hops: number } | { proxies: string[] };

/** More hops than any real chain of proxies; a bigger number is a typo. */
export const TRUST_PROXY_MAX_HOPS = 20;

/**
 * An address or CIDR range as written, in canonical form (`10.0.0.0/8`), or null. IPv4 must be
 * four decimal parts (no `127.1`, no octal); an IPv4-mapped IPv6 range becomes the IPv4 range, as
 * clientIp() compares IPv4-mapped peers as IPv4.
 */
export function parseProxyRange(text: string): string | null {
  const [address = "", bits, ...rest] = text.split("/");
  if (rest.length > 0 || (bits !== undefined && !/^\d{1,3}$/.test(bits))) return null;
  let parsed: ipaddr.IPv4 | ipaddr.IPv6;
  if (ipaddr.IPv4.isValidFourPartDecimal(address)) parsed = ipaddr.IPv4.parse(address);
  else if (ipaddr.IPv6.isValid(address) && !address.includes("%")) parsed = ipaddr.IPv6.parse(address);
  else return null;
  let prefix = bits === undefined ? (parsed.kind() === "ipv4" ? 32 : 128) : Number(bits);
  if (prefix > (parsed.kind() === "ipv4" ? 32 : 128)) return null;
  if (parsed.kind() === "ipv6" && (parsed as ipaddr.IPv6).isIPv4MappedAddress() && prefix >= 96) {
    parsed = (parsed as ipaddr.IPv6).toIPv4Address();
    prefix -= 96;
  }
  return `${parsed.toString()}/${prefix}`;
}

/** TRUST_PROXY's value: unset, `false`/`0`, `true` (one hop), a hop count, or a comma-separated list of proxies. */
export function parseTrustProxy(value: string | undefined): { ok: true; value: TrustProxy } | { ok: false; error: string } {
  const text = (value ?? "").trim();
  if (text === "" || text === "false" || text === "0") return { ok: true, value: false };
  if (text === "true") return { ok: true, value: { hops: 1 } };
  if (/^\d+$/.test(text)) {
    const hops = Number(text);
    if (hops > TRUST_PROXY_MAX_HOPS) return { ok: false, error: `a hop count must be at most ${TRUST_PROXY_MAX_HOPS}` };
    return { ok: true, value: { hops } };
  }
  const proxies: string[] = [];
  for (const entry of text.split(",")) {
    const range = parseProxyRange(entry.trim());
    if (range === null) {
      return {
        ok: false,
        error: `must be true, false, a hop count or a comma-separated list of proxy IP addresses or CIDR ranges ("${entry.trim().slice(0, 60)}" is none of these)`,
      };
    }
    proxies.push(range);
  }
  return { ok: true, value: { proxies } };
}
