import { describe, expect, it } from 'vitest'
import { firstScreenPhases, type PageTimings } from './firstScreen'

const page: PageTimings = {
  firstByte: 120,
  assets: [
    { name: '/assets/index-AAAAAAAA.js', end: 300 },
    { name: '/assets/jsx-runtime-BBBBBBBB.js', end: 280 },
    { name: '/assets/index-CCCCCCCC.css', end: 500 },
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
    expect(phases.map((p) => p.ms)).toEqual([60, 160, 180, 150, 150, 50])
    expect(phases.reduce((s, p) => s + p.ms, 0)).toBe(750)
  })

  it('gives a phase the page did not report no time, the next taking it', () => {
    const phases = firstScreenPhases(
      { ...page, calls: [] },
      { serverStarted: 60, navigationStart: 100, seen: 750 },
    )
    expect(phases.map((p) => p.ms)).toEqual([60, 160, 180, 0, 0, 350])
  })
})
