import type { CallOutput } from '../../shared/contract'
import { api } from './api'

type Info = CallOutput<'workspace.info'>

let asked: Promise<Info> | null = null

/**
 * The open workspace's file and format, read once for the page: a workspace is switched only by
 * File › Open, which reloads the page (menuCommands.ts). The window and the label saver both need
 * it at start, and the first screen at a large workspace waits behind every call made. A failed
 * read is forgotten, so the next ask tries again (a page loaded before its server is back).
 */
export function workspaceInfo(): Promise<Info> {
  if (asked) return asked
  const mine = api('workspace.info', {})
  asked = mine
  mine.catch(() => {
    if (asked === mine) asked = null
  })
  return mine
}
