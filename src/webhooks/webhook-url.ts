import { lookup } from 'node:dns/promises';
import { BlockList, isIP, type LookupFunction } from 'node:net';
import ipaddr from 'ipaddr.js';

/**
 * Server-side request forgery guard (DECISIONS "Events"): a webhook may only reach the public internet.
 * Private, loopback, link-local (cloud metadata at 169.254.169.254), shared (CGNAT), documentation,
 * multicast and reserved ranges are refused, for IPv4 and IPv6 (IPv4-mapped IPv6 addresses are checked as
 * the IPv4 address they carry). The check runs when a webhook is saved (every address the name resolves
 * to) and again when a connection is opened (the resolved address is the one connected to), so a name
 * that later resolves somewhere private (DNS rebinding) is refused at delivery time.
 */
const NON_PUBLIC = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8], // "this" network
  ['10.0.0.0', 8], // private
  ['100.64.0.0', 10], // shared address space (carrier-grade NAT)
  ['127.0.0.0', 8], // loopback
  ['169.254.0.0', 16], // link-local, cloud metadata services
  ['172.16.0.0', 12], // private
  ['192.0.0.0', 24], // IETF protocol assignments
  ['192.0.2.0', 24], // documentation
  ['192.168.0.0', 16], // private
  ['198.18.0.0', 15], // benchmarking
  ['198.51.100.0', 24], // documentation
  ['203.0.113.0', 24], // documentation
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, broadcast
] as const) {
  NON_PUBLIC.addSubnet(network, prefix, 'ipv4');
}
for (const [network, prefix] of [
  ['::', 128], // unspecified
  ['::1', 128], // loopback
  ['64:ff9b::', 96], // NAT64: would reach an IPv4 address through a translator
  ['100::', 64], // discard
  ['2001:db8::', 32], // documentation
  ['fc00::', 7], // unique local (private)
  ['fe80::', 10], // link-local
  ['ff00::', 8], // multicast
] as const) {
  NON_PUBLIC.addSubnet(network, prefix, 'ipv6');
}

/**
 * IPv6 ranges that carry an IPv4 address (or a translator to one) which ipaddr.js does not name: IPv4-compatible
 * `::a.b.c.d` (`[::7f00:1]` is 127.0.0.1) and the local-use NAT64 prefix of RFC 8215.
 */
const EMBEDDING_IPV4 = [ipaddr.parseCIDR('::/96'), ipaddr.parseCIDR('64:ff9b:1::/48')];

/**
 * Only plain public unicast passes: ipaddr.js's special ranges (6to4 2002::/16, Teredo 2001::/32, NAT64
 * 64:ff9b::/96, IPv4-mapped, private, loopback, ...) are refused as a class rather than by a hand list, since
 * each can lead to an IPv4 address inside; the BlockList above stays as a second net.
 */
export function isNonPublicAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 0) return true; // not an address at all: never connect to it
  if (NON_PUBLIC.check(address, family === 4 ? 'ipv4' : 'ipv6')) return true;
  const parsed = ipaddr.process(address);
  if (parsed.range() !== 'unicast') return true;
  if (parsed.kind() === 'ipv4') return NON_PUBLIC.check(parsed.toString(), 'ipv4');
  return EMBEDDING_IPV4.some((range) => parsed.match(range));
}

/** Resolves a host name to every address it has (A and AAAA). Tests inject their own. */
export type HostResolver = (hostname: string) => Promise<string[]>;

export const systemResolver: HostResolver = async (hostname) =>
  (await lookup(hostname, { all: true, verbatim: true })).map((entry) => entry.address);

/** A resolver that gave no answer in time: the host is treated as one that does not resolve. */
export class ResolveTimeoutError extends Error {
  constructor(
    readonly hostname: string,
    readonly timeoutMs: number,
  ) {
    super(`no answer for ${hostname} within ${timeoutMs} ms`);
  }
}

/**
 * `resolve`, failing with ResolveTimeoutError after `timeoutMs`: a DNS server that never answers must not
 * hold a request (creating a webhook checks its host) or a delivery worker. The system resolver has no
 * deadline of its own (getaddrinfo retries for as long as resolv.conf says).
 */
export function withResolveTimeout(resolve: HostResolver, timeoutMs: number): HostResolver {
  return (hostname) =>
    new Promise<string[]>((fulfil, reject) => {
      const timer = setTimeout(() => reject(new ResolveTimeoutError(hostname, timeoutMs)), timeoutMs);
      timer.unref();
      resolve(hostname).then(
        (addresses) => {
          clearTimeout(timer);
          fulfil(addresses);
        },
        (error: unknown) => {
          clearTimeout(timer);
          reject(error instanceof Error ? error : new Error(String(error)));
        },
      );
    });
}

/** `[::1]` → `::1`: URL keeps the brackets of an IPv6 literal. */
export function hostOf(url: URL): string {
  return url.hostname.replace(/^\[(.*)\]$/, '$1');
}

export class UnsafeTargetError extends Error {}

const MAX_URL_LENGTH = 2048;

/** The URL's shape: absolute http(s), a host, no credentials, not too long. Returns the problem or the URL. */
export function parseWebhookUrl(raw: string): { url: URL } | { problem: string } {
  if (raw.length > MAX_URL_LENGTH) return { problem: `must be at most ${MAX_URL_LENGTH} characters long` };
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return { problem: 'must be an absolute http or https URL' };
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return { problem: 'must use http or https' };
  if (!url.hostname) return { problem: 'must name a host' };
  if (url.username || url.password)
    return { problem: 'must not contain credentials; send them in headers instead' };
  return { url };
}

/**
 * Every address `url`'s host stands for must be public. A host that does not resolve is refused too:
 * nothing could be delivered to it, and it could not be checked.
 */
export async function assertPublicTarget(url: URL, resolve: HostResolver): Promise<void> {
  const host = hostOf(url);
  let addresses: string[];
  if (isIP(host)) addresses = [host];
  else {
    try {
      addresses = await resolve(host);
    } catch (error) {
      throw new UnsafeTargetError(
        error instanceof ResolveTimeoutError
          ? `host ${host} does not resolve (no DNS answer within ${error.timeoutMs} ms)`
          : `host ${host} does not resolve`,
      );
    }
    if (addresses.length === 0) throw new UnsafeTargetError(`host ${host} does not resolve`);
  }
  const blocked = addresses.find(isNonPublicAddress);
  if (blocked)
    throw new UnsafeTargetError(
      `must not target a private, loopback or link-local address (${host} is ${blocked})`,
    );
}

/**
 * A `lookup` for sockets that resolves with `resolve`, refuses if any address is not public, and connects
 * to the address it checked: the check and the connection cannot disagree.
 */
export function guardedLookup(resolve: HostResolver): LookupFunction {
  return (hostname, options, callback) => {
    resolve(hostname).then(
      (addresses) => {
        const blocked = addresses.find(isNonPublicAddress);
        if (addresses.length === 0) {
          callback(new UnsafeTargetError(`host ${hostname} does not resolve`), '', 0);
        } else if (blocked) {
          callback(
            new UnsafeTargetError(`refused: ${hostname} now resolves to non-public address ${blocked}`),
            '',
            0,
          );
        } else if (options.all) {
          callback(
            null,
            addresses.map((address) => ({ address, family: isIP(address) })),
          );
        } else {
          callback(null, addresses[0], isIP(addresses[0]));
        }
      },
      (error: unknown) => callback(error instanceof Error ? error : new Error(String(error)), '', 0),
    );
  };
}
