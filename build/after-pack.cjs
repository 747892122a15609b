/**
 * electron-builder's afterPack hook: flips Electron's fuses in the packaged
 * binary, before it is signed. Fuses are switches compiled into the binary,
 * so no environment variable or flag can turn these features back on:
 *
 * - RunAsNode off: ELECTRON_RUN_AS_NODE cannot turn the app into a plain
 *   Node that runs any script with the app's keychain access.
 * - EnableNodeOptionsEnvironmentVariable off: NODE_OPTIONS cannot inject code.
 * - EnableNodeCliInspectArguments off: --inspect cannot attach a debugger.
 * - EnableEmbeddedAsarIntegrityValidation on, OnlyLoadAppFromAsar on: only
 *   the signed app.asar runs, unmodified (macOS and Windows check the hash).
 * - EnableCookieEncryption on: cookies at rest are encrypted by the OS keychain.
 * - GrantFileProtocolExtraPrivileges off: the renderer is served from app://,
 *   so file:// pages get no extra rights.
 */
'use strict';

/** The fuse settings, by FuseV1Options name. */
const FUSES = {
  RunAsNode: false,
  EnableNodeOptionsEnvironmentVariable: false,
  EnableNodeCliInspectArguments: false,
  EnableEmbeddedAsarIntegrityValidation: true,
  OnlyLoadAppFromAsar: true,
  EnableCookieEncryption: true,
  GrantFileProtocolExtraPrivileges: false,
};

/** builder-util's Arch enum value for arm64. */
const ARCH_ARM64 = 3;

/** The file holding the fuse wire, per platform (a macOS .app is resolved by @electron/fuses). */
function electronBinary(context, path) {
  const { appOutDir, electronPlatformName: platform, packager } = context;
  const product = packager.appInfo.productFilename;
  if (platform === 'darwin' || platform === 'mas') return path.join(appOutDir, `${product}.app`);
  if (platform === 'win32') return path.join(appOutDir, `${product}.exe`);
  return path.join(appOutDir, packager.executableName);
}

async function afterPack(context) {
  const { flipFuses, FuseVersion, FuseV1Options } = await import('@electron/fuses');
  const path = await import('node:path');
  const config = { version: FuseVersion.V1 };
  for (const [name, value] of Object.entries(FUSES)) config[FuseV1Options[name]] = value;
  // An arm64 macOS binary must carry a valid (ad-hoc) signature to start at all.
  config.resetAdHocDarwinSignature = context.electronPlatformName === 'darwin' && context.arch === ARCH_ARM64;
  await flipFuses(electronBinary(context, path), config);
}

module.exports = afterPack;
module.exports.default = afterPack;
module.exports.FUSES = FUSES;
