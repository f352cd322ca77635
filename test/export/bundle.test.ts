import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { Workspace } from '../../src/main/app/workspace'
import { datasetContentHash, exportBundle, mergeBundle } from '../../src/main/export'
import { importFile } from '../../src/main/import'
import { labelHistory } from '../../src/main/labels/labels'
import { ensureAnnotator } from '../../src/main/store/repos/annotators'
import { tmpDirs } from '../helpers/tmp'
import { writeReleaseCsv, wsFile } from './seed'

const tmp = tmpDirs()

/** Two laptops that imported the same file. */
async function twoLaptops(dir: string) {
  const file = join(dir, 'release.csv')
  writeReleaseCsv(file)
  const open = async (name: string) => {
    const ws = Workspace.open(wsFile(dir, name))
    const { datasetId } = await importFile(ws, { file, preset: 'wikievalfacts', datasetName: 'wef' })
    return { ws, datasetId }
  }
  return { file, a: await open('a.factlab'), b: await open('b.factlab') }
}

/** Target ids in reading order, with a content key that is the same in both workspaces. */
function targets(ws: Workspace, datasetId: number) {
  return ws.db
    .prepare(
      `SELECT t.id, i.ext_id || '/' || c.variant || '/' || u.text AS key FROM targets t JOIN items i ON i.id = t.item_id
       JOIN candidates c ON c.id = t.candidate_id JOIN units u ON u.id = t.unit_id
       WHERE t.dataset_id = ? ORDER BY i.position, c.id, u.position`,
    )
    .all(datasetId) as { id: number; key: string }[]
}

function labelsOf(ws: Workspace, annotator: string) {
  return ws.db
    .prepare(
      `SELECT i.ext_id || '/' || c.variant || '/' || u.text AS key, l.verdict, l.evidence, l.note, l.updated_at AS at
       FROM labels l JOIN annotators a ON a.id = l.annotator_id JOIN targets t ON t.id = l.target_id
       JOIN items i ON i.id = t.item_id JOIN candidates c ON c.id = t.candidate_id JOIN units u ON u.id = t.unit_id
       WHERE a.name = ? ORDER BY key`,
    )
    .all(annotator)
}

const counts = (ws: Workspace) =>
  ws.db
    .prepare(
      'SELECT (SELECT COUNT(*) FROM labels) AS labels, (SELECT COUNT(*) FROM label_history) AS history, (SELECT COUNT(*) FROM annotators) AS annotators',
    )
    .get()

describe('dataset content hash', () => {
  it('is the same for two imports of one file and changes with the content, not the labels', async () => {
    const dir = tmp()
    const { a, b } = await twoLaptops(dir)
    const hash = datasetContentHash(a.ws.db, a.datasetId)
    expect(hash).toMatch(/^[0-9a-f]{64}$/)
    expect(datasetContentHash(b.ws.db, b.datasetId)).toBe(hash)
    const cleo = ensureAnnotator(a.ws.db, 'Cleo')
    a.ws.labels.save({ targetId: targets(a.ws, a.datasetId)[0]!.id, annotatorId: cleo.id, verdict: 'false' })
    expect(datasetContentHash(a.ws.db, a.datasetId)).toBe(hash)
    b.ws.db.prepare("UPDATE units SET text = text || '!' WHERE id = (SELECT MIN(id) FROM units)").run()
    expect(datasetContentHash(b.ws.db, b.datasetId)).not.toBe(hash)
  })
})

