import { type ChildProcess, spawn } from 'node:child_process'
import { existsSync, readdirSync } from 'node:fs'
import type { AddressInfo } from 'node:net'
import { createServer } from 'node:net'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { tmpDirs } from '../helpers/tmp'

const tmp = tmpDirs()
let child: ChildProcess | null = null
afterEach(() => {
  if (child && child.exitCode === null) child.kill('SIGKILL')
  child = null
})

/** What serve printed up to its URL, kept for the test to read. */
let printed = ''

function waitForUrl(proc: ChildProcess): Promise<string> {
  return new Promise((ok, fail) => {
    let out = ''
    proc.stdout?.on('data', (chunk: Buffer) => {
      out += chunk.toString()
      printed = out
      const match = /FactLab \(browser mode\) at (http:\/\/127\.0\.0\.1:\d+\/\?token=\S+)/.exec(out)
      if (match?.[1]) ok(match[1])
    })
    proc.on('exit', (code) => fail(new Error(`serve exited with ${code} before printing its URL:\n${out}`)))
  })
}

// Runs the built entry `npm run serve` starts, under plain Node: were anything in the serve graph
// to import electron, the electron package would try to fetch its binary and the start would fail
// here. (The build, not tsx: three starts through tsx outran a minute on a loaded machine.)
const SERVE = 'out/main/serve.js'
describe('npm run serve entry', () => {
  it('opens the workspace with the demo, prints its URL, stops cleanly on SIGTERM, and backs it up when it opens again', async () => {
    const dir = tmp()
    const workspace = join(dir, 'nested', 'w.factlab')
    child = spawn(process.execPath, [SERVE, '--workspace', workspace], {
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    const url = new URL(await waitForUrl(child))
    const token = url.searchParams.get('token') ?? ''
    const res = await fetch(new URL('/api/call/datasets.list', url), {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-factlab-token': token },
      body: '{}',
    })
    const body = (await res.json()) as { ok: boolean; value: { name: string }[] }
    expect(body.ok).toBe(true)
    expect(body.value.length).toBeGreaterThan(0)
    // A workspace this start created holds nothing of anyone's yet: no backup of it.
    expect(existsSync(`${workspace}.backups`)).toBe(false)

    const exited = new Promise<number | null>((ok) => child?.on('exit', (code) => ok(code)))
    child.kill('SIGTERM')
    expect(await exited).toBe(0)
    // A clean close checkpoints the write-ahead log into the workspace file.
    expect(existsSync(`${workspace}-wal`)).toBe(false)

    // Opened again, it holds data: now a backup is taken before anything changes.
    child = spawn(process.execPath, [SERVE, '--workspace', workspace], {
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    await waitForUrl(child)
    const backups = () => readdirSync(`${workspace}.backups`).filter((f) => f.endsWith('.factlab'))
    expect(backups().length).toBe(1)
    const backup = join(`${workspace}.backups`, backups()[0] ?? '')
    expect(printed).toContain(`Backup taken: ${backup} (`)
    expect(printed).toContain(`the newest 5 are kept in ${workspace}.backups`)
    const again = new Promise<number | null>((ok) => child?.on('exit', (code) => ok(code)))
    child.kill('SIGTERM')
    expect(await again).toBe(0)

    // Nobody changed anything since: the third start does not copy the same file again.
    child = spawn(process.execPath, [SERVE, '--workspace', workspace], { stdio: ['ignore', 'pipe', 'pipe'] })
    await waitForUrl(child)
    expect(backups().length).toBe(1)
    expect(printed).toContain(`Backup: unchanged since the last one (${backup}, `)
    const third = new Promise<number | null>((ok) => child?.on('exit', (code) => ok(code)))
    child.kill('SIGTERM')
    expect(await third).toBe(0)
  })

  it('says so plainly when the port is taken', async () => {
    const blocker = createServer()
    await new Promise<void>((ok) => blocker.listen(0, '127.0.0.1', ok))
    const port = (blocker.address() as AddressInfo).port
    child = spawn(
      process.execPath,
      [SERVE, '--port', String(port), '--workspace', join(tmp(), 'w.factlab')],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    )
    let err = ''
    child.stderr?.on('data', (c: Buffer) => {
      err += c.toString()
    })
    const code = await new Promise<number | null>((ok) => child?.on('exit', (c) => ok(c)))
    blocker.close()
    expect(code).toBe(1)
    expect(err).toMatch(/port is already in use.*--port/)
  })

  it('explains a bad argument and exits without starting', async () => {
    child = spawn(process.execPath, [SERVE, '--port', 'abc'], {
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    let err = ''
    child.stderr?.on('data', (c: Buffer) => {
      err += c.toString()
    })
    const code = await new Promise<number | null>((ok) => child?.on('exit', (c) => ok(c)))
    expect(code).toBe(2)
    expect(err).toMatch(/--port must be a whole number/)
    expect(err).toMatch(/Usage: npm run serve/)
  })

  it('is also `factlab serve`, which stops the server it started on SIGTERM', async () => {
    const workspace = join(tmp(), 'cli.factlab')
    child = spawn(process.execPath, ['bin/factlab.js', 'serve', '--workspace', workspace, '--port', '0'], {
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    const url = new URL(await waitForUrl(child))
    const res = await fetch(new URL('/api/call/datasets.names', url), {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-factlab-token': url.searchParams.get('token') ?? '' },
      body: '{}',
    })
    expect(((await res.json()) as { ok: boolean }).ok).toBe(true)
    const exited = new Promise<number | null>((ok) => child?.on('exit', (code) => ok(code)))
    child.kill('SIGTERM')
    expect(await exited).toBe(0)
    expect(existsSync(`${workspace}-wal`)).toBe(false)
  })
})
