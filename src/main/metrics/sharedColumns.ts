/**
 * Columns the Compare view's worker thread is handed (compareInBackground.ts: the label columns,
 * the targets' variants, gold and stored gold) are laid on shared memory where the usual path
 * makes them: posting them to the thread then shares them instead of copying them (some twenty
 * megabytes at a million targets, a copy the main thread paid before the thread could start).
 * Nothing writes them once they are made. Zero-filled, as `new Int32Array(n)` is.
 */
export const sharedInt32 = (n: number): Int32Array => new Int32Array(new SharedArrayBuffer(4 * n))
export const sharedUint16 = (n: number): Uint16Array => new Uint16Array(new SharedArrayBuffer(2 * n))
export const sharedInt8 = (n: number): Int8Array => new Int8Array(new SharedArrayBuffer(n))
export const sharedUint8 = (n: number): Uint8Array => new Uint8Array(new SharedArrayBuffer(n))
