import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { Workspace } from '../../src/main/app/workspace'
import { testApps } from '../helpers/app'
import { cli } from '../helpers/cli'
import { tmpDirs } from '../helpers/tmp'
import { fixture } from './helpers'

const tmp = tmpDirs()
const apps = testApps()

const SOURCE_REFUSAL = /is a dataset's reference labels \(a label source\), not a person: nobody labels as it/

/** What a refused label must leave as it was: every label, every history row, every name. */
function snapshot(file: string) {
  const ws = Workspace.open(file)
  try {
    const all = (sql: string) => ws.db.prepare(sql).all()
    return {
      labels: all('SELECT target_id, annotator_id, verdict FROM labels ORDER BY target_id, annotator_id'),
      history: all('SELECT COUNT(*) AS n FROM label_history'),
      annotators: all('SELECT name, kind FROM annotators ORDER BY name'),
    }
  } finally {
    ws.close()
  }
}

/** A workspace holding RefChecker's fixture and WikiEvalFacts' fixture, imported by the CLI. */
async function imported(): Promise<string> {
  const file = join(tmp(), 'w.factlab')
  for (const [f, name] of [
    ['refchecker.json', 'rc'],
    ['wikievalfacts.jsonl', 'wef'],
  ] as const) {
    const r = await cli(['import', fixture(f), '--workspace', file, '--dataset', name])
    expect(r.code, r.err).toBe(0)
  }
  return file
}

describe("a dataset's reference labels are a source, and nobody labels as a source", () => {
  it("RefChecker's human labels are kept as the dataset's reference labels, like WikiEvalFacts'", async () => {
    const file = await imported()
    expect(snapshot(file).annotators).toEqual([
      { name: 'refchecker', kind: 'source' },
      { name: 'wikievalfacts', kind: 'source' },
    ])
    const listed = await cli(['annotators', '--workspace', file])
    expect(listed.out).toBe(
      "refchecker  (source: a dataset's reference labels)\nwikievalfacts  (source: a dataset's reference labels)\n",
    )
    // Neither is offered as "who is labelling": the start screen lists people only.
    const app = apps(file)
    const all = await app.value<{ name: string; kind: string }[]>('workspace.annotators', {})
    expect(all.filter((a) => a.kind !== 'source')).toEqual([])
  })

  it('`label --annotator <source>` is refused with the reason, and changes nothing', async () => {
    const file = await imported()
    const before = snapshot(file)
    for (const [dataset, item, variant, verdict, source] of [
      ['rc', 'rc-1', 'claude2 triplets', 'neutral', 'refchecker'],
      ['wef', '1', 'answer', 'false', 'wikievalfacts'],
    ]) {
      const r = await cli([
        'label',
        '--workspace',
        file,
        '--dataset',
        dataset!,
        '--item',
        item!,
        '--variant',
        variant!,
        '--unit',
        '1',
        '--verdict',
        verdict!,
        '--annotator',
        source!,
      ])
      expect(r.code).toBe(1)
      expect(r.err).toMatch(SOURCE_REFUSAL)
      expect(r.err).toContain(`“${source}”`)
    }
    expect(snapshot(file)).toEqual(before)
  })

  it('`label --file` naming a source on one line saves none of its lines', async () => {
    const file = await imported()
    const before = snapshot(file)
    const labels = join(tmp(), 'labels.jsonl')
    writeFileSync(
      labels,
      `${JSON.stringify({ item: '1', variant: 'answer', unit: 1, verdict: 'false', annotator: 'ana' })}\n` +
        `${JSON.stringify({ item: '1', variant: 'answer', unit: 2, verdict: 'false', annotator: 'wikievalfacts' })}\n`,
    )
    const r = await cli([
      'label',
      '--file',
      labels,
      '--workspace',
      file,
      '--dataset',
      'wef',
      '--new-annotator',
    ])
    expect(r.code).toBe(1)
    expect(r.err).toContain(`${labels} line 2: `)
    expect(r.err).toMatch(SOURCE_REFUSAL)
    expect(r.err).toContain('nothing was saved')
    // Not even the person "ana" the first line would have added.
    expect(snapshot(file)).toEqual(before)
  })

  it('annotate.save under a source is refused over RPC, as the window would send it', async () => {
    const file = await imported()
    const before = snapshot(file)
    const app = apps(file)
    const db = app.ctx.workspace.db
    const source = db.prepare("SELECT id FROM annotators WHERE name = 'refchecker'").pluck().get() as number
    const targetId = db
      .prepare('SELECT target_id FROM labels WHERE annotator_id = ? LIMIT 1')
      .pluck()
      .get(source)
    const r = await app.call('annotate.save', { targetId, annotatorId: source, verdict: 'neutral' })
    expect(r.ok).toBe(false)
    if (!r.ok) {
      expect(r.error.code).toBe('conflict')
      expect(r.error.message).toMatch(SOURCE_REFUSAL)
    }
    expect(snapshot(file)).toEqual(before)
  })

  it('a person still labels the same target, beside the reference label', async () => {
    const file = await imported()
    const r = await cli([
      'label',
      '--workspace',
      file,
      '--dataset',
      'rc',
      '--item',
      'rc-1',
      '--variant',
      'claude2 triplets',
      '--unit',
      '1',
      '--verdict',
      'neutral',
      '--annotator',
      'ana',
      '--new-annotator',
    ])
    expect(r.code, r.err).toBe(0)
    expect(snapshot(file).annotators).toContainEqual({ name: 'ana', kind: 'person' })
  })
})