describe('annotation bundles', () => {
  it("carry one annotator's labels to another workspace with the same data", async () => {
    const dir = tmp()
    const { a, b } = await twoLaptops(dir)
    const cleo = ensureAnnotator(a.ws.db, 'Cleo')
    const ts = targets(a.ws, a.datasetId)
    a.ws.labels.save({
      targetId: ts[0]!.id,
      annotatorId: cleo.id,
      verdict: 'true',
      evidence: [{ pane: 'candidate', start: 0, end: 6 }],
      note: 'first try',
      seconds: 4,
    })
    a.ws.labels.save({ targetId: ts[0]!.id, annotatorId: cleo.id, verdict: 'false' })
    a.ws.labels.save({ targetId: ts[4]!.id, annotatorId: cleo.id, verdict: 'not_clear' })
    const out = join(dir, 'cleo.bundle.jsonl')
    const bundle = await exportBundle(a.ws, { datasetId: a.datasetId, annotatorId: cleo.id, out })
    expect(bundle.labels).toBe(2)

    const report = await mergeBundle(b.ws, out)
    expect(report).toEqual({
      dataset: 'wef',
      annotator: 'Cleo',
      added: 2,
      updated: 0,
      unchanged: 0,
      kept_local: 0,
      earlier_versions: 0,
      recreated_versions: 0,
      recreated: [],
    })
    expect(labelsOf(b.ws, 'Cleo')).toEqual(labelsOf(a.ws, 'Cleo'))
    // The history travels too: the earlier "true" is not lost on the way.
    const bCleo = ensureAnnotator(b.ws.db, 'Cleo')
    const first = targets(b.ws, b.datasetId).find((t) => t.key === ts[0]!.key)!
    expect(labelHistory(b.ws.db, first.id, bCleo.id).map((h) => h.verdict)).toEqual(['true', 'false'])
  })

  it('keeps both sides of a conflict: the newer label wins, the other stays in the history', async () => {
    const dir = tmp()
    const { a, b } = await twoLaptops(dir)
    const ta = targets(a.ws, a.datasetId)
    const tb = targets(b.ws, b.datasetId)
    const ca = ensureAnnotator(a.ws.db, 'Cleo')
    const cb = ensureAnnotator(b.ws.db, 'Cleo')
    // Target 0: B edited last. Target 1: A edited last.
    a.ws.labels.save(
      { targetId: ta[0]!.id, annotatorId: ca.id, verdict: 'true' },
      'set',
      '2026-03-01T10:00:00.000Z',
    )
    b.ws.labels.save(
      { targetId: tb[0]!.id, annotatorId: cb.id, verdict: 'false' },
      'set',
      '2026-03-02T10:00:00.000Z',
    )
    a.ws.labels.save(
      { targetId: ta[1]!.id, annotatorId: ca.id, verdict: 'true' },
      'set',
      '2026-03-03T10:00:00.000Z',
    )
    b.ws.labels.save(
      { targetId: tb[1]!.id, annotatorId: cb.id, verdict: 'false' },
      'set',
      '2026-03-02T10:00:00.000Z',
    )
    const out = join(dir, 'cleo.bundle.jsonl')
    await exportBundle(a.ws, { datasetId: a.datasetId, annotatorId: ca.id, out })

    const report = await mergeBundle(b.ws, out)
    expect(report).toMatchObject({ added: 0, updated: 1, unchanged: 0, kept_local: 1 })
    const verdict = (id: number) =>
      (
        b.ws.db
          .prepare('SELECT verdict FROM labels WHERE target_id = ? AND annotator_id = ?')
          .get(id, cb.id) as {
          verdict: string
        }
      ).verdict
    expect(verdict(tb[0]!.id)).toBe('false')
    expect(verdict(tb[1]!.id)).toBe('true')
    const h0 = labelHistory(b.ws.db, tb[0]!.id, cb.id)
    expect(h0.map((h) => [h.verdict, h.action, h.mergedFrom !== null])).toEqual([
      ['false', 'set', false],
      // The merged state keeps the action it was given with; the merge is recorded beside it.
      ['true', 'set', true],
    ])
    const h1 = labelHistory(b.ws.db, tb[1]!.id, cb.id)
    expect(h1.map((h) => [h.verdict, h.action, h.mergedFrom !== null])).toEqual([
      ['false', 'set', false],
      // The merged state keeps the action it was given with; the merge is recorded beside it.
      ['true', 'set', true],
    ])
  })

  it('is a no-op when merged a second time', async () => {
    const dir = tmp()
    const { a, b } = await twoLaptops(dir)
    const ca = ensureAnnotator(a.ws.db, 'Cleo')
    const cb = ensureAnnotator(b.ws.db, 'Cleo')
    const ta = targets(a.ws, a.datasetId)
    const tb = targets(b.ws, b.datasetId)
    for (const t of ta.slice(0, 5)) a.ws.labels.save({ targetId: t.id, annotatorId: ca.id, verdict: 'true' })
    b.ws.labels.save(
      { targetId: tb[2]!.id, annotatorId: cb.id, verdict: 'false' },
      'set',
      '2030-01-01T00:00:00.000Z',
    )
    const out = join(dir, 'cleo.bundle.jsonl')
    await exportBundle(a.ws, { datasetId: a.datasetId, annotatorId: ca.id, out })
    const first = await mergeBundle(b.ws, out)
    expect(first).toMatchObject({ added: 4, kept_local: 1 })
    const after = { counts: counts(b.ws), labels: labelsOf(b.ws, 'Cleo') }
    const second = await mergeBundle(b.ws, out)
    expect(second).toMatchObject({ added: 0, updated: 0, unchanged: 4, kept_local: 1 })
    expect({ counts: counts(b.ws), labels: labelsOf(b.ws, 'Cleo') }).toEqual(after)
  })

  it('refuses a bundle of another dataset, naming both, and changes nothing', async () => {
    const dir = tmp()
    const { a } = await twoLaptops(dir)
    const other = Workspace.open(wsFile(dir, 'other.factlab'))
    const otherFile = join(dir, 'other.csv')
    writeFileSync(
      otherFile,
      readFileSync(join(dir, 'release.csv'), 'utf8').replace('Who painted it?', 'Who sculpted it?'),
    )
    const { datasetId } = await importFile(other, {
      file: otherFile,
      preset: 'wikievalfacts',
      datasetName: 'wef',
    })
    const ca = ensureAnnotator(a.ws.db, 'Cleo')
    a.ws.labels.save({ targetId: targets(a.ws, a.datasetId)[0]!.id, annotatorId: ca.id, verdict: 'true' })
    const out = join(dir, 'cleo.bundle.jsonl')
    await exportBundle(a.ws, { datasetId: a.datasetId, annotatorId: ca.id, out })
    const before = counts(other)
    await expect(mergeBundle(other, out)).rejects.toThrow(
      /bundle is for dataset "wef" \(content [0-9a-f]{12}\), but dataset "wef" here has different content \([0-9a-f]{12}\)/,
    )
    await expect(mergeBundle(other, out, { datasetId })).rejects.toThrow(/do not hold the same items/)
    expect(counts(other)).toEqual(before)
    expect(other.db.prepare("SELECT COUNT(*) AS n FROM annotators WHERE name = 'Cleo'").get()).toEqual({
      n: 0,
    })
  })

  it('refuses a damaged bundle as a whole, naming the line, and changes nothing', async () => {
    const dir = tmp()
    const { a, b } = await twoLaptops(dir)
    const ca = ensureAnnotator(a.ws.db, 'Cleo')
    for (const t of targets(a.ws, a.datasetId).slice(0, 3))
      a.ws.labels.save({ targetId: t.id, annotatorId: ca.id, verdict: 'true' })
    const out = join(dir, 'cleo.bundle.jsonl')
    await exportBundle(a.ws, { datasetId: a.datasetId, annotatorId: ca.id, out })
    const lines = readFileSync(out, 'utf8').trimEnd().split('\n')
    const before = counts(b.ws)

    const badVerdict = join(dir, 'bad-verdict.jsonl')
    writeFileSync(
      badVerdict,
      [...lines.slice(0, 3), lines[3]!.replace('"verdict":"true"', '"verdict":"maybe"')].join('\n'),
    )
    await expect(mergeBundle(b.ws, badVerdict)).rejects.toThrow(/"maybe" is not one of/)

    const badJson = join(dir, 'bad-json.jsonl')
    writeFileSync(badJson, [...lines.slice(0, 2), '{"target":', lines[3]].join('\n'))
    await expect(mergeBundle(b.ws, badJson)).rejects.toThrow(/bad-json\.jsonl:3: not valid JSON/)

    const truncated = join(dir, 'truncated.jsonl')
    writeFileSync(truncated, lines.slice(0, 3).join('\n'))
    await expect(mergeBundle(b.ws, truncated)).rejects.toThrow(/announces 3 labels but holds 2/)

    const unknownTarget = join(dir, 'unknown.jsonl')
    writeFileSync(
      unknownTarget,
      [...lines.slice(0, 3), lines[3]!.replace(/"item":"[^"]*"/, '"item":"no-such-item"')].join('\n'),
    )
    await expect(mergeBundle(b.ws, unknownTarget)).rejects.toThrow(/unknown\.jsonl:4: no such target here/)

    const notBundle = join(dir, 'data.csv')
    writeFileSync(notBundle, 'a,b\n1,2\n')
    await expect(mergeBundle(b.ws, notBundle)).rejects.toThrow(/not a FactLab annotation bundle/)
    expect(counts(b.ws)).toEqual(before)
  })
})
