import dns from 'node:dns';
import { BlockList, isIP } from 'node:net';
import { ValidationError } from './errors';

/**
 * The guard for addresses hotels configure and this service later connects to (today the hotel's SMTP relay).
 *
 * It answers one question: would a connection to this host reach this service's own machine or network? A host
 * name is resolved (dns.lookup, as the connecting client would) and refused when ANY of its addresses is loopback,
 * private, link-local, CGNAT, unspecified, multicast or reserved, including those spelled as IPv4-mapped,
 * IPv4-compatible or NAT64 IPv6 addresses. Literal addresses are checked without a lookup; nothing else goes on the
 * network. Documentation ranges (192.0.2.0/24, 198.51.100.0/24, 203.0.113.0/24) count as public.
 *
 * A check when the address is saved only catches honest mistakes and the obvious attack: a name can resolve
 * elsewhere later (DNS rebinding). So every client that connects to a configured address must call this again right
 * before connecting, and an HTTP client must call it again for EVERY redirect hop (each `Location`), refusing the
 * redirect when the guard refuses (redirects do not apply to SMTP, the only such client today). Such a client should
 * also connect to an address the guard has just checked (its own lookup could answer differently a moment later):
 * `guardedLookup` does both for node:http(s) and net (the webhook deliveries use it).
 */

export interface OutboundOptions {
  /** Development only (ALLOW_PRIVATE_OUTBOUND): no check at all, e.g. for a mail catcher on localhost. */
  allowPrivate?: boolean;
  /**
   * Accept a name that does not resolve now. For the check on saving a setting only (a relay's DNS record may not
   * exist yet, and the check before connecting is what counts); a check before connecting never sets it.
   */
  allowUnresolved?: boolean;
}

type Kind = 'loopback' | 'private' | 'link-local' | 'unspecified' | 'cgnat' | 'multicast' | 'reserved';

const kindNames: Record<Kind, string> = {
  loopback: 'локальный адрес (loopback)',
  private: 'адрес частной сети',
  'link-local': 'link-local адрес',
  unspecified: 'неопределённый адрес',
  cgnat: 'адрес CGNAT (100.64.0.0/10)',
  multicast: 'групповой (multicast) адрес',
  reserved: 'зарезервированный адрес',
};

export const outboundMessages = {
  invalid: (host: string) => `Некорректный адрес сервера: «${host}»`,
  refused: (host: string, address: string, kind: Kind) =>
    `Адрес «${host}» недопустим: ${address} — ${kindNames[kind]}. ` +
    'Соединения с внутренними адресами (loopback, частные сети, link-local, неопределённые) запрещены',
  unresolved: (host: string) => `Не удалось найти адрес сервера «${host}»`,
};

function ranges(kind: Kind, family: 'ipv4' | 'ipv6', subnets: [string, number][]) {
  const list = new BlockList();
  for (const [network, prefix] of subnets) list.addSubnet(network, prefix, family);
  return { kind, family, list };
}

const IPV4_RANGES = [
  ranges('unspecified', 'ipv4', [['0.0.0.0', 8]]),
  ranges('loopback', 'ipv4', [['127.0.0.0', 8]]),
  ranges('private', 'ipv4', [
    ['10.0.0.0', 8],
    ['172.16.0.0', 12],
    ['192.168.0.0', 16],
  ]),
  ranges('link-local', 'ipv4', [['169.254.0.0', 16]]),
  ranges('cgnat', 'ipv4', [['100.64.0.0', 10]]),
  ranges('multicast', 'ipv4', [['224.0.0.0', 4]]),
  // 240.0.0.0/4 includes the broadcast address 255.255.255.255; 192.0.0.0/24 are IETF protocol assignments.
  ranges('reserved', 'ipv4', [
    ['240.0.0.0', 4],
    ['192.0.0.0', 24],
  ]),
];

const IPV6_RANGES = [
  ranges('unspecified', 'ipv6', [['::', 128]]),
  ranges('loopback', 'ipv6', [['::1', 128]]),
  // fc00::/7 unique local addresses; fec0::/10 the deprecated site-local ones; 64:ff9b:1::/48 local-use NAT64.
  ranges('private', 'ipv6', [
    ['fc00::', 7],
    ['fec0::', 10],
    ['64:ff9b:1::', 48],
  ]),
  ranges('link-local', 'ipv6', [['fe80::', 10]]),
  ranges('multicast', 'ipv6', [['ff00::', 8]]),
];

