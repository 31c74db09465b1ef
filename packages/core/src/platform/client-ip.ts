// The client's IP address, for every limit keyed by IP (failed keys, sign-ins, help, the widget).
// Behind proxies it is what the chain of proxies says, read from the right: each trusted proxy
// appends the address it received the request from, so the entries left of the first untrusted
// one were written by the client and prove nothing.

import ipaddr from "ipaddr.js";
import type { TrustProxy } from "./trust-proxy.ts";

type Address = ipaddr.IPv4 | ipaddr.IPv6;

/** What the transport knows: the socket's peer and the X-Forwarded-For header (all of its lines joined with commas). */
export interface ClientAddressSource {
  socketAddress: string | null | undefined;
  forwardedFor: string | null | undefined;
}

/** The identifier of a request whose socket has no address (it closed before we asked). */
export const UNKNOWN_CLIENT = "unknown";

/**
 * One address as Node or a proxy writes it: IPv4 in four decimal parts, or IPv6, optionally with a
 * port (`203.0.113.5:4711`, `[2001:db8::1]:443`, as some proxies add). Null for anything else
 * (`unknown`, obfuscated names, garbage). IPv4-mapped IPv6 is taken as the IPv4 address, and an
 * IPv6 zone is dropped, so one client has one spelling.
 */
export function parseAddress(text: string): Address | null {
  let host = text.trim();
  const bracketed = /^\[([^\]]+)\](?::\d{1,5})?$/.exec(host);
  if (bracketed) host = bracketed[1] ?? "";
  else if (/^\d{1,3}(\.\d{1,3}){3}:\d{1,5}$/.test(host)) host = host.slice(0, host.lastIndexOf(":"));
  host = host.replace(/%.*$/, "");
  if (ipaddr.IPv4.isValidFourPartDecimal(host)) return ipaddr.IPv4.parse(host);
  if (!ipaddr.IPv6.isValid(host)) return null;
  const v6 = ipaddr.IPv6.parse(host);
  return v6.isIPv4MappedAddress() ? v6.toIPv4Address() : v6;
}

type Range = [Address, number];
const compiledProxies = new WeakMap<object, Range[]>();

/** The configured proxy ranges, parsed once per configuration. */
function proxyRanges(trust: { proxies: string[] }): Range[] {
  let ranges = compiledProxies.get(trust);
  if (!ranges) {
    ranges = trust.proxies.map((range) => ipaddr.parseCIDR(range));
    compiledProxies.set(trust, ranges);
  }
  return ranges;
}

function isTrustedProxy(address: Address, ranges: Range[]): boolean {
  return ranges.some(([network, bits]) => network.kind() === address.kind() && address.match(network, bits));
}

/**
 * The client's address in canonical form (`203.0.113.5`, `2001:db8::1`). The chain is the socket's
 * peer, then the X-Forwarded-For entries from right to left; each hop that is a trusted proxy
 * hands over to the next:
 * - TRUST_PROXY off: the peer;
 * - a hop count n: the n-th entry from the right (or the leftmost, when the chain is shorter);
 * - a list of proxies: the first address, from the peer leftwards, that is not one of them (or the
 *   leftmost, when all are).
 * An entry that is not an address ends the walk at the proxy that wrote it: that proxy's own
 * address is the best the app knows, and a client cannot pick an identifier that way.
 */
export function clientIp(trust: TrustProxy, source: ClientAddressSource): string {
  const peer = source.socketAddress ? parseAddress(source.socketAddress) : null;
  if (!peer) return UNKNOWN_CLIENT;
  if (trust === false) return peer.toString();

  const header = source.forwardedFor?.trim() ?? "";
  const entries = header === "" ? [] : header.split(",");
  const ranges = "proxies" in trust ? proxyRanges(trust) : null;
  let client = peer;
  for (let hop = 1; hop <= entries.length; hop++) {
    const trusted = ranges ? isTrustedProxy(client, ranges) : hop <= (trust as { hops: number }).hops;
    if (!trusted) break;
    const next = parseAddress(entries[entries.length - hop] ?? "");
    if (!next) break;
    client = next;
  }
  return client.toString();
}

/** The IPv6 prefix that names one client for the limits (a subscriber's network, RFC 6177). */
export const IPV6_LIMIT_PREFIX_BITS = 64;

/**
 * The client address as every limit keyed by address counts it: IPv4 as it is, IPv6 by its /64
 * network (`2001:db8:1:2::/64`). One host holds a whole /64 and may send from any of its 2^64
 * addresses (privacy addresses rotate within it), so a budget per full IPv6 address would limit
 * nothing. Anything that is not an address (`unknown`) is kept as it is. The address itself
 * (the audit log, sessions) stays whole: only the limits' keys are widened.
 */
export function limitAddress(ip: string): string {
  const address = parseAddress(ip);
  if (!address || address.kind() === "ipv4") return address ? address.toString() : ip;
  const bytes = address.toByteArray().slice(0, IPV6_LIMIT_PREFIX_BITS / 8);
  const network = ipaddr.fromByteArray([...bytes, ...new Array<number>(16 - bytes.length).fill(0)]);
  return `${network.toString()}/${IPV6_LIMIT_PREFIX_BITS}`;
}
