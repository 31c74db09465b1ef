// The SSRF guard of webhook URLs. An endpoint URL must be https and its host must not be (or
// resolve to) a private, loopback, link-local, unique-local or otherwise non-public address. The
// URL is checked when it is saved and again on every attempt, on the addresses the connection
// then uses (no second lookup between the check and the connection, so DNS rebinding gains
// nothing). `allowLocal` (WEBHOOKS_ALLOW_LOCAL) turns the guard off for tests and development.
import { lookup } from "node:dns/promises";
import { isIP } from "node:net";
import ipaddr from "ipaddr.js";
import { WEBHOOK_URL_MAX_CHARS } from "./limits.ts";

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

// Only global unicast addresses may receive webhooks. ipaddr.js classifies the special-purpose
// ranges of the IANA registries (private, loopback, link-local, carrier-grade NAT, documentation,
// multicast, IPv4-mapped, NAT64, 6to4, Teredo, ...) and calls everything else "unicast". For IPv6
// the address must also lie in 2000::/3, the only block IANA allocates for global unicast: that
// refuses what ipaddr.js does not name, such as IPv4-compatible addresses (::/96, e.g.
// ::127.0.0.1) and the rest of ::/8. Every form that embeds an IPv4 address is thus refused,
// whatever address it carries.
const GLOBAL_UNICAST_V6 = ipaddr.parseCIDR("2000::/3");

/** True for an address a webhook may not be sent to. Anything that is not an IP address is refused too. */
export function isBlockedAddress(address: string): boolean {
  if (!isIP(address)) return true;
  let parsed: ipaddr.IPv4 | ipaddr.IPv6;
  try {
    parsed = ipaddr.parse(address);
  } catch {
    return true;
  }
  if (parsed.range() !== "unicast") return true;
  return parsed.kind() === "ipv6" && !parsed.match(GLOBAL_UNICAST_V6);
}

/** The URL's host without IPv6 brackets. */
function hostOf(url: URL): string {
  return url.hostname.startsWith("[") ? url.hostname.slice(1, -1) : url.hostname;
}

/** Why a local address was refused, and the one setting that allows it. */
const LOCAL_REFUSED = "Local addresses are allowed only while the server runs with WEBHOOKS_ALLOW_LOCAL=true (for development).";

/** What the panel's URL field accepts under the server's setting (the context's webhooks.allowLocal). */
export function webhookUrlHint(ctx: { webhooks?: { allowLocal: boolean } }): string {
  return ctx.webhooks?.allowLocal
    ? "An http:// or https:// URL of your server. Local addresses are allowed: the server runs with WEBHOOKS_ALLOW_LOCAL=true."
    : `An https:// URL of your server. Private, loopback and link-local addresses are refused. ${LOCAL_REFUSED}`;
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
      throw new BlockedUrlError(`The URL must not point to a private, loopback or link-local address. ${LOCAL_REFUSED}`);
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
      throw new BlockedUrlError(`The URL points to a private, loopback or link-local address. ${LOCAL_REFUSED}`);
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
    throw new BlockedUrlError(`The host name ${host} resolves to a private, loopback or link-local address. ${LOCAL_REFUSED}`);
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
