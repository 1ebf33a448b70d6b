import { describe, expect, it } from 'vitest';
import { apiKeySealingKey, generateApiKey, hashApiKey, openApiKey, sealApiKey } from './api-key-crypto.ts';

describe('API keys at rest', () => {
  const sealing = apiKeySealingKey('a-server-secret-a-server-secret-0123456789');

  it('makes keys of 256 random bits that differ every time', () => {
    const a = generateApiKey();
    expect(a).toMatch(/^sl_[A-Za-z0-9_-]{43}$/);
    expect(generateApiKey()).not.toBe(a);
  });

  it('seals and opens a key; the sealed form and the hash do not contain it', () => {
    const key = generateApiKey();
    const sealed = sealApiKey(key, sealing);
    expect(sealed).not.toContain(key.slice(3));
    expect(hashApiKey(key)).toMatch(/^[0-9a-f]{64}$/);
    expect(openApiKey(sealed, sealing)).toBe(key);
  });

  it('cannot be opened under another server secret, nor once altered', () => {
    const sealed = sealApiKey(generateApiKey(), sealing);
    expect(() => openApiKey(sealed, apiKeySealingKey('another-secret-another-secret-0123456789'))).toThrow();
    const flipped = `${sealed.slice(0, -2)}${sealed.endsWith('AA') ? 'BB' : 'AA'}`;
    expect(() => openApiKey(flipped, sealing)).toThrow();
  });
});
