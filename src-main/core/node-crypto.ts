import type { BinaryLike, Hmac, KeyObject } from 'node:crypto';

/**
 * What the desk uses of Node's crypto module, loaded the first time one is
 * called rather than with the desk's code: loading the module takes a worker
 * thread 3 to 5 ms on its way to the first page, which needs none of it (ids
 * are made for drafts, runs and files, and alerts signed, later).
 */
const crypto = () => process.getBuiltinModule('node:crypto');

export const randomUUID = (): string => crypto().randomUUID();
export const randomBytes = (size: number): Buffer => crypto().randomBytes(size);
export const createHmac = (algorithm: string, key: BinaryLike | KeyObject): Hmac => crypto().createHmac(algorithm, key);
