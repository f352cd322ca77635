import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { AppContext } from '../../src/main/app/context'
import { resolveGold } from '../../src/main/labels/gold'
import { setGoldRule } from '../../src/main/labels/ruleService'
import { compileGoldRule } from '../../src/main/labels/rules'
import { computeDatasetMetrics } from '../../src/main/metrics/service'
import { dispatch } from '../../src/main/rpc/dispatch'
import { buildHandlers } from '../../src/main/rpc/handlers'
import { openWorkspace } from '../../src/main/store/connection'
import type { GoldRule } from '../../src/shared/goldRule'
import { cli } from '../helpers/cli'
import { tmpDirs } from '../helpers/tmp'

const dir = tmpDirs()

/**
 * Two annotators (ann, bob: the file's workers, so its sources) on one summary of four sentences,
 * QAGS layout:
 * s1 both yes · s2 ann yes, bob no (tie) · s3 ann no, bob yes (tie) · s4 only ann, no.
 */
function twoAnnotators(): string {
  const d = dir()
  const file = join(d, 'two.jsonl')
  const votes: [string, [string, string][]][] = [
    [
      'The bridge opened on Saturday.',
      [
        ['ann', 'yes'],
        ['bob', 'yes'],
      ],
    ],
    [
      'It cost two million pounds.',
      [
        ['ann', 'yes'],
        ['bob', 'no'],
      ],
    ],
    [
      'Schools held a parade.',
      [
        ['ann', 'no'],
        ['bob', 'yes'],
      ],
    ],
    ['The mayor cut a ribbon.', [['ann', 'no']]],
  ]
  const row = {
    id: 'a1',
    article: 'The bridge opened on Saturday. It cost two million pounds. Schools held a parade.',
    summary_sentences: votes.map(([sentence, rs]) => ({
      sentence,
      responses: rs.map(([worker_id, response]) => ({ worker_id, response })),
    })),
  }
  writeFileSync(file, `${JSON.stringify(row)}\n`)
  return file
}

async function workspace(file = twoAnnotators()): Promise<string> {
  const db = join(dir(), 'ws.factlab')
  const r = await cli(['import', file, '--workspace', db, '--dataset', 'two'])
  expect(r.code, r.err).toBe(0)
  return db
}

/** Gold per sentence in order (null: none), as resolveGold and the metrics both see it. */
function goldInOrder(db: string): (string | null)[] {
  const w = openWorkspace(db)
  const gold = resolveGold(w, 1)
  const ids = w
    .prepare('SELECT t.id FROM targets t JOIN units u ON u.id = t.unit_id ORDER BY u.position, u.id')
    .pluck()
    .all() as number[]
  const out = ids.map((id) => gold.get(id)?.verdict ?? null)
  // The metrics compute gold from their own columns: they must count the same targets.
  expect(computeDatasetMetrics(w, 1, { replicates: 0 }).goldTargets).toBe(
    out.filter((g) => g !== null).length,
  )
  w.close()
  return out
}

