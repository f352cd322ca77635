/** IPC channel names shared by the shell and the preload (kept free of imports so both can bundle it). */
export const IPC_CALL_PREFIX = 'factlab:'
export const IPC_EVENT_CHANNEL = 'factlab:event'
