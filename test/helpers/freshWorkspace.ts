import { copyFileSync, existsSync } from 'node:fs'
import { Workspace } from '../../src/main/app/workspace'
import { providedTemplates } from './templates'

/**
 * Puts a new, empty workspace at `file` unless a file is there already (then it is left as it
 * is) and returns the path, for `Workspace.open` or a command to open. Under vitest the file is a
 * copy of the run's template (templates.ts): byte for byte the file the first start makes. Outside
 * vitest (the bench reaches this through test/runs/helpers.ts) there is no template, and the file
 * is made as a first start makes it.
 */
export function freshWorkspaceFile(file: string): string {
  if (existsSync(file)) return file
  const provided = providedTemplates()
  if (provided) copyFileSync(provided.empty, file)
  else Workspace.open(file).close()
  return file
}