describe('gold rules on a two-annotator dataset', () => {
  it('the default leaves ties without gold; each stated rule gives the gold it says', async () => {
    const db = await workspace()
    expect(goldInOrder(db)).toEqual(['consistent', null, null, 'inconsistent'])
    const cases: [string[], (string | null)[]][] = [
      [
        ['--tie', 'unsupported'],
        ['consistent', 'inconsistent', 'inconsistent', 'inconsistent'],
      ],
      [
        ['--tie', 'supported'],
        ['consistent', 'consistent', 'consistent', 'inconsistent'],
      ],
      [
        ['--tie', 'supported', '--min-labels', '2'],
        ['consistent', 'consistent', 'consistent', null],
      ],
      [
        ['--annotator', 'bob'],
        ['consistent', 'inconsistent', 'consistent', null],
      ],
      [
        ['--majority', '--tie', 'none', '--min-labels', '1'],
        ['consistent', null, null, 'inconsistent'],
      ],
    ]
    for (const [flags, gold] of cases) {
      const r = await cli(['gold-rule', '--workspace', db, '--dataset', 'two', ...flags, '--json'])
      expect(r.code, r.err).toBe(0)
      expect(goldInOrder(db)).toEqual(gold)
    }
  })

  it('adjudication overrides any rule, and every rule change is kept with the gold it moved', async () => {
    const db = await workspace()
    const decisions = join(dir(), 'decisions.jsonl')
    writeFileSync(
      decisions,
      `${JSON.stringify({ item: 'a1', unit: 2, verdict: 'consistent', note: 'checked the article' })}\n`,
    )
    const a = await cli([
      'adjudicate',
      '--workspace',
      db,
      '--dataset',
      'two',
      '--annotator',
      'lead',
      '--new-annotator',
      '--file',
      decisions,
    ])
    expect(a.code, a.err).toBe(0)
    await cli(['gold-rule', '--workspace', db, '--dataset', 'two', '--tie', 'unsupported', '--by', 'lead'])
    expect(goldInOrder(db)).toEqual(['consistent', 'consistent', 'inconsistent', 'inconsistent'])
    const shown = JSON.parse((await cli(['gold-rule', '--workspace', db, '--dataset', 'two', '--json'])).out)
    expect(shown.description).toBe("majority of everyone's labels; a tie counts as unsupported")
    expect(shown.history).toHaveLength(1)
    expect(shown.history[0]).toMatchObject({ changedBy: 'lead', goldBefore: 3, goldAfter: 4, moved: 1 })
    const w = openWorkspace(db)
    expect(w.prepare('SELECT before, after FROM gold_rule_changes').all()).toEqual([
      { before: null, after: 'inconsistent' },
    ])
    expect(() => w.prepare('DELETE FROM gold_rule_history').run()).toThrow(/append-only/)
    // Setting the rule already in force records nothing.
    expect(setGoldRule(w, 1, { kind: 'majority', tie: 'unsupported', minLabels: 1 })).toBeNull()
    w.close()
  })

  it('refuses an unknown annotator or tie rule and changes nothing', async () => {
    const db = await workspace()
    const r = await cli(['gold-rule', '--workspace', db, '--dataset', 'two', '--annotator', 'zed'])
    expect(r.code).toBe(1)
    expect(r.err).toMatch(/No annotator named "zed"/)
    const t = await cli(['gold-rule', '--workspace', db, '--dataset', 'two', '--tie', 'coin-flip'])
    expect(t.code).toBe(2)
    expect(goldInOrder(db)).toEqual(['consistent', null, null, 'inconsistent'])
  })

  it('leaves the named gold annotator out when scoring that annotator (no gold of their own)', () => {
    const rule: GoldRule = { kind: 'annotator', annotator: 'bob' }
    const ids = new Map([
      ['ann', 1],
      ['bob', 2],
    ])
    const binary = ['supported', 'unsupported'] as const
    expect(compileGoldRule(rule, { binary: [...binary], annotatorIds: ids })([0, 1], [1, 2])).toBe(1)
    expect(
      compileGoldRule(rule, { binary: [...binary], annotatorIds: ids, exclude: 2 })([0, 1], [1, 2]),
    ).toBe(-1)
  })
})

