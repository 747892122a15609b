/** The data worker's TypeScript entry, which Node 24 runs as a worker thread (types stripped). */
export const DESK_WORKER = new URL('../../src-main/worker/desk-worker.ts', import.meta.url);
