// Runs Doyensec's Electronegativity over the Electron shell and preload, and fails on any finding
// of HIGH or MEDIUM severity (lower ones are printed for review). `npm test` runs it after the build.
import Module, { createRequire } from 'node:module'
import { dirname, join, relative } from 'node:path'
import { fileURLToPath } from 'node:url'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')
const require = createRequire(import.meta.url)
const runnerPath = require.resolve('@doyensec/electronegativity/dist/runner.js')

// The tool fetches updated UI translations from GitHub at start; CI has no network and needs
// none, so that one request is answered locally with "not available" and the bundled texts are used.
const i18nRequire = createRequire(join(dirname(runnerPath), 'locales', 'i18n.js'))
const gotPath = i18nRequire.resolve('got')
i18nRequire.cache[gotPath] = {
  id: gotPath,
  filename: gotPath,
  loaded: true,
  exports: () => Promise.reject(new Error('offline')),
}

// Its TypeScript parser (typescript-estree 4) is hoisted beside the project's TypeScript 7, whose
// JavaScript API it cannot use; point it at the TypeScript 4.2 the tool ships with.
const bundledTs = createRequire(runnerPath).resolve('typescript')
const resolveFilename = Module._resolveFilename
Module._resolveFilename = function (request, parent, ...rest) {
  if (request === 'typescript' && parent?.filename?.includes(`${join('node_modules', '@typescript-eslint')}`))
    return bundledTs
  return resolveFilename.call(this, request, parent, ...rest)
}

const run = require(runnerPath)
// The tool reads the version from the scanned folder's package.json; ours is the installed one.
const electronVersion = require('electron/package.json').version
const FAILING = new Set(['HIGH', 'MEDIUM'])
const inputs = process.argv.slice(2).length > 0 ? process.argv.slice(2) : ['src']

// The tool logs its own progress chatter through console.log; keep the report readable.
const log = console.log
let failed = 0
for (const input of inputs) {
  console.log = () => {}
  let result
  try {
    result = await run(
      { input: join(root, input), isRelative: true, electronVersionOverride: electronVersion },
      false,
    )
  } finally {
    console.log = log
  }
  for (const error of result.errors) {
    // A shell or preload file the tool cannot read would hide its findings, so that fails too.
    const hides = !error.tolerable && /[\\/](main|preload)[\\/]/.test(error.file)
    if (hides) failed++
    log(`${hides ? 'FAIL' : 'note'} could not parse ${error.file}: ${error.message}`)
  }
  for (const issue of result.issues) {
    const severity = issue.severity.name ?? String(issue.severity)
    const bad = FAILING.has(severity.toUpperCase())
    if (bad) failed++
    const where = `${relative(root, join(root, input, issue.file))}:${issue.location.line}:${issue.location.column}`
    log(
      `${bad ? 'FAIL' : 'note'} ${issue.id} [${severity}/${issue.confidence.name ?? issue.confidence}] ${where}`,
    )
    log(`     ${issue.description}`)
  }
  log(
    `Electronegativity: ${input}: ${result.atomicChecks + result.globalChecks} checks, ${result.issues.length} findings`,
  )
}
if (failed > 0) {
  console.error(`Electronegativity found ${failed} issue(s) of HIGH or MEDIUM severity.`)
  process.exit(1)
}
