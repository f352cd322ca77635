import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { cli } from '../helpers/cli'
import { demoWorkspaceIn } from '../helpers/demoWorkspace'
import { tmpDirs } from '../helpers/tmp'

const tmp = tmpDirs()
const DEMO = 'Demo: WikiEval-style'

describe('the CLI reads names as the app shows them', () => {
  it('label takes a variant as shown ("poor answer") and a verdict in any case ("Not clear")', async () => {
    const ws = demoWorkspaceIn(tmp())
    const on = [
      '--workspace',
      ws,
      '--dataset',
      DEMO,
      '--item',
      'demo-01',
      '--unit',
      '1',
      '--annotator',
      'rae',
    ]
    const r = await cli([
      'label',
      ...on,
      '--new-annotator',
      '--variant',
      'poor answer',
      '--verdict',
      'Not clear',
      '--json',
    ])
    expect(r.err).toBe('')
    expect(JSON.parse(r.out)).toMatchObject({ variant: 'poor_answer', verdict: 'not_clear' })
    const gold = await cli(['adjudicate', ...on, '--variant', 'answer', '--verdict', 'TRUE', '--json'])
    expect(gold.err).toBe('')
    expect(JSON.parse(gold.out)).toMatchObject({ gold: { verdict: 'true' } })
    // A word no schema value reads as is still refused by name.
    const bad = await cli(['label', ...on, '--variant', 'answer', '--verdict', 'maybe'])
    expect(bad.code).toBe(1)
    expect(bad.err).toContain('"maybe" is not one of "true", "false", "not_clear"')
  })

  it('an unknown item names the dataset, also when --dataset gave its number', async () => {
    const ws = demoWorkspaceIn(tmp())
    const r = await cli(['units', 'list', '--workspace', ws, '--dataset', '1', '--item', '1'])
    expect(r.code).toBe(1)
    expect(r.err).toContain(
      `Dataset "${DEMO}" (#1) has no item with id "1"; its items have ids such as "demo-01"`,
    )
  })
})

describe('factlab controls', () => {
  it('sets controls from lines as the Project view does, lists them in that form and clears them', async () => {
    const ws = demoWorkspaceIn(tmp())
    const on = ['--workspace', ws, '--dataset', DEMO]
    const file = join(tmp(), 'controls.csv')
    writeFileSync(file, 'item,variant,unit,verdict\ndemo-01,answer,1,True\n')
    const set = await cli(['controls', 'set', ...on, '--file', file, '--line', 'demo-02,poor_answer,2,false'])
    expect(set.err).toBe('')
    expect(set.out).toContain('2 marked; 2 controls in all')
    const list = await cli(['controls', 'list', ...on])
    expect(list.out.trim().split('\n')).toEqual([
      'item,variant,unit,verdict',
      'demo-01,answer,1,true',
      'demo-02,poor_answer,2,false',
    ])
    const cleared = await cli(['controls', 'clear', ...on, '--line', 'demo-01,answer,1,true'])
    expect(cleared.out).toContain('1 control cleared; 1 left')
    const all = await cli(['controls', 'clear', ...on, '--all'])
    expect(all.out).toContain('1 control cleared; 0 left')
    expect((await cli(['controls', 'list', ...on])).out).toContain('has no control items')
  })

  it('marks nothing when one line names nothing, and says which line', async () => {
    const ws = demoWorkspaceIn(tmp())
    const on = ['--workspace', ws, '--dataset', DEMO]
    const r = await cli([
      'controls',
      'set',
      ...on,
      '--line',
      'demo-01,answer,1,true',
      '--line',
      'demo-99,answer,1,true',
    ])
    expect(r.code).toBe(1)
    expect(r.err).toContain('No controls were marked')
    expect(r.err).toContain('demo-99')
    expect((await cli(['controls', 'list', ...on, '--json'])).out.trim()).toBe('[]')
    const usage = await cli(['controls', 'set', ...on])
    expect(usage.code).toBe(2)
  })
})
