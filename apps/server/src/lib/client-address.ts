/**
 * The key a client's address is counted under by every per-address limit (DESIGN §2 `RATE_LIMIT_AUTH`,
 * §8 sign-in and wallet limits), parsed with `ipaddr.js`.
 */
import ipaddr from 'ipaddr.js';

/**
 * The key of a client address `ip` (as `request.ip` gives it) for per-address limits: an IPv4 address is
 * itself (`203.0.113.7`), and so is an IPv4-mapped IPv6 address (`::ffff:203.0.113.7` -> `203.0.113.7`);
 * any other IPv6 address is its /64 network (`2001:db8:1:2::/64`), the block one subscriber line
 * gets, from which it can take as many addresses as it likes. A zone index (`fe80::1%eth0`) is dropped
 * with the rest of the interface identifier. A text that is no IP address is kept as it is (never thrown
 * on: a limit must still count it).
 */
export function clientAddressKey(ip: string): string {
  const bare = ip.trim();
  if (!ipaddr.isValid(bare)) return ip;
  const addr = ipaddr.process(bare);
  if (addr.kind() === 'ipv4') return addr.toString();
  const parts = (addr as ipaddr.IPv6).parts;
  const network = new ipaddr.IPv6([parts[0] ?? 0, parts[1] ?? 0, parts[2] ?? 0, parts[3] ?? 0, 0, 0, 0, 0]);
  return `${network.toString()}/64`;
}
