import { contextBridge, type IpcRendererEvent, ipcRenderer, webUtils } from 'electron'
import { IPC_CALL_PREFIX, IPC_EVENT_CHANNEL } from '../main/shell/channels'
import {
  CALL_NAMES,
  EVENT_NAMES,
  type EventName,
  type FactlabBridge,
  type RpcResult,
} from '../shared/contract'

const knownEvents = new Set<string>(EVENT_NAMES)

/**
 * One function per contract call, each bound to its own channel: the page can reach exactly the
 * calls of the contract and nothing else of ipcRenderer.
 */
const calls: FactlabBridge['calls'] = Object.fromEntries(
  CALL_NAMES.map((name) => [
    name,
    (input: unknown) => ipcRenderer.invoke(`${IPC_CALL_PREFIX}${name}`, input) as Promise<RpcResult<unknown>>,
  ]),
)

const bridge: FactlabBridge = {
  calls,
  onEvent(listener) {
    const forward = (_event: IpcRendererEvent, name: unknown, payload: unknown): void => {
      if (typeof name === 'string' && knownEvents.has(name)) listener(name as EventName, payload)
    }
    ipcRenderer.on(IPC_EVENT_CHANNEL, forward)
    return () => {
      ipcRenderer.removeListener(IPC_EVENT_CHANNEL, forward)
    }
  },
  // Main then reads a picked file from disk itself, however large, instead of its bytes over IPC.
  pathForFile: (file) => webUtils.getPathForFile(file),
}

contextBridge.exposeInMainWorld('factlab', Object.freeze(bridge))
