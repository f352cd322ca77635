#!/usr/bin/env node
// The `factlab` command: runs the built CLI while it is current, else the TypeScript source
// through tsx (scripts/lib/cliEntry.js), so a source change is never answered by old code.
import { dirname, join } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { cliEntry } from '../scripts/lib/cliEntry.js'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')
const entry = cliEntry(root)

/** tsx, when installed; null otherwise (then only a build can run). */
async function tsx() {
  try {
    return await import('tsx/esm/api')
  } catch {
    return null
  }
}

let file = entry.file
if (entry.kind === 'source') {
  const loader = await tsx()
  if (loader) {
    loader.register()
    // Said only to a person at a terminal: a script's stderr stays the command's own.
    if (entry.stale && process.stderr.isTTY)
      process.stderr.write(
        'factlab: out/ is older than src/, running from source (npm run build makes it quick again)\n',
      )
  } else if (entry.built) {
    process.stderr.write(
      'factlab: out/ is older than src/ and tsx is not installed: this is the old build; run npm run build\n',
    )
    file = entry.built
  } else {
    process.stderr.write(
      'factlab: no build in out/ and tsx is not installed: run npm install, then npm run build\n',
    )
    process.exit(1)
  }
}
const { runCli } = await import(pathToFileURL(file).href)
process.exitCode = await runCli(process.argv.slice(2))
