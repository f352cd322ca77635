import { mkdirSync, writeFileSync } from 'node:fs'
import { request } from 'node:http'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { type RunningServer, startServer } from '../../src/main/server/server'
import { CONTENT_SECURITY_POLICY } from '../../src/main/shell/csp'
import { tmpDirs } from '../helpers/tmp'

interface Raw {
  status: number
  headers: Record<string, string | string[] | undefined>
  body: string
}

/** node:http rather than fetch, because fetch will not let a test forge Host. */
function raw(
  port: number,
  opts: { method?: string; path: string; headers?: Record<string, string>; body?: string },
): Promise<Raw> {
  return new Promise((ok, fail) => {
    const req = request(
      { host: '127.0.0.1', port, method: opts.method ?? 'GET', path: opts.path, headers: opts.headers },
      (res) => {
        let body = ''
        res.setEncoding('utf8')
        res.on('data', (c: string) => {
          body += c
        })
        res.on('end', () => ok({ status: res.statusCode ?? 0, headers: res.headers, body }))
      },
    )
    req.on('error', fail)
    if (opts.body !== undefined) req.write(opts.body)
    req.end()
  })
}

const tmp = tmpDirs()
let server: RunningServer | null = null
afterEach(async () => {
  await server?.close()
  server = null
})

/** A server over a small renderer folder; `assets` adds files under assets/. */
async function start(assets: Record<string, Buffer> = {}): Promise<RunningServer> {
  const dir = tmp()
  const rendererDir = join(dir, 'renderer')
  mkdirSync(join(rendererDir, 'assets'), { recursive: true })
  for (const [name, bytes] of Object.entries(assets)) writeFileSync(join(rendererDir, 'assets', name), bytes)
  writeFileSync(join(rendererDir, 'index.html'), '<!doctype html><title>FactLab</title>')
  writeFileSync(join(rendererDir, 'assets', 'app.js'), 'console.log(1)')
  writeFileSync(join(rendererDir, 'assets', 'index-BFfH7ZKR.js'), 'console.log(2)')
  writeFileSync(join(dir, 'secret.txt'), 'do not serve me')
  // As the build leaves it beside the page (the compile-hint guard's test reads it).
  mkdirSync(join(rendererDir, '.vite'))
  writeFileSync(
    join(rendererDir, '.vite', 'manifest.json'),
    '{"index.html":{"file":"assets/index-BFfH7ZKR.js"}}',
  )
  server = await startServer({ workspaceFile: join(dir, 'w.factlab'), port: 0, rendererDir })
  return server
}

function callHeaders(s: RunningServer, extra: Record<string, string> = {}): Record<string, string> {
  return { 'content-type': 'application/json', 'x-factlab-token': s.token, ...extra }
}

async function annotatorNames(s: RunningServer): Promise<string[]> {
  const res = await raw(s.port, {
    method: 'POST',
    path: '/api/call/workspace.annotators',
    headers: callHeaders(s),
    body: '{}',
  })
  const parsed = JSON.parse(res.body) as { ok: boolean; value: { name: string }[] }
  expect(parsed.ok).toBe(true)
  return parsed.value.map((a) => a.name)
}

