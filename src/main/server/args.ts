import { resolve } from 'node:path'
import { parseArgs } from 'node:util'
import { defaultWorkspacePath } from '../app/paths'

export interface ServeArgs {
  workspaceFile: string
  port: number
  rendererDir?: string
  help: boolean
}

export const SERVE_USAGE = `Usage: npm run serve [-- --workspace FILE --port N]

  --workspace FILE   workspace to open or create (default: ${defaultWorkspacePath()})
  --port N           port on 127.0.0.1 (default 0: any free port)
  --renderer DIR     built renderer to serve (default: out/renderer)
  --help             show this text`

/** Parses the serve command line; throws an Error whose message is fit to print. */
export function parseServeArgs(argv: readonly string[]): ServeArgs {
  const { values } = parseArgs({
    args: [...argv],
    options: {
      workspace: { type: 'string', short: 'w' },
      port: { type: 'string', short: 'p' },
      renderer: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
    strict: true,
    allowPositionals: false,
  })
  const portText = values.port ?? '0'
  const port = Number(portText)
  if (!/^\d+$/.test(portText) || port > 65535)
    throw new Error(`--port must be a whole number from 0 to 65535, got "${portText}".`)
  return {
    workspaceFile: resolve(values.workspace ?? defaultWorkspacePath()),
    port,
    rendererDir: values.renderer === undefined ? undefined : resolve(values.renderer),
    help: values.help ?? false,
  }
}
