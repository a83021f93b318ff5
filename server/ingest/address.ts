import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import type { LookupFunction } from 'node:net';
import ipaddr from 'ipaddr.js';
import { FetchError } from './fetch-error';

/**
 * Which addresses an outbound fetch may connect to: public unicast only. Loopback, private
 * (RFC 1918, unique-local), link-local (cloud metadata at 169.254.169.254), carrier-grade NAT,
 * multicast, unspecified, reserved, and IPv6 forms that embed an IPv4 address (mapped, NAT64,
 * 6to4, Teredo) are refused, so a user's feed address cannot reach into the server's network.
 */
export const isPublicAddress = (address: string): boolean => {
  if (!ipaddr.isValid(address)) return false;
  let parsed = ipaddr.parse(address);
  if (parsed.kind() === 'ipv6' && (parsed as ipaddr.IPv6).isIPv4MappedAddress()) {
    parsed = (parsed as ipaddr.IPv6).toIPv4Address();
  }
  return parsed.range() === 'unicast';
};

const refused = (host: string, address: string) =>
  new FetchError(
    'private_address',
    host === address
      ? `the address ${address} is on a private or local network, which is not allowed`
      : `${host} is on a private or local network (${address}), which is not allowed`,
  );

/** Refuses an IP literal host at once (Node connects to those without a lookup). */
export const checkLiteralHost = (hostname: string, allowPrivate: boolean): void => {
  const host = hostname.replace(/^\[|\]$/g, '');
  if (!allowPrivate && ipaddr.isValid(host) && !isPublicAddress(host)) throw refused(host, host);
};

/**
 * A `lookup` for http.request that resolves every address of the host and refuses the
 * connection if ANY of them is not public (so a host cannot smuggle a private address behind a
 * public one); the connection then goes to an address that was checked, never to a second
 * resolution (no DNS-rebinding gap between check and connect).
 */
export const safeLookup =
  (allowPrivate: boolean): LookupFunction =>
  (hostname, options, callback) => {
    dnsLookup(hostname, { all: true, family: options.family ?? 0 }, (err, addresses) => {
      if (err) {
        const notFound = err.code === 'ENOTFOUND' || err.code === 'EAI_AGAIN';
        const reason = notFound
          ? `the host ${hostname} could not be found`
          : `DNS lookup failed (${err.code})`;
        const wrapped = new FetchError('unreachable', reason, reason);
        callback(wrapped, '', 0);
        return;
      }
      const list = addresses as LookupAddress[];
      if (list.length === 0) {
        const reason = `the host ${hostname} could not be found`;
        callback(new FetchError('unreachable', reason, reason), '', 0);
        return;
      }
      const bad = allowPrivate ? undefined : list.find((a) => !isPublicAddress(a.address));
      if (bad) {
        callback(refused(hostname, bad.address), '', 0);
        return;
      }
      if (options.all) callback(null, list);
      else callback(null, list[0].address, list[0].family);
    });
  };
