import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { z } from 'zod';
import type { AccessTokenView } from '../../../src-shared/access.ts';
import { conflict, notFound } from '../../core/errors.ts';
import { readJsonFile, writePrivateFile } from './private-file.ts';

/**
 * Bearer tokens for scripts, made in Settings: shown once when made, kept
 * only as their SHA-256 (a token is 256 random bits, so a fast hash is
 * enough; a password needs scrypt), revocable, in a 0600 file of the
 * profile folder.
 */

export const MAX_TOKENS = 100;
const PREFIX = 'mdt_';

const storedToken = z.strictObject({
  id: z.string().max(40),
  name: z.string().max(60),
  hash: z.string().length(64),
  createdAt: z.number(),
  lastUsedAt: z.number().nullable(),
});
const storedTokens = z.array(storedToken).max(MAX_TOKENS);
type StoredToken = z.output<typeof storedToken>;

export interface BearerTokens {
  list(): AccessTokenView[];
  /** A new token: its text, returned here only. */
  create(name: string, now: number): { token: string; view: AccessTokenView };
  revoke(id: string): void;
  /** The token's entry, or null; a use is noted (written at most once a minute). */
  verify(token: string, now: number): AccessTokenView | null;
  /** Told of each token revoked (its sockets close). */
  onRevoke(listener: (id: string) => void): void;
}

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');
const viewOf = ({ id, name, createdAt, lastUsedAt }: StoredToken): AccessTokenView => ({ id, name, createdAt, lastUsedAt });

export function openBearerTokens(path: string): BearerTokens {
  const raw = readJsonFile(path);
  let tokens: StoredToken[] = raw === null ? [] : storedTokens.parse(raw);
  const listeners: Array<(id: string) => void> = [];
  const save = () => writePrivateFile(path, `${JSON.stringify(tokens)}\n`);
  return {
    list: () => tokens.map(viewOf),
    create(name, now) {
      if (tokens.length >= MAX_TOKENS) throw conflict(`There are ${MAX_TOKENS} tokens already: revoke one you no longer use first.`);
      const id = randomBytes(6).toString('hex');
      const token = `${PREFIX}${randomBytes(32).toString('base64url')}`;
      const entry: StoredToken = { id, name, hash: sha256(token), createdAt: now, lastUsedAt: null };
      tokens = [...tokens, entry];
      save();
      return { token, view: viewOf(entry) };
    },
    revoke(id) {
      if (!tokens.some((t) => t.id === id)) throw notFound('That token was revoked already.');
      tokens = tokens.filter((t) => t.id !== id);
      save();
      for (const listener of listeners) listener(id);
    },
    verify(token, now) {
      if (!token.startsWith(PREFIX) || token.length > 200) return null;
      const hash = Buffer.from(sha256(token), 'hex');
      const entry = tokens.find((t) => timingSafeEqual(Buffer.from(t.hash, 'hex'), hash));
      if (!entry) return null;
      if (entry.lastUsedAt === null || now - entry.lastUsedAt > 60_000) {
        entry.lastUsedAt = now;
        save();
      }
      return viewOf(entry);
    },
    onRevoke(listener) {
      listeners.push(listener);
    },
  };
}
