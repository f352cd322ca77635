import { existsSync, rmdirSync, rmSync } from 'node:fs'
import { dirname } from 'node:path'
import { CliError, EXIT } from './util'

/**
 * Whether a command may create the workspace it is given. Only the commands that bring a
 * dataset in may (`import`, `package --open`, and `factlab call` of the calls behind them;
 * `serve` opens the app, which makes its own): any other command on a path that does not exist
 * is a typo, and creating an empty workspace there would hide it (an empty list, "no dataset").
 */
export type WorkspaceUse = 'existing' | 'mayCreate'

/** The one line a mistyped --workspace gets. */
export function noWorkspace(file: string): string {
  return `No workspace at ${file} (a new one is created by factlab import or factlab package --open)`
}

/**
 * Checks the workspace path before anything opens it, and returns what undoes a creation: a
 * command that fails must not leave behind a workspace it made (nor the folders made for it).
 */
export function claimWorkspace(file: string, use: WorkspaceUse): () => void {
  if (existsSync(file)) return () => {}
  if (use === 'existing') throw new CliError(noWorkspace(file), EXIT.badInput)
  const madeDirs: string[] = []
  for (let dir = dirname(file); !existsSync(dir) && dirname(dir) !== dir; dir = dirname(dir))
    madeDirs.push(dir)
  return () => {
    // SQLite's side files go with the file; in WAL mode they may outlive a failed open.
    for (const side of ['', '-wal', '-shm', '-journal']) rmSync(`${file}${side}`, { force: true })
    for (const dir of madeDirs) {
      try {
        rmdirSync(dir)
      } catch {
        return // not empty: something else now lives there, so it and its parents stay
      }
    }
  }
}
