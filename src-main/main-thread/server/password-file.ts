import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';
import { z } from 'zod';
import { readJsonFile, writePrivateFile } from './private-file.ts';

/**
 * The trader's password, as scrypt keeps it: a random salt and the derived
 * hash, in a file of the profile folder readable by the desk's user alone
 * (mode 0600). The cost is written beside the hash, so a stronger one later
 * still reads the old file.
 */

/** 2^15 × 8 × 128 bytes: 32 MiB and about a tenth of a second a guess, as OWASP advises for scrypt. */
const COST = { N: 2 ** 15, r: 8, p: 1 } as const;
const HASH_BYTES = 64;

const storedPassword = z.strictObject({
  kdf: z.literal('scrypt'),
  N: z.number().int().positive(),
  r: z.number().int().positive(),
  p: z.number().int().positive(),
  salt: z.string().min(16),
  hash: z.string().min(16),
  setAt: z.number(),
});

export interface PasswordFile {
  isSet(): boolean;
  verify(password: string): Promise<boolean>;
  /** Stores a new password (a new salt), replacing any old one. */
  set(password: string, now: number): Promise<void>;
}

function derive(password: string, salt: Buffer, cost: { N: number; r: number; p: number }): Promise<Buffer> {
  const options: ScryptOptions = { ...cost, maxmem: 256 * cost.N * cost.r };
  return new Promise((resolve, reject) => scrypt(password.normalize('NFC'), salt, HASH_BYTES, options, (error, key) => (error ? reject(error) : resolve(key))));
}

export function openPasswordFile(path: string): PasswordFile {
  const read = () => {
    const raw = readJsonFile(path);
    return raw === null ? null : storedPassword.parse(raw);
  };
  let stored = read();
  return {
    isSet: () => stored !== null,
    async verify(password) {
      if (!stored) return false;
      const expected = Buffer.from(stored.hash, 'base64');
      const actual = await derive(password, Buffer.from(stored.salt, 'base64'), stored);
      return actual.length === expected.length && timingSafeEqual(actual, expected);
    },
    async set(password, now) {
      const salt = randomBytes(16);
      const hash = await derive(password, salt, COST);
      const next = { kdf: 'scrypt' as const, ...COST, salt: salt.toString('base64'), hash: hash.toString('base64'), setAt: now };
      writePrivateFile(path, `${JSON.stringify(next)}\n`);
      stored = next;
    },
  };
}
