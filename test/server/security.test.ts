import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { defaultWorkspacePath } from '../../src/main/app/paths'
import { parseServeArgs } from '../../src/main/server/args'
import { isAllowedHost, isAllowedOrigin, makeToken, tokensEqual } from '../../src/main/server/security'
import { resolveStaticPath } from '../../src/main/server/static'
import { tmpDirs } from '../helpers/tmp'

const tmp = tmpDirs()

describe('token, Host and Origin checks', () => {
  it('makes a different token at each start and compares them exactly', () => {
    const a = makeToken()
    expect(makeToken()).not.toBe(a)
    expect(tokensEqual(a, a)).toBe(true)
    expect(tokensEqual(`${a}x`, a)).toBe(false)
    expect(tokensEqual(a.slice(1), a)).toBe(false)
    expect(tokensEqual('', a)).toBe(false)
    expect(tokensEqual(undefined, a)).toBe(false)
  })

  it('answers only to its own loopback name and port', () => {
    expect(isAllowedHost('127.0.0.1:4000', 4000)).toBe(true)
    expect(isAllowedHost('LOCALHOST:4000', 4000)).toBe(true)
    for (const host of [
      undefined,
      '',
      '127.0.0.1',
      '127.0.0.1:4001',
      '127.0.0.1.evil.com:4000',
      'evil.example',
    ])
      expect(isAllowedHost(host, 4000), String(host)).toBe(false)
  })

  it('accepts no Origin or its own, nothing else', () => {
    expect(isAllowedOrigin(undefined, 4000)).toBe(true)
    expect(isAllowedOrigin('http://127.0.0.1:4000', 4000)).toBe(true)
    expect(isAllowedOrigin('http://localhost:4000', 4000)).toBe(true)
    for (const origin of ['null', 'https://127.0.0.1:4000', 'http://127.0.0.1:4001', 'http://evil.example'])
      expect(isAllowedOrigin(origin, 4000), origin).toBe(false)
  })
})

describe('static files', () => {
  it('maps paths inside the renderer folder and refuses every way out of it', () => {
    const dir = tmp()
    const root = join(dir, 'renderer')
    mkdirSync(join(root, 'assets'), { recursive: true })
    writeFileSync(join(root, 'index.html'), 'x')
    writeFileSync(join(dir, 'secret.txt'), 'secret')
    symlinkSync(join(dir, 'secret.txt'), join(root, 'assets', 'link.txt'))
    expect(resolveStaticPath(root, '/')).toMatch(/index\.html$/)
    expect(resolveStaticPath(root, '/assets/a%20b.js')).toBe(join(root, 'assets', 'a b.js'))
    for (const path of [
      '/..%2fsecret.txt',
      '/assets/..%2f..%2fsecret.txt',
      '/..\\secret.txt',
      '/%00',
      '/%E0%A4%A',
      '/assets/link.txt',
      '/.vite/manifest.json',
      '/assets/%2e%2e/.vite/manifest.json',
    ])
      expect(resolveStaticPath(root, path), path).toBeNull()
  })
})

describe('serve command line', () => {
  it('reads --workspace and --port and explains a bad port', () => {
    const args = parseServeArgs(['--workspace', '/tmp/a.factlab', '--port', '8123'])
    expect(args).toMatchObject({ workspaceFile: '/tmp/a.factlab', port: 8123, help: false })
    expect(parseServeArgs([]).port).toBe(0)
    expect(() => parseServeArgs(['--port', 'eighty'])).toThrow(/--port must be a whole number/)
    expect(() => parseServeArgs(['--port', '70000'])).toThrow(/--port/)
    expect(() => parseServeArgs(['--colour'])).toThrow(/colour/)
  })

  it('puts the default workspace in the per-user folder of each platform', () => {
    const home = '/home/ana'
    expect(defaultWorkspacePath({ platform: 'linux', env: {}, home })).toBe(
      '/home/ana/.config/FactLab/workspace.factlab',
    )
    expect(defaultWorkspacePath({ platform: 'linux', env: { XDG_CONFIG_HOME: '/cfg' }, home })).toBe(
      '/cfg/FactLab/workspace.factlab',
    )
    expect(defaultWorkspacePath({ platform: 'darwin', env: {}, home })).toBe(
      '/home/ana/Library/Application Support/FactLab/workspace.factlab',
    )
    expect(defaultWorkspacePath({ platform: 'win32', env: { APPDATA: '/appdata' }, home })).toMatch(
      /appdata.FactLab.workspace\.factlab$/,
    )
  })
})
