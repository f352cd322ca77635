import { copyFileSync, existsSync } from 'node:fs'
import { join } from 'node:path'
import { Workspace } from '../../src/main/app/workspace'
import { loadDemoIfEmpty } from '../../src/main/demo/loadDemo'
import { providedTemplates } from './templates'

/**
 * A workspace file in `dir` holding the demo dataset, closed so a CLI process can open it: a copy
 * of the run's demo workspace (templates.ts), the file a first start with the demo makes. A
 * workspace already there, or any outside vitest (no template), gets the demo loaded into it if it
 * is empty.
 */
export function demoWorkspaceIn(dir: string): string {
  const file = join(dir, 'w.factlab')
  const provided = providedTemplates()
  if (!existsSync(file) && provided) {
    copyFileSync(provided.demo, file)
    return file
  }
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
