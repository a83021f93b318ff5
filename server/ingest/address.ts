import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import type { LookupFunction } from 'node:net';
import ipaddr from 'ipaddr.js';
import { FetchError } from './fetch-error';

/**
 * Which addresses an outbound fetch may connect to: public unicast only, by ipaddr.js's
 * ranges. Loopback, private (RFC 1918, unique-local), link-local (cloud metadata at
 * 169.254.169.254), carrier-grade NAT, multicast, unspecified and reserved addresses are
 * refused, so a user's feed address cannot reach into the server's network. An IPv6 address
 * that carries an IPv4 address is judged by what it carries: IPv4-mapped (::ffff:a.b.c.d),
 * IPv4-translated (::ffff:0:a.b.c.d), IPv4-compatible (::a.b.c.d, deprecated, which ipaddr.js
 * calls unicast: `http://[::127.0.0.1]/` is ::7f00:1), NAT64 (64:ff9b::/96, 64:ff9b:1::/48),
 * 6to4 (2002::/16) and Teredo (2001::/32: its server and its client, stored inverted).
 */
export const isPublicAddress = (address: string): boolean => privateForm(address) === null;

const v4Of = (hi: number, lo: number) => new ipaddr.IPv4([hi >> 8, hi & 0xff, lo >> 8, lo & 0xff]);

/** The IPv4 addresses an IPv6 address carries, by its form; null when it carries none. */
export const embeddedIPv4 = (v6: ipaddr.IPv6): ipaddr.IPv4[] | null => {
  const p = v6.parts;
  switch (v6.range()) {
    case 'ipv4Mapped':
    case 'rfc6145':
    case 'rfc6052':
      return [v4Of(p[6], p[7])];
    case '6to4':
      return [v4Of(p[1], p[2])];
    case 'teredo':
      return [v4Of(p[2], p[3]), v4Of(p[6] ^ 0xffff, p[7] ^ 0xffff)];
    case 'unicast':
      // IPv4-compatible: 96 zero bits, then the IPv4 address (:: and ::1 have ranges of their own).
      return p.slice(0, 6).every((x) => x === 0) ? [v4Of(p[6], p[7])] : null;
    default:
      return null;
  }
};

/**
 * Null for a public address; else how to name it in the refusal: the address, with the IPv4
 * address it carries that is not public ("::7f00:1 (127.0.0.1)").
 */
const privateForm = (address: string): string | null => {
  if (!ipaddr.isValid(address)) return address;
  const parsed = ipaddr.parse(address);
  if (parsed.kind() === 'ipv4') return parsed.range() === 'unicast' ? null : address;
  const v6 = parsed as ipaddr.IPv6;
  const carried = embeddedIPv4(v6);
  if (carried === null) return v6.range() === 'unicast' ? null : address;
  const bad = carried.find((v4) => v4.range() !== 'unicast');
  return bad ? `${address} (${bad.toString()})` : null;
};

const refused = (host: string, address: string) => {
  const named = privateForm(address) ?? address;
  return new FetchError(
    'private_address',
    host === address
      ? `the address ${named} is on a private or local network, which is not allowed`
      : `${host} is on a private or local network (${named}), which is not allowed`,
  );
};

/** Refuses an IP literal host at once (Node connects to those without a lookup). */
export const checkLiteralHost = (hostname: string, allowPrivate: boolean): void => {
  const host = hostname.replace(/^\[|\]$/g, '');
  if (!allowPrivate && ipaddr.isValid(host) && !isPublicAddress(host)) throw refused(host, host);
};

/**
 * Refuses the address a socket connected to unless public: the last word, whatever the host
 * was written as or resolved to (fetch.ts calls it on every connection, redirects included).
 */
export const checkConnectedAddress = (host: string, address: string | undefined): void => {
  if (!address) throw refused(host, 'an unknown address');
  if (!isPublicAddress(address)) throw refused(host, address);
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
