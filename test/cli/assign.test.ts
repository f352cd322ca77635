import { describe, expect, it } from 'vitest'
import { cli } from '../helpers/cli'
import { demoWorkspaceIn } from '../helpers/demoWorkspace'
import { tmpDirs } from '../helpers/tmp'

const tmp = tmpDirs()
const DATASET = 'Demo: WikiEval-style'

const demoWorkspace = () => demoWorkspaceIn(tmp())

interface PlanJson {
  planned: boolean
  k: number
  policy: string
  seed: number
  controlRate: number
  hourlyRate: number | null
  annotators: { name: string; hourlyRate: number | null }[]
}

const assign = (file: string, ...flags: string[]) =>
  cli(['assign', '--workspace', file, '--dataset', DATASET, ...flags])

async function planOf(file: string): Promise<PlanJson> {
  const r = await assign(file, '--json')
  expect(r.code, r.err).toBe(0)
  return JSON.parse(r.out) as PlanJson
}

describe('factlab assign', () => {
  it('keeps every part of the plan a flag does not mention', async () => {
    const file = demoWorkspace()
    const set = await assign(
      file,
      '--k',
      '2',
      '--policy',
      'fixed',
      '--seed',
      '7',
      '--annotators',
      'alex:30,sam:25',
    )
    expect(set.code, set.err).toBe(0)
    const changed = await assign(file, '--control-rate', '0.1')
    expect(changed.code, changed.err).toBe(0)
    expect(changed.out).toBe(
      `Plan for dataset ${DATASET}: k = 2, fixed assignment (seed 7), annotators alex (30/h), sam (25/h), 10% controls\n`,
    )
    expect(await planOf(file)).toMatchObject({
      planned: true,
      k: 2,
      policy: 'fixed',
      seed: 7,
      controlRate: 0.1,
      annotators: [
        { name: 'alex', hourlyRate: 30 },
        { name: 'sam', hourlyRate: 25 },
      ],
    })
  })

  it('a name without a rate keeps its rate; name:none and --hourly-rate none clear one', async () => {
    const file = demoWorkspace()
    expect((await assign(file, '--annotators', 'alex:30', '--hourly-rate', '20')).code).toBe(0)
    expect((await assign(file, '--annotators', 'alex,sam:25')).code).toBe(0)
    expect((await planOf(file)).annotators).toEqual([
      expect.objectContaining({ name: 'alex', hourlyRate: 30 }),
      expect.objectContaining({ name: 'sam', hourlyRate: 25 }),
    ])
    expect((await assign(file, '--annotators', 'alex:none,sam', '--hourly-rate', 'none')).code).toBe(0)
    const plan = await planOf(file)
    expect(plan.hourlyRate).toBeNull()
    expect(plan.annotators.map((a) => a.hourlyRate)).toEqual([null, 25])
    expect((await assign(file, '--annotators', '')).code).toBe(0)
    expect((await planOf(file)).annotators).toEqual([])
  })

  it('with no plan flags shows the plan and changes nothing', async () => {
    const file = demoWorkspace()
    const none = await assign(file)
    expect(none.code, none.err).toBe(0)
    expect(none.out).toMatch(/^Dataset Demo: WikiEval-style has no plan: everyone labels everything/)
    expect((await planOf(file)).planned).toBe(false)
    await assign(file, '--k', '2')
    const shown = await assign(file)
    expect(shown.out).toBe(
      `Plan for dataset ${DATASET}: k = 2, open assignment, any annotator, no controls\n`,
    )
    const byNumber = await cli(['assign', '--workspace', file, '--dataset', '#1'])
    expect(byNumber.out).toBe(shown.out)
  })

  it.each([
    [['--k', '0'], '--k must be a whole number from 1 to 100, got "0"'],
    [['--k', 'two'], '--k must be a whole number from 1 to 100, got "two"'],
    [['--k', '1.5'], '--k must be a whole number from 1 to 100, got "1.5"'],
    [['--control-rate', '2'], '--control-rate must be a number from 0 to 1, got "2"'],
    [['--seed', '-1'], '--seed must be a whole number from 0 to 2147483647, got "-1"'],
    [['--hourly-rate', 'lots'], '--hourly-rate must be a number from 0 to 100000 (or none), got "lots"'],
    [
      ['--annotators', 'alex:-3'],
      'the rate of alex in --annotators must be a number of at least 0 (or none), got "-3"',
    ],
    [['--policy', 'nope'], '--policy must be open or fixed, got "nope"'],
  ])(
    'refuses %j with one line naming the flag and its range (exit 2), the plan unchanged',
    async (flags, message) => {
      const file = demoWorkspace()
      await assign(file, '--k', '2')
      const r = await assign(file, ...flags)
      expect(r.err).toBe(`factlab: ${message}\n`)
      expect(r.code).toBe(2)
      expect(await planOf(file)).toMatchObject({ k: 2, controlRate: 0 })
    },
  )

  it('a plan the people cannot meet is bad input (exit 1) in one line', async () => {
    const file = demoWorkspace()
    const r = await assign(file, '--k', '3', '--annotators', 'alex,sam')
    expect(r.code).toBe(1)
    expect(r.err).toBe(
      'factlab: Overlap k = 3 needs at least 3 annotators, but the plan has 2: add annotators or lower k\n',
    )
  })
})

describe('factlab gold-rule', () => {
  it('changing the tie keeps an earlier --min-labels, and the reverse', async () => {
    const file = demoWorkspace()
    const rule = (...flags: string[]) =>
      cli(['gold-rule', '--workspace', file, '--dataset', DATASET, '--json', ...flags])
    expect((await rule('--min-labels', '2')).code).toBe(0)
    const tie = await rule('--tie', 'supported')
    expect(tie.code, tie.err).toBe(0)
    expect(JSON.parse(tie.out).rule).toEqual({
      kind: 'majority',
      tie: 'supported',
      minLabels: 2,
      of: 'everyone',
    })
    const min = await rule('--min-labels', '3')
    expect(JSON.parse(min.out).rule).toEqual({
      kind: 'majority',
      tie: 'supported',
      minLabels: 3,
      of: 'everyone',
    })
  })
})