/** The eight 16-bit groups of an IPv6 address (zone id dropped; a trailing dotted IPv4 part allowed). */
function ipv6Groups(address: string): number[] {
  let text = address.split('%')[0].toLowerCase();
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (dotted) {
    const [a, b, c, d] = dotted[1].split('.').map(Number);
    text = `${text.slice(0, -dotted[1].length)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head, tail] = text.includes('::') ? text.split('::') : [text, undefined];
  const parse = (part: string | undefined) => (part ? part.split(':').map((group) => parseInt(group, 16)) : []);
  const left = parse(head);
  const right = parse(tail);
  const zeros = tail === undefined ? [] : new Array<number>(8 - left.length - right.length).fill(0);
  return [...left, ...zeros, ...right];
}

/**
 * The IPv4 address an IPv6 address carries and is delivered to: IPv4-mapped (::ffff:a.b.c.d), IPv4-translated
 * (::ffff:0:a.b.c.d), IPv4-compatible (::a.b.c.d, deprecated) and NAT64 (64:ff9b::a.b.c.d, translated by a gateway).
 */
function embeddedIpv4(address: string): string | undefined {
  const groups = ipv6Groups(address);
  const prefix = groups.slice(0, 6);
  const zero = (list: number[]) => list.every((group) => group === 0);
  const mapped = zero(prefix.slice(0, 5)) && prefix[5] === 0xffff;
  const translated = zero(prefix.slice(0, 4)) && prefix[4] === 0xffff && prefix[5] === 0;
  // :: and ::1 are their own cases.
  const compatible = zero(prefix) && !(groups[6] === 0 && groups[7] <= 1);
  const nat64 = prefix[0] === 0x64 && prefix[1] === 0xff9b && zero(prefix.slice(2));
  if (!mapped && !translated && !compatible && !nat64) return undefined;
  return [groups[6] >> 8, groups[6] & 0xff, groups[7] >> 8, groups[7] & 0xff].join('.');
}

/** Why `address` (an IP literal) is not a public destination, or undefined when it is one. */
export function nonPublicKind(address: string): Kind | undefined {
  const family = isIP(address);
  if (family === 4) return IPV4_RANGES.find(({ list }) => list.check(address, 'ipv4'))?.kind;
  if (family !== 6) return undefined;
  const plain = address.split('%')[0];
  const ipv4 = embeddedIpv4(plain);
  if (ipv4) return nonPublicKind(ipv4);
  return IPV6_RANGES.find(({ list }) => list.check(plain, 'ipv6'))?.kind;
}

/**
 * The host of `hostOrUrl` (`smtp.example.com`, `10.0.0.1`, `::1`, `[::1]:25`, `host:587`,
 * `smtp://user@host:465`, `https://host/path`), in the form an HTTP URL parser gives it: lower case, punycode,
 * percent-escapes decoded, IPv4 in dotted decimal (`0x7f.1` and `2130706433` become 127.0.0.1), IPv6 without
 * brackets, no trailing dot.
 */
function hostOf(hostOrUrl: string): string | undefined {
  let host = hostOrUrl.trim();
  if (/^[a-z][a-z\d+.-]*:\/\//i.test(host)) {
    // Other schemes (smtp:, smtps:) keep their host opaque; it is normalised below like an HTTP one.
    host = URL.parse(host)?.hostname ?? '';
  } else if (isIP(host.split('%')[0]) === 6) {
    host = `[${host.split('%')[0]}]`;
  }
  if (host === '') return undefined;
  const parsed = URL.parse(`http://${host}`);
  if (!parsed || parsed.hostname === '') return undefined;
  return parsed.hostname.replace(/^\[(.*)\]$/, '$1').replace(/\.$/, '');
}

/**
 * Refuses (400) a destination that is, or resolves to, an address inside this service's machine or networks.
 * See the module comment: call it when an address is saved AND before every connection (every redirect hop).
 */
export async function assertPublicDestination(hostOrUrl: string, options: OutboundOptions = {}): Promise<void> {
  if (options.allowPrivate) return;
  const host = hostOf(hostOrUrl);
  if (!host) throw new ValidationError(outboundMessages.invalid(hostOrUrl));
  let addresses: string[];
  if (isIP(host)) {
    addresses = [host];
  } else {
    try {
      addresses = (await dns.promises.lookup(host, { all: true, order: 'verbatim' })).map((entry) => entry.address);
    } catch {
      if (options.allowUnresolved) return;
      throw new ValidationError(outboundMessages.unresolved(hostOrUrl));
    }
    if (addresses.length === 0) {
      if (options.allowUnresolved) return;
      throw new ValidationError(outboundMessages.unresolved(hostOrUrl));
    }
  }
  for (const address of addresses) {
    const kind = nonPublicKind(address);
    if (kind) throw new ValidationError(outboundMessages.refused(hostOrUrl, address, kind));
  }
}

/** A refusal before connecting that names the host only (never the address it resolved to: no map of the inside). */
export const notPublicMessage = (host: string) => `Адрес «${host}» ведёт во внутреннюю сеть: соединение запрещено`;

type LookupCallback = (
  error: NodeJS.ErrnoException | null,
  address: string | dns.LookupAddress[],
  family?: number,
) => void;

/**
 * A `lookup` for `http.request`/`net.connect` that resolves the name once, refuses it (ValidationError naming the host
 * only) when any address is not public, and hands the socket exactly the addresses it checked: the connection goes
 * where the guard looked (no second resolution for a rebinding name to answer differently).
 */
export function guardedLookup(options: OutboundOptions = {}) {
  return (hostname: string, lookupOptions: dns.LookupOptions, callback: LookupCallback): void => {
    dns.lookup(hostname, { ...lookupOptions, all: true, order: 'verbatim' }, (error, addresses) => {
      if (error) return callback(error, []);
      const list = addresses as dns.LookupAddress[];
      if (!options.allowPrivate && (list.length === 0 || list.some((entry) => nonPublicKind(entry.address))))
        return callback(new ValidationError(notPublicMessage(hostname)), []);
      if (lookupOptions.all) return callback(null, list);
      callback(null, list[0].address, list[0].family);
    });
  };
}
