import { spawn } from 'node:child_process'
import { existsSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { Command } from 'commander'
import { CliError, EXIT } from '../util'

/** The project folder: the CLI runs from src/main/cli/commands (tsx) or from out/main (built). */
function projectRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url))
  while (!existsSync(join(dir, 'scripts', 'serve.js'))) {
    const up = dirname(dir)
    if (up === dir) throw new CliError('cannot find scripts/serve.js beside this FactLab install')
    dir = up
  }
  return dir
}

/**
 * `factlab serve`: browser mode, exactly as `npm run serve` (which builds the app first when the
 * build is missing or stale). The server runs in a child so that its own signal handling — close
 * the workspace, then exit — stays the one place that owns it.
 */
export function registerServeCommand(program: Command): void {
  program
    .command('serve')
    .description('Open a workspace in browser mode on 127.0.0.1 (the same as npm run serve)')
    .option('--workspace <file>', 'workspace to open or create (default: the app’s own)')
    .option('--port <n>', 'port on 127.0.0.1 (default: any free port)')
    .action(async (opts: { workspace?: string; port?: string }) => {
      const args = [
        join(projectRoot(), 'scripts', 'serve.js'),
        ...(opts.workspace ? ['--workspace', opts.workspace] : []),
        ...(opts.port ? ['--port', opts.port] : []),
      ]
      const child = spawn(process.execPath, args, { stdio: 'inherit' })
      const forward = (signal: NodeJS.Signals) => () => child.kill(signal)
      const onInt = forward('SIGINT')
      const onTerm = forward('SIGTERM')
      process.on('SIGINT', onInt)
      process.on('SIGTERM', onTerm)
      const code = await new Promise<number>((resolve) =>
        child.on('exit', (c, signal) => resolve(c ?? (signal ? EXIT.badInput : EXIT.ok))),
      )
      process.off('SIGINT', onInt)
      process.off('SIGTERM', onTerm)
      // The server has already said why it stopped; pass its code on without a second message.
      if (code !== EXIT.ok)
        throw new CliError('', code === EXIT.usage || code === EXIT.tempFail ? code : EXIT.badInput)
    })
}
