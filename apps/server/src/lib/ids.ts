/** Object ids (DESIGN §3): 24 lowercase hex characters in ObjectId layout, so they sort by time. */
import { randomBytes } from 'node:crypto';

const processRandom = randomBytes(5).toString('hex');
let counter = randomBytes(3).readUIntBE(0, 3);

/** A new 24-character hex id: 4 bytes of seconds, 5 process-random bytes, a 3-byte counter. */
export function newObjectId(): string {
  counter = (counter + 1) % 0xffffff;
  const seconds = Math.floor(Date.now() / 1000)
    .toString(16)
    .padStart(8, '0');
  return seconds + processRandom + counter.toString(16).padStart(6, '0');
}
