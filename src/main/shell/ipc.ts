import { type BrowserWindow, type IpcMainInvokeEvent, ipcMain } from 'electron'
import { CALL_NAMES, type RpcResult } from '../../shared/contract'
import type { AppContext } from '../app/context'
import { dispatch, type Handlers } from '../rpc/dispatch'
import { IPC_CALL_PREFIX, IPC_EVENT_CHANNEL } from './channels'
import { isTrustedRendererUrl, type RendererSource } from './trust'

const REFUSED: RpcResult<never> = {
  ok: false,
  error: { code: 'failed', message: 'Refused: this call did not come from the FactLab window.' },
}

/** Only the app's own top-level page may call main; sub-frames and foreign pages are refused. */
function trusted(event: IpcMainInvokeEvent, source: RendererSource): boolean {
  const frame = event.senderFrame
  if (!frame || frame.parent !== null) return false
  return isTrustedRendererUrl(frame.url, source)
}

/** One channel per contract call, each going through the same dispatch as browser mode. */
export function registerCalls(
  handlers: Handlers,
  source: RendererSource,
  workspaceFile: () => string,
): () => void {
  for (const name of CALL_NAMES) {
    ipcMain.handle(`${IPC_CALL_PREFIX}${name}`, (event, input: unknown) =>
      trusted(event, source) ? dispatch(handlers, name, input, workspaceFile()) : REFUSED,
    )
  }
  return () => {
    for (const name of CALL_NAMES) ipcMain.removeHandler(`${IPC_CALL_PREFIX}${name}`)
  }
}

/** Pushes main's events to the window for as long as it lives. */
export function forwardEvents(ctx: AppContext, win: BrowserWindow): () => void {
  const unsubscribe = ctx.events.subscribe((name, payload) => {
    if (!win.isDestroyed()) win.webContents.send(IPC_EVENT_CHANNEL, name, payload)
  })
  win.on('closed', unsubscribe)
  return unsubscribe
}
