import { existsSync, mkdirSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { sizeWords } from '../../shared/storeTrouble'
import { type BackupOutcome, backupDir, backupOnOpen } from '../store/backups'
import { WorkspaceError } from '../store/connection'
import { parseServeArgs, SERVE_USAGE } from './args'
import { startServer } from './server'
import { markServing, otherServerWarning } from './serverMark'

/** The built renderer sits beside the built main bundle: out/main/serve.js → out/renderer. */
function builtRendererDir(): string {
  return join(dirname(fileURLToPath(import.meta.url)), '..', 'renderer')
}

async function main(): Promise<void> {
  let args: ReturnType<typeof parseServeArgs>
  try {
    args = parseServeArgs(process.argv.slice(2))
  } catch (error) {
    console.error(`${error instanceof Error ? error.message : String(error)}\n\n${SERVE_USAGE}`)
    process.exit(2)
  }
  if (args.help) {
    console.log(SERVE_USAGE)
    return
  }
  mkdirSync(dirname(args.workspaceFile), { recursive: true })
  const existed = existsSync(args.workspaceFile)
  const server = await startServer({
    workspaceFile: args.workspaceFile,
    port: args.port,
    rendererDir: args.rendererDir ?? builtRendererDir(),
    loadDemo: true,
  })
  const mark = markServing(args.workspaceFile, server.origin)
  // Listening for the stop signals before the URL is printed: whoever reads it may stop us at once.
  let stopping = false
  const stop = (signal: string): void => {
    if (stopping) return
    stopping = true
    console.log(`\n${signal}: closing the workspace…`)
    mark.release()
    server.close().then(
      () => process.exit(0),
      (error: unknown) => {
        console.error(error)
        process.exit(1)
      },
    )
  }
  process.on('SIGINT', () => stop('SIGINT'))
  process.on('SIGTERM', () => stop('SIGTERM'))
  const backup = await backupOnOpen(server.ctx.workspace.db, args.workspaceFile, existed)
  console.log(`Workspace: ${args.workspaceFile}`)
  console.log(backupWords(backup, args.workspaceFile))
  console.log(`FactLab (browser mode) at ${server.url}`)
  console.log('Only this machine can connect. Press Ctrl+C to stop.')
  if (mark.other) console.warn(otherServerWarning(mark.other))
}

/** Where backups go and how big they are: each needs that much free disk. */
function backupWords(backup: BackupOutcome | null, workspaceFile: string): string {
  if (!backup) return 'Backup: none yet (a new or empty workspace has nothing to keep)'
  const size = sizeWords(backup.bytes)
  const where = `the newest 5 are kept in ${backupDir(workspaceFile)}`
  return backup.reused
    ? `Backup: unchanged since the last one (${backup.file}, ${size}), so none was taken; ${where}`
    : `Backup taken: ${backup.file} (${size}); ${where}`
}

function startFailure(error: unknown): string {
  if (error instanceof Error && 'code' in error && error.code === 'EADDRINUSE')
    return 'that port is already in use on 127.0.0.1; choose another with --port N, or --port 0 for any free port.'
  return error instanceof Error ? error.message : String(error)
}

main().catch((error: unknown) => {
  console.error(`FactLab could not start: ${startFailure(error)}`)
  // A workspace another FactLab is writing to opens later: 75 (try again later), as in the CLI.
  process.exit(error instanceof WorkspaceError && error.trouble ? 75 : 1)
})
