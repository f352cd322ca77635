#!/usr/bin/env node
// The `factlab` command: runs the built CLI when present, else the TypeScript source through tsx.
import { existsSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')
const built = join(root, 'out', 'main', 'cli.js')
if (existsSync(built)) {
  const { runCli } = await import(pathToFileURL(built).href)
  process.exitCode = await runCli(process.argv.slice(2))
} else {
  const { register } = await import('tsx/esm/api')
  register()
  const { runCli } = await import(pathToFileURL(join(root, 'src', 'main', 'cli', 'index.ts')).href)
  process.exitCode = await runCli(process.argv.slice(2))
}
