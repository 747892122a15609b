/**
 * What an installed copy trusts for its updates, fixed when it is built: the
 * feed's address and the public halves of the release signing keys. An
 * update file is installed only when its `.sig` verifies against one of
 * these keys (update-signature.ts); the private key lives in the release
 * workflow's UPDATE_SIGNING_KEY secret and nowhere in this repository.
 *
 * Rotating the key: add the new public key here beside the old one and ship
 * a release signed with the old key; then sign with the new key and, once
 * copies older than that release no longer matter, drop the old one. The
 * docs/releasing.md says the same, step by step.
 */

/** The feed named in build/electron-builder.yml (`publish`); a test holds the two equal. */
export const UPDATE_FEED_URL = 'https://updates.marketplacedesk.io/desk/';

/** Ed25519 public keys, SPKI PEM. build/sign-update.ts refuses to sign with a key whose half is not here. */
export const UPDATE_PUBLIC_KEYS: readonly string[] = [
  // Key id 7fe059efa1b97afd (see `keyId`).
  '-----BEGIN PUBLIC KEY-----\nMCowBQYDK2VwAyEATILwd7xSCywEAaz0/kel0HDYaYXoiO8ogBHtoJ7kw88=\n-----END PUBLIC KEY-----\n',
];
