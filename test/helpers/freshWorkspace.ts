import { copyFileSync, existsSync } from 'node:fs'
import { templates } from './templates'

/**
 * Puts a new, empty workspace at `file` unless a file is there already (then it is left as it
 * is) and returns the path, for `Workspace.open` or a command to open. The file is a copy of the
 * run's template (templates.ts): byte for byte the file the first start makes.
 */
export function freshWorkspaceFile(file: string): string {
  if (!existsSync(file)) copyFileSync(templates().empty, file)
  return file
}
