// The client IP behind each form of TRUST_PROXY: tables of socket peers and X-Forwarded-For
// headers (spoofed, several proxies, several header lines, malformed, IPv6) and the address the
// limits must key on. TRUST_PROXY values go through the parser the app's settings use.

import { describe, expect, it } from "vitest";
import { clientIp, limitAddress, parseAddress } from "../src/platform/client-ip.ts";
import { parseTrustProxy, type TrustProxy } from "../src/platform/trust-proxy.ts";

function trust(value: string): TrustProxy {
  const parsed = parseTrustProxy(value);
  if (!parsed.ok) throw new Error(parsed.error);
  return parsed.value;
}

type Row = [description: string, socketAddress: string | undefined, forwardedFor: string | undefined, expected: string];

function check(value: string, rows: Row[]) {
  it.each(rows)("%s", (_description, socketAddress, forwardedFor, expected) => {
    expect(clientIp(trust(value), { socketAddress, forwardedFor })).toBe(expected);
  });
}

describe("TRUST_PROXY unset or false: the socket's peer, whatever the header says", () => {
  for (const value of ["", "false", "0"]) {
    describe(`TRUST_PROXY=${JSON.stringify(value)}`, () => {
      check(value, [
        ["no header", "203.0.113.5", undefined, "203.0.113.5"],
        ["a spoofed header", "203.0.113.5", "198.51.100.1", "203.0.113.5"],
        ["an IPv4-mapped IPv6 peer (dual-stack socket)", "::ffff:203.0.113.5", "198.51.100.1", "203.0.113.5"],
        ["an IPv6 peer, in canonical form", "2001:DB8:0:0:0:0:0:1", undefined, "2001:db8::1"],
        ["no socket address", undefined, "198.51.100.1", "unknown"],
      ]);
    });
  }
});

describe("TRUST_PROXY=true (one hop): the rightmost entry", () => {
  for (const value of ["true", "1"]) {
    describe(`TRUST_PROXY=${value}`, () => {
      check(value, [
        ["one entry", "10.0.0.2", "203.0.113.5", "203.0.113.5"],
        ["the client's own entries on the left are ignored", "10.0.0.2", "1.1.1.1, 2.2.2.2, 203.0.113.5", "203.0.113.5"],
        ["several header lines (joined with commas)", "10.0.0.2", "1.1.1.1,203.0.113.5", "203.0.113.5"],
        ["no header: the peer", "10.0.0.2", undefined, "10.0.0.2"],
        ["an empty header: the peer", "10.0.0.2", "  ", "10.0.0.2"],
        ["a malformed rightmost entry: the proxy", "10.0.0.2", "203.0.113.5, garbage", "10.0.0.2"],
        ["`unknown` as nginx writes it: the proxy", "10.0.0.2", "unknown", "10.0.0.2"],
        ["an empty rightmost entry: the proxy", "10.0.0.2", "203.0.113.5,", "10.0.0.2"],
        ["an abbreviated IPv4 is not an address", "10.0.0.2", "127.1", "10.0.0.2"],
        ["an IPv4 entry with a port", "10.0.0.2", "203.0.113.5:51234", "203.0.113.5"],
        ["an IPv6 entry", "10.0.0.2", "1.1.1.1, 2001:DB8::7", "2001:db8::7"],
        ["a bracketed IPv6 entry with a port", "10.0.0.2", "[2001:db8::7]:443", "2001:db8::7"],
        ["an IPv4-mapped IPv6 entry", "10.0.0.2", "::ffff:203.0.113.5", "203.0.113.5"],
        ["an IPv6 proxy", "fd00::2", "203.0.113.5", "203.0.113.5"],
      ]);
    });
  }
});