describe('browser-mode server', () => {
  it('binds loopback and prints a URL that carries the token', async () => {
    const s = await start()
    expect(s.origin).toBe(`http://127.0.0.1:${s.port}`)
    expect(new URL(s.url).searchParams.get('token')).toBe(s.token)
    expect(s.token.length).toBeGreaterThanOrEqual(40)
  })

  it('runs a call when the token is right', async () => {
    const s = await start()
    const res = await raw(s.port, {
      method: 'POST',
      path: '/api/call/workspace.ensureAnnotator',
      headers: callHeaders(s),
      body: JSON.stringify({ name: 'Ana' }),
    })
    expect(res.status).toBe(200)
    expect(JSON.parse(res.body)).toMatchObject({ ok: true, value: { name: 'Ana' } })
    expect(await annotatorNames(s)).toContain('Ana')
  })

  it('refuses a missing or wrong token and leaves the workspace untouched', async () => {
    const s = await start()
    const body = JSON.stringify({ name: 'Mallory' })
    const path = '/api/call/workspace.ensureAnnotator'
    const missing = await raw(s.port, {
      method: 'POST',
      path,
      headers: { 'content-type': 'application/json' },
      body,
    })
    expect(missing.status).toBe(401)
    const wrong = await raw(s.port, {
      method: 'POST',
      path,
      headers: callHeaders(s, { 'x-factlab-token': 'x' }),
      body,
    })
    expect(wrong.status).toBe(403)
    // The token in the query string is only for the event stream, never for calls.
    const inQuery = await raw(s.port, {
      method: 'POST',
      path: `${path}?token=${s.token}`,
      headers: { 'content-type': 'application/json' },
      body,
    })
    expect(inQuery.status).toBe(401)
    expect(await annotatorNames(s)).not.toContain('Mallory')
  })

  it.each([
    ['a foreign host', 'evil.example'],
    ['a DNS-rebinding host', '127.0.0.1.evil.com'],
    ['the right name on another port', 'localhost:1'],
  ])('refuses %s even with the right token', async (_label, host) => {
    const s = await start()
    const res = await raw(s.port, {
      method: 'POST',
      path: '/api/call/workspace.ensureAnnotator',
      headers: callHeaders(s, { host }),
      body: JSON.stringify({ name: 'Mallory' }),
    })
    expect(res.status).toBe(403)
    const page = await raw(s.port, { path: '/', headers: { host } })
    expect(page.status).toBe(403)
    expect(await annotatorNames(s)).not.toContain('Mallory')
  })

  it('accepts localhost as Host and its own origin, refuses a foreign Origin', async () => {
    const s = await start()
    const path = '/api/call/workspace.ensureAnnotator'
    const own = await raw(s.port, {
      method: 'POST',
      path,
      headers: callHeaders(s, { host: `localhost:${s.port}`, origin: `http://localhost:${s.port}` }),
      body: JSON.stringify({ name: 'Ana' }),
    })
    expect(own.status).toBe(200)
    const foreign = await raw(s.port, {
      method: 'POST',
      path,
      headers: callHeaders(s, { origin: 'http://evil.example' }),
      body: JSON.stringify({ name: 'Mallory' }),
    })
    expect(foreign.status).toBe(403)
    expect(await annotatorNames(s)).toEqual(expect.arrayContaining(['Ana']))
    expect(await annotatorNames(s)).not.toContain('Mallory')
  })

  it('answers a body that is not JSON with a clear 400', async () => {
    const s = await start()
    const res = await raw(s.port, {
      method: 'POST',
      path: '/api/call/workspace.ensureAnnotator',
      headers: callHeaders(s),
      body: '{"name": ',
    })
    expect(res.status).toBe(400)
    const parsed = JSON.parse(res.body) as { ok: boolean; error: { code: string; message: string } }
    expect(parsed.ok).toBe(false)
    expect(parsed.error.code).toBe('bad_input')
    expect(parsed.error.message).toMatch(/not valid JSON/)
  })

  it('refuses a body that is not declared as JSON, which a cross-site form could send', async () => {
    const s = await start()
    const res = await raw(s.port, {
      method: 'POST',
      path: '/api/call/workspace.ensureAnnotator',
      headers: callHeaders(s, { 'content-type': 'text/plain' }),
      body: JSON.stringify({ name: 'Mallory' }),
    })
    expect(res.status).toBe(415)
    expect(await annotatorNames(s)).not.toContain('Mallory')
  })

  it('reports contract errors: unknown call and bad input', async () => {
    const s = await start()
    const unknown = await raw(s.port, {
      method: 'POST',
      path: '/api/call/nope.nothing',
      headers: callHeaders(s),
      body: '{}',
    })
    expect(unknown.status).toBe(404)
    expect(JSON.parse(unknown.body)).toMatchObject({ ok: false, error: { code: 'unknown_call' } })
    const bad = await raw(s.port, {
      method: 'POST',
      path: '/api/call/workspace.ensureAnnotator',
      headers: callHeaders(s),
      body: JSON.stringify({ name: '' }),
    })
    expect(bad.status).toBe(400)
    expect(JSON.parse(bad.body)).toMatchObject({ ok: false, error: { code: 'bad_input' } })
  })

  it('serves the renderer with the CSP and never a file outside it', async () => {
    const s = await start()
    const index = await raw(s.port, { path: '/' })
    expect(index.status).toBe(200)
    expect(index.body).toContain('<title>FactLab</title>')
    expect(index.headers['content-security-policy']).toBe(CONTENT_SECURITY_POLICY)
    expect(index.headers['x-content-type-options']).toBe('nosniff')
    expect(index.headers['cache-control']).toBe('no-store')
    const asset = await raw(s.port, { path: '/assets/app.js' })
    expect(asset.status).toBe(200)
    expect(asset.headers['content-type']).toMatch(/javascript/)
    for (const path of [
      '/../secret.txt',
      '/..%2fsecret.txt',
      '/assets/..%2f..%2fsecret.txt',
      '/%2e%2e/secret.txt',
    ]) {
      const res = await raw(s.port, { path })
      expect(res.body, path).not.toContain('do not serve me')
    }
  })

  it("answers the build's manifest as it answers any unknown path: the page never needs it", async () => {
    const s = await start()
    const unknown = await raw(s.port, { path: '/nothing-here.json' })
    for (const path of ['/.vite/manifest.json', '/%2evite/manifest.json', '/assets/../.vite/manifest.json']) {
      const res = await raw(s.port, { path })
      expect([res.status, res.body], path).toEqual([unknown.status, unknown.body])
    }
  })

  it('sends a bundle and a file past the whole-read size intact, each byte as on disk', async () => {
    // 650 kB is the largest bundle (sent in one write); 5 MB is streamed in pieces.
    const files: Record<string, Buffer> = {}
    for (const [name, size] of [
      ['large-CCCCCCCC.js', 650_000],
      ['huge.json', 5 * 2 ** 20],
    ] as const) {
      const bytes = Buffer.alloc(size, 0)
      for (let i = 0; i < size; i += 4093) bytes.writeUInt8((i * 31) % 251, i)
      files[name] = bytes
    }
    const s = await start(files)
    for (const [name, bytes] of Object.entries(files)) {
      const res = await fetch(`http://127.0.0.1:${s.port}/assets/${name}`)
      expect(res.status, name).toBe(200)
      expect(res.headers.get('content-length'), name).toBe(String(bytes.length))
      expect(Buffer.from(await res.arrayBuffer()).equals(bytes), name).toBe(true)
    }
  })

  it('lets the browser keep the hashed bundles and ask again about everything else', async () => {
    const s = await start()
    // A reload that must fetch and compile the whole bundle again costs the first screen its scripts.
    const hashed = await raw(s.port, { path: '/assets/index-BFfH7ZKR.js' })
    expect(hashed.status).toBe(200)
    expect(hashed.headers['cache-control']).toContain('immutable')
    expect(hashed.headers['cache-control']).toMatch(/max-age=\d{7,}/)
    // Not named after its content: kept, but checked with the server before each use.
    const plainAsset = await raw(s.port, { path: '/assets/app.js' })
    expect(plainAsset.headers['cache-control']).toBe('no-cache')
    const etag = plainAsset.headers.etag
    expect(typeof etag).toBe('string')
    const again = await raw(s.port, { path: '/assets/app.js', headers: { 'if-none-match': String(etag) } })
    expect(again.status).toBe(304)
    expect(again.body).toBe('')
    const stale = await raw(s.port, { path: '/assets/app.js', headers: { 'if-none-match': 'W/"other"' } })
    expect(stale.status).toBe(200)
    expect(stale.body).toBe('console.log(1)')
    // index.html names the current build's bundles: never kept, never answered 304.
    const index = await raw(s.port, { path: '/', headers: { 'if-none-match': String(etag) } })
    expect(index.status).toBe(200)
    expect(index.headers['cache-control']).toBe('no-store')
    expect(index.headers.etag).toBeUndefined()
  })

  it('streams an event emitted in main to a client holding the token', async () => {
    const s = await start()
    const refused = await raw(s.port, { path: '/api/events' })
    expect(refused.status).toBe(401)
    const received = new Promise<string>((ok, fail) => {
      const req = request(
        { host: '127.0.0.1', port: s.port, path: `/api/events?token=${encodeURIComponent(s.token)}` },
        (res) => {
          expect(res.headers['content-type']).toMatch(/text\/event-stream/)
          let text = ''
          res.setEncoding('utf8')
          res.on('data', (chunk: string) => {
            text += chunk
            if (text.includes(': connected')) s.ctx.events.emit('workspace.changed', { file: 'x.factlab' })
            const line = text.split('\n').find((l) => l.startsWith('data: '))
            if (line) {
              ok(line.slice('data: '.length))
              req.destroy()
            }
          })
        },
      )
      req.on('error', fail)
      req.end()
    })
    expect(JSON.parse(await received)).toEqual({ name: 'workspace.changed', payload: { file: 'x.factlab' } })
  })
})
