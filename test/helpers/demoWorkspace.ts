import { join } from 'node:path'
import { Workspace } from '../../src/main/app/workspace'
import { loadDemoIfEmpty } from '../../src/main/demo/loadDemo'
import { freshWorkspaceFile } from './freshWorkspace'

/** A workspace file in `dir` holding the demo dataset, closed so a CLI process can open it. */
export function demoWorkspaceIn(dir: string): string {
  const file = freshWorkspaceFile(join(dir, 'w.factlab'))
  const ws = Workspace.open(file)
  loadDemoIfEmpty(ws)
  ws.close()
  return file
}

/** `SELECT COUNT(*) AS n …` on a closed workspace file, opened and closed around the query. */
export function countIn(file: string, sql: string): number {
  const ws = Workspace.open(file)
  try {
    return (ws.db.prepare(sql).get() as { n: number }).n
  } finally {
    ws.close()
  }
}
