// The SSRF guard of webhook URLs. An endpoint URL must be https and its host must not be (or
// resolve to) a private, loopback, link-local, unique-local or otherwise non-public address. The
// URL is checked when it is saved and again on every attempt, on the addresses the connection
// then uses (no second lookup between the check and the connection, so DNS rebinding gains
// nothing). `allowLocal` (WEBHOOKS_ALLOW_LOCAL) turns the guard off for tests and development.
import { lookup } from "node:dns/promises";
import { BlockList, isIP } from "node:net";
import { WEBHOOK_URL_MAX_CHARS } from "../limits.ts";

/** Resolves a host name to its IP addresses (injected in tests). */
export type Resolver = (hostname: string) => Promise<string[]>;

export interface UrlPolicy {
  /** Allow http:// and local addresses (tests, development). */
  allowLocal: boolean;
  resolve: Resolver;
}

export const systemResolver: Resolver = async (hostname) =>
  (await lookup(hostname, { all: true, verbatim: true })).map((entry) => entry.address);

export class BlockedUrlError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "BlockedUrlError";
  }
}

/** The host name did not resolve (a failed attempt, but not a reason to refuse saving the URL). */
export class UnresolvedHostError extends BlockedUrlError {
  constructor(host: string) {
    super(`The host name ${host} could not be resolved.`);
    this.name = "UnresolvedHostError";
  }
}

const blocked = new BlockList();
for (const [network, prefix] of [
  ["0.0.0.0", 8], // "this" network
  ["10.0.0.0", 8], // private
  ["100.64.0.0", 10], // carrier-grade NAT
  ["127.0.0.0", 8], // loopback
  ["169.254.0.0", 16], // link-local (cloud metadata services)
  ["172.16.0.0", 12], // private
  ["192.0.0.0", 24], // IETF protocol assignments
  ["192.0.2.0", 24], // documentation
  ["192.88.99.0", 24], // 6to4 relay
  ["192.168.0.0", 16], // private
  ["198.18.0.0", 15], // benchmarking
  ["198.51.100.0", 24], // documentation
  ["203.0.113.0", 24], // documentation
  ["224.0.0.0", 4], // multicast
  ["240.0.0.0", 4], // reserved, broadcast
] as const) {
  blocked.addSubnet(network, prefix, "ipv4");
}
for (const [network, prefix] of [
  ["::", 128], // unspecified
  ["::1", 128], // loopback
  ["64:ff9b::", 96], // NAT64
  ["64:ff9b:1::", 48], // local-use NAT64
  ["100::", 64], // discard
  ["2001::", 23], // IETF protocol assignments (Teredo, ...)
  ["2001:db8::", 32], // documentation
  ["2002::", 16], // 6to4
  ["fc00::", 7], // unique local
  ["fe80::", 10], // link-local
  ["fec0::", 10], // site-local (deprecated)
  ["ff00::", 8], // multicast
] as const) {
  blocked.addSubnet(network, prefix, "ipv6");
}

/** True for an address a webhook may not be sent to. Anything that is not an IP address is refused too. */
export function isBlockedAddress(address: string): boolean {
  const version = isIP(address);
  if (version === 4) return blocked.check(address, "ipv4");
  if (version === 6) {
    // IPv4-mapped addresses (::ffff:a.b.c.d) are refused whatever they carry: no public host needs one.
    // (Node's BlockList would also match them against IPv4 rules, and IPv4 addresses against an
    // IPv6 rule for ::ffff:0:0/96, so the check is done here.)
    if (/^::ffff:/i.test(new URL(`http://[${address}]`).hostname.slice(1, -1))) return true;
    return blocked.check(address, "ipv6");
  }
  return true;
}

/** The URL's host without IPv6 brackets. */
function hostOf(url: URL): string {
  return url.hostname.startsWith("[") ? url.hostname.slice(1, -1) : url.hostname;
}

/** Parses and checks the form of a webhook URL (scheme, length, credentials, literal addresses). */
export function parseWebhookUrl(text: string, policy: Pick<UrlPolicy, "allowLocal">): URL {
  if (text.length > WEBHOOK_URL_MAX_CHARS) throw new BlockedUrlError(`The URL is longer than ${WEBHOOK_URL_MAX_CHARS} characters.`);
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new BlockedUrlError("Enter a full URL, such as https://example.com/webhooks.");
  }
  const schemes = policy.allowLocal ? ["https:", "http:"] : ["https:"];
  if (!schemes.includes(url.protocol)) throw new BlockedUrlError("The URL must start with https://.");
  if (url.username || url.password) throw new BlockedUrlError("The URL must not contain a user name or password.");
  if (url.hash) throw new BlockedUrlError("The URL must not contain a #fragment.");
  if (!policy.allowLocal) {
    const host = hostOf(url).toLowerCase();
    if (isIP(host) ? isBlockedAddress(host) : host === "localhost" || host.endsWith(".localhost")) {
      throw new BlockedUrlError("The URL must not point to a private, loopback or link-local address.");
    }
  }
  return url;
}

/**
 * The addresses to connect to for this URL, every one of them checked. Throws BlockedUrlError
 * when the host is, or resolves to, a forbidden address (any one of them), or does not resolve.
 */
export async function resolveWebhookTarget(url: URL, policy: UrlPolicy): Promise<string[]> {
  const host = hostOf(url);
  if (isIP(host)) {
    if (!policy.allowLocal && isBlockedAddress(host))
      throw new BlockedUrlError("The URL points to a private, loopback or link-local address.");
    return [host];
  }
  let addresses: string[];
  try {
    addresses = await policy.resolve(host);
  } catch {
    throw new UnresolvedHostError(host);
  }
  if (addresses.length === 0) throw new UnresolvedHostError(host);
  if (!policy.allowLocal && addresses.some(isBlockedAddress)) {
    throw new BlockedUrlError(`The host name ${host} resolves to a private, loopback or link-local address.`);
  }
  return addresses;
}

/**
 * The check when an admin saves a URL: its form, and the addresses its host resolves to now. A host
 * that does not resolve yet is accepted (its DNS may come later); every attempt checks again.
 */
export async function checkWebhookUrl(text: string, policy: UrlPolicy): Promise<string> {
  const url = parseWebhookUrl(text, policy);
  try {
    await resolveWebhookTarget(url, policy);
  } catch (error) {
    if (!(error instanceof UnresolvedHostError)) throw error;
  }
  return url.toString();
}
