/**
 * `npm run bench`: runs every bench module in this folder (each exports `bench*` functions that
 * print their figures as ratios to the design's bars). Timings never live in the test suite.
 * `npm run bench -- metrics` runs only the modules whose file name contains "metrics".
 */
import { readdirSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'

const here = dirname(fileURLToPath(import.meta.url))
const only = process.argv.slice(2)
const files = readdirSync(here)
  .filter((f) => f.endsWith('.ts') && f !== 'index.ts' && !f.startsWith('_'))
  .filter((f) => only.length === 0 || only.some((o) => f.includes(o)))
  .sort()

for (const file of files) {
  const mod = (await import(pathToFileURL(join(here, file)).href)) as Record<string, unknown>
  for (const [name, fn] of Object.entries(mod)) {
    if (!name.startsWith('bench') || typeof fn !== 'function') continue
    process.stdout.write(`\n== ${file}: ${name}\n`)
    await (fn as () => Promise<void>)()
  }
}
