import { copyFileSync, existsSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Workspace } from '../../src/main/app/workspace'

/**
 * A new, empty workspace costs every migration, each its own transaction and so its own fsync:
 * most of a small test's time on a real disk. The first one this process asks for is made that
 * way and closed (checkpointed: the file is the whole workspace); later ones are copies of it,
 * byte for byte the file the first start makes. The migrations themselves are tested in
 * test/store on files they build step by step.
 */
let template: string | null = null

function madeOnce(): string {
  if (template) return template
  const dir = mkdtempSync(join(tmpdir(), 'factlab-template-'))
  process.once('exit', () => rmSync(dir, { recursive: true, force: true }))
  const file = join(dir, 'empty.factlab')
  Workspace.open(file).close()
  template = file
  return file
}

/**
 * Puts a new, empty workspace at `file` unless a file is there already (then it is left as it
 * is) and returns the path, for `Workspace.open` or a command to open.
 */
export function freshWorkspaceFile(file: string): string {
  if (!existsSync(file)) copyFileSync(madeOnce(), file)
  return file
}