describe("TRUST_PROXY=2 (two hops): the second entry from the right", () => {
  check("2", [
    ["client, then the outer proxy", "10.0.0.3", "203.0.113.5, 10.0.0.2", "203.0.113.5"],
    ["a spoofed entry left of them is ignored", "10.0.0.3", "6.6.6.6, 203.0.113.5, 10.0.0.2", "203.0.113.5"],
    ["a shorter chain: the leftmost entry", "10.0.0.3", "203.0.113.5", "203.0.113.5"],
    ["no header: the peer", "10.0.0.3", undefined, "10.0.0.3"],
    ["a malformed entry at the client's place: the outer proxy", "10.0.0.3", "6.6.6.6, not-an-ip, 10.0.0.2", "10.0.0.2"],
  ]);
});

describe("TRUST_PROXY=<list>: the rightmost address that is not a trusted proxy", () => {
  const list = "10.0.0.0/8, 192.0.2.10, fd00::/8";
  check(list, [
    ["an untrusted peer: the peer, the header ignored", "203.0.113.9", "198.51.100.1", "203.0.113.9"],
    ["one trusted proxy", "10.0.0.2", "203.0.113.5", "203.0.113.5"],
    ["a trusted proxy given as one address", "192.0.2.10", "203.0.113.5", "203.0.113.5"],
    ["a chain of trusted proxies", "10.0.0.3", "6.6.6.6, 203.0.113.5, 192.0.2.10, 10.9.9.9", "203.0.113.5"],
    ["a spoofed trusted address left of the client changes nothing", "10.0.0.3", "10.1.1.1, 203.0.113.5", "203.0.113.5"],
    ["every entry trusted: the leftmost", "10.0.0.3", "10.1.1.1, 10.2.2.2", "10.1.1.1"],
    ["an IPv4-mapped peer in a trusted IPv4 range", "::ffff:10.0.0.2", "203.0.113.5", "203.0.113.5"],
    ["an IPv6 proxy in a trusted IPv6 range", "fd00::2", "2001:db8::5", "2001:db8::5"],
    ["an IPv6 peer outside the ranges", "2001:db8::9", "203.0.113.5", "2001:db8::9"],
    ["a malformed entry after a trusted proxy: that proxy", "10.0.0.3", "203.0.113.5, bogus", "10.0.0.3"],
    ["no header: the (trusted) peer", "10.0.0.3", undefined, "10.0.0.3"],
  ]);
});

describe("parseAddress", () => {
  it.each([
    ["203.0.113.5", "203.0.113.5"],
    [" 203.0.113.5 ", "203.0.113.5"],
    ["203.0.113.5:80", "203.0.113.5"],
    ["::ffff:203.0.113.5", "203.0.113.5"],
    ["2001:0db8:0000::0001", "2001:db8::1"],
    ["[::1]", "::1"],
    ["fe80::1%eth0", "fe80::1"],
  ])("reads %j as %s", (text, expected) => {
    expect(parseAddress(text)?.toString()).toBe(expected);
  });

  it.each([
    "",
    "unknown",
    "_hidden",
    "127.1",
    "010.0.0.1",
    "0x7f.0.0.1",
    "256.1.1.1",
    "1.2.3.4:port",
    "[1.2.3.4]x",
    "2001:db8::1:80:1:1:1:1:1",
  ])("refuses %j", (text) => {
    expect(parseAddress(text)).toBeNull();
  });
});

describe("the key the limits count an address by", () => {
  it.each([
    ["IPv4, as it is", "203.0.113.5", "203.0.113.5"],
    ["IPv6, its /64 network", "2001:db8:1:2:a:b:c:d", "2001:db8:1:2::/64"],
    ["another address of the same /64, the same key", "2001:db8:1:2:ffff:ffff:ffff:ffff", "2001:db8:1:2::/64"],
    ["the next /64, a key of its own", "2001:db8:1:3::1", "2001:db8:1:3::/64"],
    ["loopback", "::1", "::/64"],
    ["not an address (a socket already closed)", "unknown", "unknown"],
  ])("%s", (_description, ip, key) => {
    expect(limitAddress(ip)).toBe(key);
  });
});
