/** The preload exposes `window.api` for the contract's channels only. */
export {};
