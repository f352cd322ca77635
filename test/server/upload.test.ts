import { randomBytes } from 'node:crypto'
import { existsSync, mkdirSync, readdirSync, readFileSync } from 'node:fs'
import { request } from 'node:http'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { uploads } from '../../src/main/annotate/upload'
import { type RunningServer, startServer } from '../../src/main/server/server'
import { tmpDirs } from '../helpers/tmp'

interface Answer {
  status: number
  body: string
}

/** node:http, to forge Host and to send a body in as many chunks as the test likes. */
function send(
  port: number,
  opts: { path: string; headers?: Record<string, string>; chunks?: Buffer[]; method?: string },
): Promise<Answer> {
  return new Promise((ok, fail) => {
    const req = request(
      { host: '127.0.0.1', port, method: opts.method ?? 'POST', path: opts.path, headers: opts.headers },
      (res) => {
        let body = ''
        res.setEncoding('utf8')
        res.on('data', (c: string) => {
          body += c
        })
        res.on('end', () => ok({ status: res.statusCode ?? 0, body }))
      },
    )
    req.on('error', fail)
    const chunks = opts.chunks ?? []
    const next = (i: number): void => {
      if (i === chunks.length) {
        req.end()
        return
      }
      // Each chunk is written after the previous one drained, so the body really arrives in pieces.
      if (req.write(chunks[i])) setImmediate(() => next(i + 1))
      else req.once('drain', () => next(i + 1))
    }
    next(0)
  })
}

const tmp = tmpDirs()
let server: RunningServer | null = null
afterEach(async () => {
  await server?.close()
  server = null
})

async function start(uploadLimit?: number): Promise<{ s: RunningServer; root: string }> {
  const dir = tmp()
  const root = join(dir, 'uploads')
  mkdirSync(root)
  server = await startServer({
    workspaceFile: join(dir, 'w.factlab'),
    port: 0,
    rendererDir: join(dir, 'renderer'),
    uploadLimit,
    uploadRoot: root,
  })
  return { s: server, root }
}

const withToken = (s: RunningServer) => ({ 'x-factlab-token': s.token })
const pieces = (buf: Buffer, size: number) =>
  Array.from({ length: Math.ceil(buf.length / size) }, (_, i) => buf.subarray(i * size, (i + 1) * size))

describe('streamed uploads in browser mode', () => {
  it('refuses an upload without the token and writes nothing', async () => {
    const { s, root } = await start()
    const res = await send(s.port, { path: '/api/upload?name=a.jsonl', chunks: [Buffer.from('{"a":1}\n')] })
    expect(res.status).toBe(401)
    const wrong = await send(s.port, {
      path: '/api/upload?name=a.jsonl',
      headers: { 'x-factlab-token': 'guess' },
      chunks: [Buffer.from('{"a":1}\n')],
    })
    expect(wrong.status).toBe(403)
    expect(readdirSync(root)).toEqual([])
  })

  it('refuses a forged Host or a foreign Origin and writes nothing', async () => {
    const { s, root } = await start()
    const host = await send(s.port, {
      path: '/api/upload?name=a.jsonl',
      headers: { ...withToken(s), host: `evil.example:${s.port}` },
      chunks: [Buffer.from('x')],
    })
    expect(host.status).toBe(403)
    const origin = await send(s.port, {
      path: '/api/upload?name=a.jsonl',
      headers: { ...withToken(s), origin: 'http://evil.example' },
      chunks: [Buffer.from('x')],
    })
    expect(origin.status).toBe(403)
    expect(readdirSync(root)).toEqual([])
  })

  it('answers 413 with a clear message past the limit, declared or not, and keeps no file', async () => {
    const { s, root } = await start(1000)
    const body = randomBytes(5000)
    const declared = await send(s.port, {
      path: '/api/upload?name=big.jsonl',
      headers: { ...withToken(s), 'content-length': String(body.length) },
      chunks: [body],
    })
    expect(declared.status).toBe(413)
    expect(JSON.parse(declared.body).error.message).toMatch(/^big\.jsonl is larger than .*factlab import/)
    const streamed = await send(s.port, {
      path: '/api/upload?name=big.jsonl',
      headers: withToken(s),
      chunks: pieces(body, 300),
    })
    expect(streamed.status).toBe(413)
    expect(readdirSync(root)).toEqual([])
  })

  it('refuses an upload without a plain file name', async () => {
    const { s, root } = await start()
    for (const path of ['/api/upload', '/api/upload?name=..%2Fx.jsonl', '/api/upload?name=a%5Cb.csv']) {
      const res = await send(s.port, { path, headers: withToken(s), chunks: [Buffer.from('x')] })
      expect(res.status).toBe(400)
    }
    expect(readdirSync(root)).toEqual([])
  })

  it('receives a body streamed in many chunks byte for byte, and removes it when the server stops', async () => {
    const { s } = await start()
    const body = randomBytes(3 * 1024 * 1024 + 17)
    const res = await send(s.port, {
      path: '/api/upload?name=data%20set.parquet',
      headers: withToken(s),
      chunks: pieces(body, 64 * 1024 + 3),
    })
    expect(res.status).toBe(200)
    const answer = JSON.parse(res.body) as { uploadId: string; name: string; bytes: number }
    expect(answer).toMatchObject({ name: 'data set.parquet', bytes: body.length })
    const upload = uploads.get(answer.uploadId)
    expect(upload?.file.endsWith('data set.parquet')).toBe(true)
    expect(readFileSync(upload?.file ?? '').equals(body)).toBe(true)
    await s.close()
    expect(existsSync(upload?.dir ?? '')).toBe(false)
    expect(uploads.get(answer.uploadId)).toBeUndefined()
  })

  it('imports an upload through the next call, then removes it', async () => {
    const { s, root } = await start()
    const qags = readFileSync('test/fixtures/import/qags.jsonl')
    const up = await send(s.port, {
      path: '/api/upload?name=qags.jsonl',
      headers: withToken(s),
      chunks: pieces(qags, 500),
    })
    const { uploadId } = JSON.parse(up.body) as { uploadId: string }
    const call = (name: string, input: unknown) =>
      send(s.port, {
        path: `/api/call/${name}`,
        headers: { ...withToken(s), 'content-type': 'application/json' },
        chunks: [Buffer.from(JSON.stringify(input))],
      })
    const res = await call('datasets.import', { source: { uploadId }, datasetName: 'streamed' })
    const items = qags.toString('utf8').trim().split('\n').length
    expect(JSON.parse(res.body)).toMatchObject({ ok: true, value: { dataset: 'streamed', items } })
    expect(readdirSync(root)).toEqual([])
  })
})
