import { join } from 'node:path'
import { afterEach } from 'vitest'
import { Workspace } from '../../src/main/app/workspace'
import { freshWorkspaceFile } from '../helpers/freshWorkspace'
import { tmpDirs } from '../helpers/tmp'

export const FIXTURES = join(__dirname, '../fixtures/import')
export const fixture = (name: string) => join(FIXTURES, name)

const TABLES = [
  'datasets',
  'items',
  'candidates',
  'units',
  'targets',
  'annotators',
  'labels',
  'label_history',
  'gold',
  'runs',
  'verdicts',
]

/** Row counts of every table a failed import could have touched. */
export function tableCounts(ws: Workspace): Record<string, number> {
  return Object.fromEntries(
    TABLES.map((t) => [t, (ws.db.prepare(`SELECT COUNT(*) AS n FROM ${t}`).get() as { n: number }).n]),
  )
}

/** A fresh workspace file per test, closed and removed afterwards. */
export function workspaces(): { ws: () => Workspace; dir: () => string } {
  const tmp = tmpDirs()
  const open: Workspace[] = []
  // Registered after tmpDirs' hook, so (hooks run as a stack) files close before folders go.
  afterEach(() => {
    for (const w of open.splice(0)) w.close()
  })
  return {
    dir: tmp,
    ws: () => {
      const ws = Workspace.open(freshWorkspaceFile(join(tmp(), 'w.factlab')))
      open.push(ws)
      return ws
    },
  }
}

export function rows<T>(ws: Workspace, sql: string, ...params: unknown[]): T[] {
  return ws.db.prepare(sql).all(...params) as T[]
}
