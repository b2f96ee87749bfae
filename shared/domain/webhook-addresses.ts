/**
 * Where a webhook may be delivered: only to public unicast addresses. ipaddr.js names the range every
 * address lies in (RFC 6890's special-purpose registries: private, loopback, link-local, unique local,
 * carrier-grade NAT, multicast, reserved, documentation, 6to4 and Teredo tunnels, …); anything but
 * `unicast` is refused. An IPv4-mapped IPv6 address (`::ffff:10.0.0.1`) is judged as the IPv4 address it
 * carries. Loopback is allowed only when the configuration says so (the local stack and the tests).
 */
import ipaddr from 'ipaddr.js';

export type AddressVerdict = { allowed: true } | { allowed: false; reason: string };

/** The range ipaddr.js files an address under (`unicast` for a public one); null if it is not an IP. */
export const addressRange = (address: string): string | null => {
  const bare = address.startsWith('[') && address.endsWith(']') ? address.slice(1, -1) : address;
  if (!ipaddr.isValid(bare)) return null;
  return ipaddr.process(bare).range();
};

export const judgeAddress = (address: string, allowLoopback: boolean): AddressVerdict => {
  const range = addressRange(address);
  if (range === null) return { allowed: false, reason: `${address} is not an IP address` };
  if (range === 'unicast' || (range === 'loopback' && allowLoopback)) return { allowed: true };
  return { allowed: false, reason: `${address} is a ${range} address, not a public one` };
};
