import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { Workspace } from '../../src/main/app/workspace'
import { cli } from '../helpers/cli'
import { tmpDirs } from '../helpers/tmp'
import { fixture } from './helpers'

const tmp = tmpDirs()

/** Who gave which verdict, by annotator name and kind, in one dataset. */
function labelsBy(file: string, dataset: string) {
  const ws = Workspace.open(file)
  try {
    return ws.db
      .prepare(
        `SELECT a.name AS name, a.kind AS kind, COUNT(*) AS n FROM labels l
         JOIN annotators a ON a.id = l.annotator_id JOIN targets t ON t.id = l.target_id
         JOIN datasets d ON d.id = t.dataset_id WHERE d.name = ? GROUP BY a.id ORDER BY a.name`,
      )
      .all(dataset) as { name: string; kind: string; n: number }[]
  } finally {
    ws.close()
  }
}

describe('a QAGS import', () => {
  it("takes DCR's consistent/inconsistent schema, so the export carries DCR's per-summary scores", async () => {
    const dir = tmp()
    const ws = join(dir, 'w.factlab')
    expect((await cli(['import', fixture('qags.jsonl'), '--workspace', ws, '--dataset', 'q'])).code).toBe(0)
    const shown = await cli(['datasets', '--workspace', ws, '--json'])
    expect(shown.out).toContain('"dcr"')
    const out = join(dir, 'out')
    const r = await cli(['export', '--workspace', ws, '--dataset', 'q', '--format', 'jsonl', '--out', out])
    expect(r.code, r.err).toBe(0)
    expect(existsSync(join(out, 'responses.jsonl'))).toBe(true)
    expect(readFileSync(join(out, 'data.jsonl'), 'utf8')).toMatch(/"inconsistent"/)
  })

  it("keeps the file's workers apart from a person of the workspace with the same name, and says so", async () => {
    const dir = tmp()
    const ws = join(dir, 'w.factlab')
    const row = {
      article: 'Zola wrote Germinal in 1885.',
      summary_sentences: [
        {
          sentence: 'Zola wrote Germinal.',
          responses: [
            { worker_id: 'Zoë 李', response: 'yes' },
            { worker_id: 'w2', response: 'no' },
          ],
        },
      ],
    }
    const file = join(dir, 'a.jsonl')
    writeFileSync(file, `${JSON.stringify(row)}\n`)
    expect((await cli(['import', fixture('qags.jsonl'), '--workspace', ws, '--dataset', 'mine'])).code).toBe(
      0,
    )
    // Zoë 李 labels in this workspace herself.
    const own = await cli([
      'label',
      ...['--workspace', ws, '--dataset', 'mine', '--item', '1', '--variant', 'summary', '--unit', '1'],
      ...['--verdict', 'inconsistent', '--annotator', 'Zoë 李', '--new-annotator'],
    ])
    expect(own.code, own.err).toBe(0)
    const hers = labelsBy(ws, 'mine').filter((l) => l.kind === 'person')
    expect(hers).toEqual([{ name: 'Zoë 李', kind: 'person', n: 1 }])

    // A file naming her as a worker: her labels stay hers, the file's are a source.
    const r = await cli(['import', file, '--workspace', ws, '--dataset', 'theirs'])
    expect(r.code, r.err).toBe(0)
    expect(r.out).toContain(
      '"Zoë 李" is a person in this workspace: the file\'s labels by that name are kept as the source "Zoë 李 (source)", apart from theirs',
    )
    expect(labelsBy(ws, 'theirs')).toEqual([
      { name: 'Zoë 李 (source)', kind: 'source', n: 1 },
      { name: 'w2', kind: 'source', n: 1 },
    ])
    expect(labelsBy(ws, 'mine').filter((l) => l.kind === 'person')).toEqual(hers)
  })
})
