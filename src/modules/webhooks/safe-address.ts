import { lookup } from 'node:dns';
import type { LookupFunction } from 'node:net';
import ipaddr from 'ipaddr.js';

/**
 * Whether an address may receive webhooks: public unicast only. Private,
 * loopback, link-local (with the cloud metadata address 169.254.169.254),
 * carrier-grade NAT, multicast, reserved and unique-local addresses are not.
 *
 * IPv6 forms that carry an IPv4 address (docs/webhooks.md, Safety):
 * - IPv4-mapped `::ffff:a.b.c.d` and NAT64's well-known prefix
 *   `64:ff9b::a.b.c.d` reach that IPv4 address (directly, or through the
 *   network's NAT64 gateway, which DNS64 names resolve to on an IPv6-only
 *   host): they are judged as it.
 * - IPv4-compatible `::a.b.c.d` (deprecated; the URL parser writes
 *   `[::127.0.0.1]` as `[::7f00:1]`, which ipaddr.js calls unicast),
 *   IPv4-translated `::ffff:0:a.b.c.d`, NAT64's local-use `64:ff9b:1::/48`,
 *   6to4 `2002::/16` and Teredo `2001::/32` are refused whatever they carry:
 *   they are deprecated or go through relays of someone else's network, and
 *   no receiver needs them.
 */
export function isPublicAddress(address: string): boolean {
  const text = canonicalText(address);
  if (text === undefined || !ipaddr.isValid(text)) return false;
  const parsed = ipaddr.parse(text);
  if (parsed.kind() === 'ipv4') return parsed.range() === 'unicast';
  const v6 = parsed as ipaddr.IPv6;
  const carried = carriedIPv4(v6);
  if (carried !== undefined) return carried.range() === 'unicast';
  if (isIPv4Compatible(v6) || isLocalUseNat64(v6)) return false;
  // rfc6145 (IPv4-translated), 6to4 and teredo are ranges of their own, so not 'unicast'.
  return v6.range() === 'unicast';
}

/**
 * An IPv6 address as the URL parser writes it (`::127.0.0.1` is `::7f00:1`),
 * without a zone: ipaddr.js 2.5 reads a dotted tail as IPv4-mapped whatever
 * precedes it (`::127.0.0.1` as `::ffff:127.0.0.1`), and DNS answers write
 * IPv4-compatible addresses dotted. Undefined when it is no address.
 */
function canonicalText(address: string): string | undefined {
  if (!address.includes(':')) return address;
  try {
    return new URL(`http://[${address.replace(/%.*$/, '')}]/`).hostname.slice(1, -1);
  } catch {
    return undefined;
  }
}

/** The IPv4 address that an IPv4-mapped or well-known-prefix NAT64 address reaches. */
function carriedIPv4(address: ipaddr.IPv6): ipaddr.IPv4 | undefined {
  const [a, b, c, d, e, f, g, h] = address.parts;
  const mapped = a === 0 && b === 0 && c === 0 && d === 0 && e === 0 && f === 0xffff;
  const wellKnownNat64 = a === 0x64 && b === 0xff9b && c === 0 && d === 0 && e === 0 && f === 0;
  if (!mapped && !wellKnownNat64) return undefined;
  return new ipaddr.IPv4([g >> 8, g & 0xff, h >> 8, h & 0xff]);
}

/** `::a.b.c.d`: the first 96 bits zero (`::` and `::1` too, which are not public either). */
function isIPv4Compatible(address: ipaddr.IPv6): boolean {
  return address.parts.slice(0, 6).every((part) => part === 0);
}

/** `64:ff9b:1::/48` (RFC 8215): a NAT64 prefix of the local network, where the IPv4 part may sit anywhere. */
function isLocalUseNat64(address: ipaddr.IPv6): boolean {
  const [a, b, c] = address.parts;
  return a === 0x64 && b === 0xff9b && c === 1;
}

/** Why a delivery was refused before connecting: its address is not public. */
export const NOT_PUBLIC_CODE = 'EADDRNOTPUBLIC';

/**
 * A DNS lookup for the connection itself that refuses a name resolving to an
 * address that is not public: the address checked is the one connected to,
 * so a name that resolves differently a second time (DNS rebinding) gains
 * nothing.
 */
export function publicOnlyLookup(allowPrivate: boolean): LookupFunction {
  return (hostname, options, callback) => {
    lookup(hostname, { ...options, all: true }, (error, addresses) => {
      if (error) return callback(error, '', 0);
      const list = addresses as { address: string; family: number }[];
      const refused = list.find((entry) => !allowPrivate && !isPublicAddress(entry.address));
      if (refused) {
        const failure = Object.assign(
          new Error(`${hostname} resolves to ${refused.address}, which is not a public address`),
          { code: NOT_PUBLIC_CODE },
        );
        return callback(failure, '', 0);
      }
      if ((options as { all?: boolean }).all)
        return (callback as unknown as (e: null, a: typeof list) => void)(null, list);
      callback(null, list[0].address, list[0].family);
    });
  };
}
