import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import {
  DEFAULT_SIZE,
  fitToDisplays,
  loadWindowState,
  saveWindowState,
} from '../../src/main/shell/windowState'
import { tmpDirs } from '../helpers/tmp'

const tmp = tmpDirs()
const screen = { x: 0, y: 0, width: 1920, height: 1080 }

describe('window size and position', () => {
  it('remembers the bounds across restarts', () => {
    const file = join(tmp(), 'sub', 'window-state.json')
    const state = { x: 100, y: 80, width: 1000, height: 700, maximized: true }
    saveWindowState(file, state)
    expect(loadWindowState(file)).toEqual(state)
    expect(fitToDisplays(loadWindowState(file), [screen])).toEqual(state)
  })

  it('starts with a default size when the file is missing or damaged', () => {
    const dir = tmp()
    expect(loadWindowState(join(dir, 'none.json'))).toBeNull()
    for (const text of ['{', '{"x":"left"}', '[]', '{"x":0,"y":0,"width":0,"height":10}']) {
      writeFileSync(join(dir, 'bad.json'), text)
      expect(loadWindowState(join(dir, 'bad.json')), text).toBeNull()
    }
    expect(fitToDisplays(null, [screen])).toEqual(DEFAULT_SIZE)
  })

  it('drops a position that is no longer on any screen but keeps a size that fits', () => {
    const offScreen = { x: 3000, y: 200, width: 2400, height: 700, maximized: false }
    expect(fitToDisplays(offScreen, [screen])).toEqual({ width: 1920, height: 700, maximized: false })
    const secondScreen = { x: 1920, y: 0, width: 2560, height: 1440 }
    expect(fitToDisplays(offScreen, [screen, secondScreen])).toEqual(offScreen)
  })

  it('never leaves a half-written file behind', () => {
    const file = join(tmp(), 'window-state.json')
    saveWindowState(file, { x: 1, y: 2, width: 300, height: 400, maximized: false })
    expect(JSON.parse(readFileSync(file, 'utf8'))).toMatchObject({ width: 300 })
    expect(() => saveWindowState(file, { x: 1, y: 2, width: -5, height: 400, maximized: false })).toThrow()
    expect(loadWindowState(file)).toMatchObject({ width: 300 })
  })
})
