import { lookup } from 'node:dns';
import type { LookupFunction } from 'node:net';
import ipaddr from 'ipaddr.js';

/**
 * Whether an address may receive webhooks: public unicast only. Private,
 * loopback, link-local (with the cloud metadata address 169.254.169.254),
 * carrier-grade NAT, multicast, reserved and unique-local addresses are not,
 * nor an IPv4 address written as IPv6.
 */
export function isPublicAddress(address: string): boolean {
  if (!ipaddr.isValid(address)) return false;
  let parsed = ipaddr.parse(address);
  if (parsed.kind() === 'ipv6' && (parsed as ipaddr.IPv6).isIPv4MappedAddress()) {
    parsed = (parsed as ipaddr.IPv6).toIPv4Address();
  }
  return parsed.range() === 'unicast';
}

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
          {
            code: 'EADDRNOTPUBLIC',
          },
        );
        return callback(failure, '', 0);
      }
      if ((options as { all?: boolean }).all)
        return (callback as unknown as (e: null, a: typeof list) => void)(null, list);
      callback(null, list[0].address, list[0].family);
    });
  };
}
