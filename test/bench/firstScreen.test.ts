import { describe, expect, it } from 'vitest'
import { firstScreenPhases, firstScreenScripts, type PageTimings } from './firstScreen'

const page: PageTimings = {
  firstByte: 120,
  assets: [
    { name: '/assets/index-AAAAAAAA.js', start: 200, end: 300 },
    { name: '/assets/jsx-runtime-BBBBBBBB.js', start: 210, end: 280 },
    { name: '/assets/index-CCCCCCCC.css', start: 205, end: 500 },
  ],
  calls: [
    { name: 'datasets.list', start: 450, end: 520 },
    { name: 'workspace.annotators', start: 455, end: 480 },
    { name: 'workspace.labellers', start: 460, end: 600 },
  ],
}

describe('the first screen split into phases', () => {
  it('follows the page from the server start to the gate, the phases adding up to the whole', () => {
    const phases = firstScreenPhases(page, { serverStarted: 60, navigationStart: 100, seen: 750 })
    expect(phases.map((p) => p.ms)).toEqual([60, 160, 80, 100, 150, 150, 50])
    expect(phases.reduce((s, p) => s + p.ms, 0)).toBe(750)
  })

  it('gives a phase the page did not report no time, the next taking it', () => {
    const phases = firstScreenPhases(
      { ...page, calls: [] },
      { serverStarted: 60, navigationStart: 100, seen: 750 },
    )
    expect(phases.map((p) => p.ms)).toEqual([60, 160, 80, 100, 0, 0, 350])
  })

  it('leaves out a script asked for after the first call, which the gate did not wait for', () => {
    // The Compare view's chunk, fetched when the page idles, arriving after the gate's answers.
    const idle = { name: '/assets/CompareView-DDDDDDDD.js', start: 610, end: 700 }
    const withIdle = { ...page, assets: [...page.assets, idle] }
    expect(firstScreenScripts(withIdle).map((a) => a.name)).toEqual([
      '/assets/index-AAAAAAAA.js',
      '/assets/jsx-runtime-BBBBBBBB.js',
    ])
    const at = { serverStarted: 60, navigationStart: 100, seen: 750 }
    expect(firstScreenPhases(withIdle, at)).toEqual(firstScreenPhases(page, at))
  })
})
