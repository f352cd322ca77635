// Runs commands side by side, a few at a time, and reports each one's output whole, under its
// name, once it ends, so two checks' lines never interleave. Used by scripts/checks.js.
import { spawn } from 'node:child_process'

function run(check, cwd) {
  const started = Date.now()
  return new Promise((resolve) => {
    const chunks = []
    const child = spawn(check.cmd[0], check.cmd.slice(1), { cwd, stdio: ['ignore', 'pipe', 'pipe'] })
    child.stdout.on('data', (c) => chunks.push(c))
    child.stderr.on('data', (c) => chunks.push(c))
    let ended = false
    const end = (code, why) => {
      if (ended) return
      ended = true
      const output = Buffer.concat(chunks).toString('utf8').trimEnd()
      resolve({
        ...check,
        ok: code === 0,
        seconds: ((Date.now() - started) / 1000).toFixed(1),
        output: why ? `${output}\n${why}`.trim() : output,
      })
    }
    child.on('error', (e) => end(1, `could not start ${check.cmd[0]}: ${e.message}`))
    child.on('close', (code, signal) => end(code ?? 1, signal ? `stopped by ${signal}` : ''))
  })
}

function block(r) {
  const head = `── ${r.ok ? '✓' : '✗'} ${r.name} (${r.shows}) ${r.ok ? 'passed' : 'FAILED'} in ${r.seconds} s`
  return r.output ? `\n${head}\n${r.output}` : `\n${head}`
}

/**
 * Runs every check, `atOnce` at a time in the order given, even when one fails (one run shows
 * every problem). `print` gets each one's block as it ends, then a last line naming the failed
 * ones. Resolves to true when all passed.
 */
export async function runChecks(checks, { cwd, atOnce, print }) {
  const results = []
  let next = 0
  const lane = async () => {
    while (next < checks.length) {
      const r = await run(checks[next++], cwd)
      print(block(r))
      results.push(r)
    }
  }
  await Promise.all(Array.from({ length: Math.max(1, Math.min(atOnce, checks.length)) }, lane))
  const failed = results.filter((r) => !r.ok)
  print(
    failed.length > 0
      ? `\n${failed.length} of ${results.length} checks failed: ${failed.map((r) => r.name).join(', ')} (output above, under each name)`
      : `\n${results.length === 1 ? 'The check' : `All ${results.length} checks`} passed: ${results.map((r) => r.name).join(', ')}`,
  )
  return failed.length === 0
}
