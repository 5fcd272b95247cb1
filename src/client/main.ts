/** Entry point of the play page script (placeholder until the board lands). */
declare const __WORKER_FILE__: string; // hashed worker file name, set by scripts/build-client.ts

export const WORKER_FILE = __WORKER_FILE__;
