import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { Workspace } from '../../src/main/app/workspace'
import { cli } from '../helpers/cli'
import { demoWorkspaceIn } from '../helpers/demoWorkspace'
import { tmpDirs } from '../helpers/tmp'

const tmp = tmpDirs()
const DEMO = 'Demo: WikiEval-style'

const demoWorkspace = () => demoWorkspaceIn(tmp())

function query<T>(file: string, sql: string, ...args: unknown[]): T {
  const ws = Workspace.open(file)
  try {
    return ws.db.prepare(sql).get(...args) as T
  } finally {
    ws.close()
  }
}

const labelsOf = (file: string, who: string) =>
  query<{ n: number }>(
    file,
    'SELECT COUNT(*) AS n FROM labels l JOIN annotators a ON a.id = l.annotator_id WHERE a.name = ? AND l.verdict IS NOT NULL',
    who,
  ).n

const jsonl = (rows: object[]) => `${rows.map((r) => JSON.stringify(r)).join('\n')}\n`

describe('factlab label --file', () => {
  it('saves every line of a good file, adding the annotator --new-annotator asks for', async () => {
    const file = demoWorkspace()
    const labels = join(tmp(), 'labels.jsonl')
    writeFileSync(
      labels,
      jsonl([
        { item: 'demo-01', variant: 'answer', unit: 1, verdict: 'true' },
        { item: 'demo-01', variant: 'poor_answer', unit: 1, verdict: 'not_clear', note: 'too vague' },
        {
          item: 'demo-02',
          variant: 'answer',
          unit: 2,
          verdict: 'false',
          evidence: [{ pane: 'candidate', start: 0, end: 5 }],
        },
      ]),
    )
    const r = await cli([
      'label',
      '--file',
      labels,
      '--dataset',
      DEMO,
      '--annotator',
      'rae',
      '--new-annotator',
      '--workspace',
      file,
      '--json',
    ])
    expect(r.code).toBe(0)
    expect(JSON.parse(r.out)).toMatchObject({ saved: 3 })
    expect(labelsOf(file, 'rae')).toBe(3)
  })

  it('saves nothing when one line is bad, and names that line', async () => {
    const file = demoWorkspace()
    const labels = join(tmp(), 'labels.jsonl')
    const fileOf = (command: 'label' | 'adjudicate', annotator: string) =>
      cli([
        command,
        '--file',
        labels,
        '--dataset',
        DEMO,
        '--annotator',
        annotator,
        '--new-annotator',
        '--workspace',
        file,
      ])
    writeFileSync(
      labels,
      jsonl([
        { item: 'demo-01', variant: 'answer', unit: 1, verdict: 'true' },
        { item: 'demo-01', variant: 'answer', unit: 2, verdict: 'true' },
        { item: 'demo-01', variant: 'answer', unit: 3, verdict: 'probably' },
      ]),
    )
    const r = await fileOf('label', 'rae')
    expect(r.code).toBe(1)
    expect(r.err).toMatch(/line 3/)
    expect(r.err).toMatch(/probably/)
    expect(r.err).toMatch(/nothing was saved/)
    expect(labelsOf(file, 'rae')).toBe(0)
    // The annotator the file would have added is not left behind either.
    expect(query<{ n: number }>(file, "SELECT COUNT(*) AS n FROM annotators WHERE name = 'rae'").n).toBe(0)

    writeFileSync(
      labels,
      `${JSON.stringify({ item: 'demo-01', variant: 'answer', unit: 1, verdict: 'true' })}\n{"item":\n`,
    )
    const broken = await fileOf('label', 'rae')
    expect(broken.code).toBe(1)
    expect(broken.err).toMatch(/line 2: not valid JSON/)
    writeFileSync(labels, jsonl([{ item: 'demo-99', variant: 'answer', unit: 1, verdict: 'true' }]))
    const missing = await fileOf('label', 'rae')
    expect(missing.err).toMatch(/line 1: .*no item with id "demo-99"/)
    expect(labelsOf(file, 'rae')).toBe(0)
    // A unit named two ways, or a field no line has, is refused as well, by its line.
    for (const [bad, reason] of [
      [
        { item: 'demo-01', variant: 'answer', unit: 1, unitText: 'x', verdict: 'true' },
        /line 2: .*exactly one of "unit" and "unitText"/,
      ],
      [{ item: 'demo-01', variant: 'answer', unit: 1, verdit: 'true' }, /line 2: .*verdit/],
    ] as const) {
      writeFileSync(labels, jsonl([{ item: 'demo-01', variant: 'answer', unit: 1, verdict: 'true' }, bad]))
      const r = await fileOf('label', 'rae')
      expect(r.code).toBe(1)
      expect(r.err).toMatch(reason)
      const a = await fileOf('adjudicate', 'lead')
      expect(a.code).toBe(1)
      expect(a.err).toMatch(reason)
    }
    expect(labelsOf(file, 'rae')).toBe(0)
  })

  it('clears a label with --clear and keeps the cleared verdict in the history', async () => {
    const file = demoWorkspace()
    const at = [
      '--dataset',
      DEMO,
      '--item',
      'demo-01',
      '--variant',
      'answer',
      '--unit',
      '1',
      '--annotator',
      'alex',
    ]
    expect(labelsOf(file, 'alex') > 0).toBe(true)
    const before = labelsOf(file, 'alex')
    const r = await cli(['label', ...at, '--clear', '--workspace', file])
    expect(r.code).toBe(0)
    expect(labelsOf(file, 'alex')).toBe(before - 1)
    const refused = await cli(['label', ...at, '--workspace', file])
    expect(refused.code).toBe(2)
  })
})

