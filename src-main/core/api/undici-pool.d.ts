/**
 * undici's Pool module on its own (transport.ts loads it). The package's
 * index loads every part of undici (fetch, WebSocket, caches, mocks, proxy
 * agents) where the desk uses one Pool per origin: about 6 MB of the data
 * worker's memory. The package has no exports map, so the file is
 * reachable; its type is the one the index exports.
 */
declare module 'undici/lib/dispatcher/pool.js' {
  import type { Pool } from 'undici';
  const PoolClass: typeof Pool;
  export default PoolClass;
}
