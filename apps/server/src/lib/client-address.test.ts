/** The per-address limits' key of a client address: IPv4 by address, IPv6 by its /64. */
import { describe, expect, it } from 'vitest';
import { clientAddressKey } from './client-address.ts';

describe('clientAddressKey', () => {
  it('keys an IPv4 address by itself', () => {
    expect(clientAddressKey('203.0.113.7')).toBe('203.0.113.7');
    expect(clientAddressKey('203.0.113.8')).not.toBe(clientAddressKey('203.0.113.7'));
  });

  it('keys an IPv4-mapped IPv6 address as its IPv4 address', () => {
    expect(clientAddressKey('::ffff:203.0.113.7')).toBe('203.0.113.7');
    expect(clientAddressKey('::FFFF:cb00:7107')).toBe('203.0.113.7');
  });

  it('keys every address of one IPv6 /64 alike, whatever its spelling', () => {
    const key = clientAddressKey('2001:db8:1:2::1');
    expect(key).toBe('2001:db8:1:2::/64');
    for (const ip of [
      '2001:db8:1:2:ffff:ffff:ffff:ffff',
      '2001:0DB8:0001:0002:abcd:ef01:2345:6789',
      '2001:db8:1:2:0:0:0:0',
      '2001:db8:1:2::1%eth0',
    ]) {
      expect(clientAddressKey(ip), ip).toBe(key);
    }
  });

  it('keys different /64s apart, even next to each other', () => {
    expect(clientAddressKey('2001:db8:1:3::1')).toBe('2001:db8:1:3::/64');
    expect(clientAddressKey('2001:db8:1:3::1')).not.toBe(clientAddressKey('2001:db8:1:2::1'));
    expect(clientAddressKey('::1')).toBe('::/64');
  });

  it('keeps a text that is no address as it is', () => {
    expect(clientAddressKey('unknown')).toBe('unknown');
    expect(clientAddressKey('')).toBe('');
  });
});
