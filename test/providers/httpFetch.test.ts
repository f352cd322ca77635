import { createServer, type IncomingMessage, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { leanFetch } from '../../src/main/providers/httpFetch'

/**
 * The lean fetch hands the SDKs a reply already read whole; whatever they (or a caller of
 * `withResponse`) do with it must read as the same reply through the global fetch.
 */
let server: Server
let origin = ''
const seen: { method: string; url: string; headers: IncomingMessage['headers']; body: string }[] = []

beforeAll(async () => {
  server = createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (c: Buffer) => chunks.push(c))
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8')
      seen.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body })
      if (req.url === '/empty') {
        res.writeHead(204).end()
        return
      }
      // Two header lines of the same name, and a body written in pieces.
      res.writeHead(req.url === '/missing' ? 404 : 200, [
        ['content-type', 'application/json'],
        ['x-request-id', 'req_1'],
        ['set-cookie', 'a=1'],
        ['set-cookie', 'b=2'],
      ])
      res.write('{"echo":')
      res.end(`${JSON.stringify(body)},"é":"ü"}`)
    })
  })
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
})

afterAll(async () => {
  server.closeAllConnections()
  await new Promise<void>((r) => server.close(() => r()))
})

describe('lean fetch', () => {
  it('sends the method, path, query, headers and body it is given', async () => {
    seen.length = 0
    const headers = new Headers({ 'content-type': 'application/json', authorization: 'Bearer k' })
    await (
      await leanFetch(`${origin}/v1/chat/completions?x=1`, { method: 'POST', headers, body: '{"a":1}' })
    ).text()
    await (await leanFetch(new URL(`${origin}/plain`), { headers: [['x-one', '1']] })).text()
    expect(seen.map((s) => [s.method, s.url, s.body])).toEqual([
      ['POST', '/v1/chat/completions?x=1', '{"a":1}'],
      ['GET', '/plain', ''],
    ])
    expect(seen[0]?.headers).toMatchObject({ 'content-type': 'application/json', authorization: 'Bearer k' })
    expect(seen[1]?.headers['x-one']).toBe('1')
  })

  it('passes credentials written in the URL on as Basic authorization, as Node does', async () => {
    seen.length = 0
    const url = new URL(`${origin}/auth`)
    url.username = 'u@x'
    url.password = 'p:w'
    await (await leanFetch(url)).text()
    expect(seen[0]?.url).toBe('/auth')
    expect(seen[0]?.headers.authorization).toBe(`Basic ${Buffer.from('u@x:p:w').toString('base64')}`)
  })

  it('reads a reply as the global fetch does: status, headers, text, JSON, bytes, stream', async () => {
    const read = async (f: typeof fetch) => {
      const res = await f(`${origin}/missing`, { method: 'POST', body: 'hi' })
      const copy = res.clone()
      const text = await res.text()
      const second = await res.text().then(
        () => 'read twice',
        () => 'refused',
      )
      const streamed = await new Response(copy.body).text()
      return {
        ok: res.ok,
        status: res.status,
        type: res.headers.get('content-type'),
        id: res.headers.get('x-request-id'),
        cookies: res.headers.getSetCookie(),
        text,
        second,
        used: res.bodyUsed,
        streamed,
        json: await (await f(`${origin}/x`, { method: 'POST', body: 'j' })).json(),
        bytes: Buffer.from(await (await f(`${origin}/x`)).arrayBuffer()).toString('utf8'),
        blob: await (await (await f(`${origin}/x`)).blob()).text(),
        instance: res instanceof Response,
      }
    }
    const lean = await read(leanFetch)
    expect(lean).toEqual(await read(fetch))
    expect(lean).toMatchObject({ status: 404, ok: false, text: '{"echo":"hi","é":"ü"}', second: 'refused' })
  })

  it('gives a reply without a body for 204', async () => {
    const res = await leanFetch(`${origin}/empty`, { method: 'DELETE' })
    expect(res.status).toBe(204)
    expect(res.body).toBeNull()
    expect(await res.text()).toBe('')
  })
})