describe('factlab adjudicate', () => {
  it('makes gold that metrics --json counts', async () => {
    const file = demoWorkspace()
    const goldTargets = async () => {
      const m = await cli(['metrics', '--dataset', DEMO, '--workspace', file, '--json'])
      return (JSON.parse(m.out) as { gold_targets: number }).gold_targets
    }
    const before = await goldTargets()
    // A target alex and sam disagree on has no majority, so no gold until someone decides.
    const queue = await cli(['call', 'agreement.queue', '{"datasetId":1,"limit":1}', '--workspace', file])
    const entry = (
      JSON.parse(queue.out) as {
        entries: { extId: string; candidate: { variant: string }; unit: { text: string } }[]
      }
    ).entries[0]!
    const r = await cli([
      'adjudicate',
      '--dataset',
      DEMO,
      '--item',
      entry.extId,
      '--variant',
      entry.candidate.variant,
      '--unit-text',
      entry.unit.text,
      '--verdict',
      'false',
      '--annotator',
      'lead',
      '--new-annotator',
      '--workspace',
      file,
      '--json',
    ])
    expect(r.code).toBe(0)
    expect(JSON.parse(r.out)).toMatchObject({ gold: { verdict: 'false', adjudicator: 'lead' } })
    expect(await goldTargets()).toBe(before + 1)
  })
})

describe('factlab units, annotators and templates', () => {
  it('units edit of a labelled unit makes a new version and the old labels stay', async () => {
    const file = demoWorkspace()
    const at = ['--dataset', DEMO, '--item', 'demo-01', '--unit', '1', '--workspace', file]
    const r = await cli([
      'units',
      'edit',
      ...at,
      '--text',
      'The telescope observes in infrared light.',
      '--json',
    ])
    expect(r.code).toBe(0)
    const edited = JSON.parse(r.out) as { versioned: boolean; unit: { version: number; lineageId: number } }
    expect(edited.versioned).toBe(true)
    expect(edited.unit.version).toBe(2)
    const versions = await cli([
      'call',
      'units.versions',
      JSON.stringify({ lineageId: edited.unit.lineageId }),
      '--workspace',
      file,
    ])
    const list = JSON.parse(versions.out) as { unit: { version: number }; labels: unknown[] }[]
    expect(list.find((v) => v.unit.version === 1)?.labels.length).toBeGreaterThan(0)
    const listed = await cli(['units', 'list', '--dataset', DEMO, '--item', 'demo-01', '--workspace', file])
    expect(listed.out).toMatch(/1 {2}fact {2}v2 {2}0 labels {2}The telescope observes in infrared light\./)

    const del = await cli(['units', 'delete', ...at])
    expect(del.code).toBe(0)
    const after = await cli([
      'units',
      'list',
      '--dataset',
      DEMO,
      '--item',
      'demo-01',
      '--workspace',
      file,
      '--json',
    ])
    expect((JSON.parse(after.out) as { units: unknown[] }).units).toHaveLength(4)
    const none = await cli([
      'units',
      'edit',
      '--dataset',
      DEMO,
      '--item',
      'demo-01',
      '--unit',
      '9',
      '--text',
      'x',
      '--workspace',
      file,
    ])
    expect(none.code).toBe(1)
    expect(none.err).toMatch(/no unit 9/)
  })

  it('annotators list and add', async () => {
    const file = demoWorkspace()
    const add = await cli(['annotators', 'add', 'noor', '--workspace', file, '--json'])
    expect(JSON.parse(add.out)).toMatchObject({ name: 'noor', added: true })
    const again = await cli(['annotators', 'add', 'noor', '--workspace', file, '--json'])
    expect(JSON.parse(again.out)).toMatchObject({ added: false })
    const list = await cli(['annotators', '--workspace', file])
    expect(list.out.trim().split('\n')).toEqual(expect.arrayContaining(['alex', 'sam', 'noor']))
  })

  it('templates set saves a new version and keeps the earlier one', async () => {
    const file = demoWorkspace()
    const listed = await cli(['templates', 'list', '--workspace', file, '--json'])
    const first = (
      JSON.parse(listed.out) as { name: string; version: number; system?: string; user: string }[]
    )[0]!
    const body = join(tmp(), 'user.txt')
    writeFileSync(body, `${first.user}\n\nAnswer carefully.`)
    const r = await cli(['templates', 'set', first.name, '--file', body, '--workspace', file, '--json'])
    expect(r.code).toBe(0)
    const saved = JSON.parse(r.out) as { version: number; user: string; system?: string }
    expect(saved.version).toBe(first.version + 1)
    expect(saved.user).toMatch(/Answer carefully\.$/)
    expect(saved.system).toBe(first.system)
    const old = await cli([
      'templates',
      'show',
      first.name,
      String(first.version),
      '--workspace',
      file,
      '--json',
    ])
    expect((JSON.parse(old.out) as { user: string }).user).toBe(first.user)

    const json = join(tmp(), 'bad.json')
    writeFileSync(json, '{"user": 3}')
    const bad = await cli(['templates', 'set', first.name, '--file', json, '--workspace', file])
    expect(bad.code).toBe(1)
    expect(bad.err).toMatch(/user/)
  })
})
