/**
 * The addresses an API key may be used from (DESIGN §11.2 `allowedIps`): single IPv4 and IPv6 addresses
 * and CIDR ranges of either, parsed with `ipaddr.js`.
 */
import ipaddr from 'ipaddr.js';

/**
 * The stored form of an address or range, or null when `text` is neither: an address alone as
 * `ipaddr.js` prints it (`2001:db8::1`; an IPv4-mapped IPv6 address as its IPv4 one), a range as its
 * network address and prefix length (`10.1.2.3/8` -> `10.0.0.0/8`); a /32 or /128 is the address alone.
 * IPv4 must be four decimal parts (`127.1` and `0x7f.0.0.1` are refused).
 */
export function normaliseAllowedIp(text: string): string | null {
  const value = text.trim();
  if (value.includes('/')) {
    if (ipaddr.IPv4.isValidCIDRFourPartDecimal(value)) {
      const [addr, bits] = ipaddr.IPv4.parseCIDR(value);
      if (bits === 32) return addr.toString();
      return `${ipaddr.IPv4.networkAddressFromCIDR(value).toString()}/${bits}`;
    }
    if (ipaddr.IPv6.isValidCIDR(value)) {
      const [addr, bits] = ipaddr.IPv6.parseCIDR(value);
      if (bits === 128) return addr.toString();
      return `${ipaddr.IPv6.networkAddressFromCIDR(value).toString()}/${bits}`;
    }
    return null;
  }
  if (ipaddr.IPv4.isValidFourPartDecimal(value)) return ipaddr.IPv4.parse(value).toString();
  if (ipaddr.IPv6.isValid(value)) return ipaddr.process(value).toString();
  return null;
}

/**
 * Whether the client address `ip` (`request.ip`) is one of `allowed` (stored forms of
 * `normaliseAllowedIp`). An empty list allows every address; an IPv4-mapped IPv6 client is its IPv4 one.
 */
export function ipAllowed(ip: string, allowed: readonly string[]): boolean {
  if (allowed.length === 0) return true;
  if (!ipaddr.isValid(ip)) return false;
  const addr = ipaddr.process(ip);
  return allowed.some((entry) => {
    const range = entry.includes('/') ? ipaddr.parseCIDR(entry) : ([ipaddr.parse(entry), -1] as const);
    if (range[0].kind() !== addr.kind()) return false;
    const bits = range[1] === -1 ? (addr.kind() === 'ipv4' ? 32 : 128) : range[1];
    return addr.match([range[0], bits]);
  });
}