describe('majority of the sources (SummEval: the experts are gold)', () => {
  it("counts only the dataset's own reference labels, so people labelling later do not outvote them", () => {
    const rule: GoldRule = { kind: 'majority', tie: 'none', minLabels: 1, of: 'sources' }
    const ids = new Map([
      ['SummEval expert 1', 1],
      ['SummEval expert 2', 2],
      ['ann', 3],
      ['bob', 4],
    ])
    const ctx = {
      binary: ['unsupported', 'supported'] as const,
      annotatorIds: ids,
      sourceIds: new Set([1, 2]),
    }
    // Experts say 0, 0; two people say 1, 1: everyone's majority would tie, the sources' is 0.
    expect(compileGoldRule(rule, { ...ctx, binary: [...ctx.binary] })([0, 0, 1, 1, 1], [1, 2, 3, 4, 4])).toBe(
      0,
    )
    expect(
      compileGoldRule({ ...rule, of: 'everyone' }, { ...ctx, binary: [...ctx.binary] })(
        [0, 0, 1, 1],
        [1, 2, 3, 4],
      ),
    ).toBe(-1)
  })

  it('a SummEval import starts with it, the metrics count the same gold, and a dataset without sources refuses it', async () => {
    const db = join(dir(), 'ws.factlab')
    const file = join(__dirname, '..', 'fixtures', 'import', 'summeval.jsonl')
    expect((await cli(['import', file, '--workspace', db, '--dataset', 'se'])).code).toBe(0)
    const shown = JSON.parse((await cli(['gold-rule', '--workspace', db, '--dataset', 'se', '--json'])).out)
    expect(shown.rule).toMatchObject({ kind: 'majority', of: 'sources' })
    expect(shown.description).toMatch(/^majority of the dataset's own reference labels/)
    const w = openWorkspace(db)
    expect(resolveGold(w, 1).size).toBe(3)
    expect(computeDatasetMetrics(w, 1, { replicates: 0 }).goldTargets).toBe(3)
    w.close()
    // The same summary with nobody's responses: a dataset with no reference labels of its own.
    const bare = join(dir(), 'bare.jsonl')
    const row = JSON.parse(readFileSync(twoAnnotators(), 'utf8')) as {
      summary_sentences: { responses: unknown[] }[]
    }
    for (const s of row.summary_sentences) s.responses = []
    writeFileSync(bare, `${JSON.stringify(row)}\n`)
    const none = await workspace(bare)
    const r = await cli(['gold-rule', '--workspace', none, '--dataset', 'two', '--of', 'sources'])
    expect(r.code).toBe(1)
    expect(r.err).toMatch(/no reference labels of its own/)
    const two = await workspace()
    const bad = await cli(['gold-rule', '--workspace', two, '--dataset', 'two', '--of', 'experts'])
    expect(bad.code).toBe(2)
    expect(goldInOrder(two)).toEqual(['consistent', null, null, 'inconsistent'])
  })
})

describe('gold.rule and gold.setRule calls', () => {
  it('show and set the rule as the dataset card does, refusing a bad one with the reason', async () => {
    const db = await workspace()
    const ctx = new AppContext(db, { driver: 'browser' })
    try {
      const handlers = buildHandlers(ctx)
      const changed: number[] = []
      ctx.events.subscribe((name, payload) => {
        if (name === 'labels.changed') changed.push((payload as { datasetId: number }).datasetId)
      })
      expect(await dispatch(handlers, 'gold.rule', { datasetId: 1 })).toMatchObject({
        ok: true,
        value: { rule: { kind: 'majority', tie: 'none', minLabels: 1 }, history: [] },
      })
      const set = await dispatch(handlers, 'gold.setRule', {
        datasetId: 1,
        rule: { kind: 'annotator', annotator: 'ann' },
        changedBy: 'lead',
      })
      expect(set).toMatchObject({
        ok: true,
        value: { description: 'annotator "ann" is gold', history: [{}] },
      })
      expect(changed).toEqual([1])
      expect(
        await dispatch(handlers, 'gold.setRule', {
          datasetId: 1,
          rule: { kind: 'annotator', annotator: 'zed' },
        }),
      ).toMatchObject({
        ok: false,
        error: { code: 'bad_input', message: 'No annotator named "zed" in this workspace' },
      })
      expect(
        await dispatch(handlers, 'gold.setRule', { datasetId: 1, rule: { kind: 'majority', tie: 'coin' } }),
      ).toMatchObject({ ok: false, error: { code: 'bad_input' } })
    } finally {
      ctx.close()
    }
    expect(goldInOrder(db)).toEqual(['consistent', 'consistent', 'inconsistent', 'inconsistent'])
  })
})

describe('adjudicate --file', () => {
  it('is all or nothing: one bad line saves no decision', async () => {
    const db = await workspace()
    const file = join(dir(), 'bad.jsonl')
    writeFileSync(
      file,
      [
        JSON.stringify({ item: 'a1', unit: 2, verdict: 'consistent' }),
        JSON.stringify({ item: 'a1', unit: 3, verdict: 'maybe' }),
      ].join('\n'),
    )
    const r = await cli([
      'adjudicate',
      '--workspace',
      db,
      '--dataset',
      'two',
      '--annotator',
      'lead',
      '--new-annotator',
      '--file',
      file,
    ])
    expect(r.code).toBe(1)
    expect(r.err).toMatch(/line 2: .*maybe.*nothing was saved/)
    const w = openWorkspace(db)
    expect(w.prepare('SELECT COUNT(*) FROM gold').pluck().get()).toBe(0)
    w.close()
    const missing = join(dir(), 'missing.jsonl')
    writeFileSync(
      missing,
      `${JSON.stringify({ item: 'a1', unit: 2, verdict: 'consistent' })}\n${JSON.stringify({ item: 'a1', unit: 9, verdict: 'inconsistent' })}\n`,
    )
    const m = await cli([
      'adjudicate',
      '--workspace',
      db,
      '--dataset',
      'two',
      '--annotator',
      'lead',
      '--new-annotator',
      '--file',
      missing,
    ])
    expect(m.code).toBe(1)
    expect(m.err).toMatch(/line 2: .*no unit 9.*nothing was saved/)
    expect(goldInOrder(db)).toEqual(['consistent', null, null, 'inconsistent'])
  })
})
