import { vi } from 'vitest'
import { runCli } from '../../src/main/cli/index'

export interface CliResult {
  code: number
  /** Everything the command wrote to stdout. */
  out: string
  /** Everything the command wrote to stderr. */
  err: string
}

/**
 * Runs `factlab <args>` in-process and captures what it prints. Each call gets its own capture,
 * so a test can check one command's output without clearing what earlier commands wrote.
 */
export async function cli(args: string[]): Promise<CliResult> {
  let out = ''
  let err = ''
  const o = vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => {
    out += String(chunk)
    return true
  })
  const e = vi.spyOn(process.stderr, 'write').mockImplementation((chunk) => {
    err += String(chunk)
    return true
  })
  try {
    const code = await runCli(args)
    return { code, out, err }
  } finally {
    o.mockRestore()
    e.mockRestore()
  }
}
