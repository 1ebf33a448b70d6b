/**
 * API keys at rest (DESIGN §8). A key is `sl_` and 32 CSPRNG bytes in base64url (256 bits).
 * The database keeps two things, neither a usable key: its SHA-256 (what `x-api-key` is looked up by)
 * and the key sealed with AES-256-GCM under a key derived (HKDF-SHA-256) from the server's JWT secret,
 * which lives in the environment or `DATA_DIR`, never in the database. So a leaked database yields no
 * key, while Get Key can still show the member theirs.
 */
import { createCipheriv, createDecipheriv, createHash, hkdfSync, randomBytes } from 'node:crypto';

const PREFIX = 'sl_';
const IV_BYTES = 12;
const TAG_BYTES = 16;

/** A fresh API key: `sl_` and 43 base64url characters (32 random bytes). */
export function generateApiKey(): string {
  return `${PREFIX}${randomBytes(32).toString('base64url')}`;
}

/** The lookup form of a key: SHA-256, hex. (A key has 256 bits of entropy: no salt or slow hash needed.) */
export function hashApiKey(key: string): string {
  return createHash('sha256').update(key).digest('hex');
}

/** The 32-byte sealing key derived from the server secret (HKDF-SHA-256, info `starlight api key`). */
export function apiKeySealingKey(serverSecret: string): Buffer {
  return Buffer.from(hkdfSync('sha256', serverSecret, '', 'starlight api key', 32));
}

/** Seals `key` with AES-256-GCM: base64url of IV (12 bytes), tag (16 bytes) and ciphertext. */
export function sealApiKey(key: string, sealingKey: Buffer): string {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', sealingKey, iv);
  const body = Buffer.concat([cipher.update(key, 'utf8'), cipher.final()]);
  return Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64url');
}

/** Opens what `sealApiKey` sealed. Throws when it was sealed under another key or altered. */
export function openApiKey(sealed: string, sealingKey: Buffer): string {
  const raw = Buffer.from(sealed, 'base64url');
  const decipher = createDecipheriv('aes-256-gcm', sealingKey, raw.subarray(0, IV_BYTES));
  decipher.setAuthTag(raw.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
  return Buffer.concat([decipher.update(raw.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]).toString('utf8');
}
