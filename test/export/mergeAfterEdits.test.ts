import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { Workspace } from '../../src/main/app/workspace'
import { addUnit, splitUnit } from '../../src/main/units/edit'
import { cli } from '../helpers/cli'
import { tmpDirs } from '../helpers/tmp'

const tmp = tmpDirs()
const FIXTURE = join(import.meta.dirname, '..', 'fixtures', 'import', 'wikievalfacts.csv')
const FIRST = 'The Corran River flows through Elmbridge Falls.'
const SHORTER = 'Corran flows through Elmbridge Falls.'

async function run(...args: string[]) {
  const r = await cli(args)
  expect(r.code, `factlab ${args.join(' ')}: ${r.err}`).toBe(0)
  return r.out
}

/** The lead's workspace with a plan for ana, ana's package, and her laptop opened from it. */
async function leadAndLaptop(dir: string) {
  const lead = join(dir, 'lead.factlab')
  const laptop = join(dir, 'ana.factlab')
  await run('import', FIXTURE, '--workspace', lead, '--dataset', 'wiki')
  await run(
    'assign',
    '--workspace',
    lead,
    '--dataset',
    'wiki',
    '--k',
    '1',
    '--policy',
    'fixed',
    '--annotators',
    'ana',
  )
  const pkg = join(dir, 'ana.pkg.jsonl')
  await run('package', '--workspace', lead, '--dataset', 'wiki', '--annotator', 'ana', '--out', pkg)
  await run('package', '--workspace', laptop, '--open', pkg)
  return { lead, laptop }
}

const edit = (ws: string, unit: number, text: string) =>
  run(
    'units',
    'edit',
    '--workspace',
    ws,
    '--dataset',
    'wiki',
    '--item',
    '1',
    '--unit',
    String(unit),
    '--text',
    text,
  )
const label = (ws: string, unit: number, verdict: string) =>
  run(
    'label',
    '--workspace',
    ws,
    '--dataset',
    'wiki',
    '--item',
    '1',
    '--variant',
    'answer',
    '--unit',
    String(unit),
    '--verdict',
    verdict,
    '--annotator',
    'ana',
    '--new-annotator',
  )

async function bundle(dir: string, laptop: string): Promise<string> {
  const out = join(dir, `ana-${Math.random().toString(36).slice(2)}.bundle.jsonl`)
  await run('bundle', '--workspace', laptop, '--dataset', 'wiki', '--annotator', 'ana', '--out', out)
  return out
}

/**
 * Ana's labels in a workspace as the lead reads them: the wording labelled, and whether it is
 * the current unit or an earlier version of which current wording (or a deleted unit).
 */
function anasLabels(file: string): string[] {
  const ws = Workspace.open(file)
  try {
    const rows = ws.db
      .prepare(
        `SELECT i.ext_id AS item, c.variant, u.text, u.superseded_by AS sup, u.deleted_at AS del, l.verdict
         FROM labels l JOIN annotators a ON a.id = l.annotator_id AND a.name = 'ana'
         JOIN targets t ON t.id = l.target_id JOIN units u ON u.id = t.unit_id
         JOIN items i ON i.id = t.item_id JOIN candidates c ON c.id = t.candidate_id`,
      )
      .all() as {
      item: string
      variant: string
      text: string
      sup: number | null
      del: string | null
      verdict: string
    }[]
    const latest = (id: number): string => {
      const u = ws.db.prepare('SELECT text, superseded_by AS sup FROM units WHERE id = ?').get(id) as {
        text: string
        sup: number | null
      }
      return u.sup === null ? u.text : latest(u.sup)
    }
    return rows
      .map((r) => {
        const state = r.sup !== null ? `earlier version of "${latest(r.sup)}"` : r.del ? 'deleted' : 'current'
        return `${r.item} | ${r.variant} | "${r.text}" (${state}) → ${r.verdict}`
      })
      .sort()
  } finally {
    ws.close()
  }
}

/** Everything a merge may touch, to see that a repeat or a refusal leaves it as it was. */
function everything(file: string) {
  const ws = Workspace.open(file)
  try {
    return ws.db
      .prepare(
        `SELECT (SELECT COUNT(*) FROM units) AS units, (SELECT COUNT(*) FROM targets) AS targets,
          (SELECT COUNT(*) FROM labels) AS labels, (SELECT COUNT(*) FROM label_history) AS history,
          (SELECT group_concat(id || ':' || text || ':' || version || ':' || COALESCE(superseded_by, '-'), ' | ')
             FROM (SELECT * FROM units ORDER BY id)) AS unitRows`,
      )
      .get()
  } finally {
    ws.close()
  }
}

/** The texts of item 1's current facts, as `units list` shows them. */
const currentTexts = async (ws: string) =>
  (await run('units', 'list', '--workspace', ws, '--dataset', 'wiki', '--item', '1'))
    .trim()
    .split('\n')
    .map((line) => line.replace(/^.*labels? {2}/, ''))

describe('merging a bundle after units were edited', () => {
  it('merges when the annotator edited a unit before labelling it: the label lands on her wording, kept as an earlier version of the lead’s', async () => {
    const dir = tmp()
    const { lead, laptop } = await leadAndLaptop(dir)
    await edit(laptop, 1, SHORTER)
    await label(laptop, 1, 'false')
    await label(laptop, 2, 'true')
    const file = await bundle(dir, laptop)
    const before = await currentTexts(lead)

    const merged = await cli(['merge', file, '--workspace', lead])
    expect(merged.code, merged.err).toBe(0)
    expect(merged.out).toContain('2 added')
    expect(merged.out).toContain(`recreated earlier fact of item 1: ${SHORTER}`)
    expect(anasLabels(lead)).toEqual([
      `1 | answer | "${SHORTER}" (earlier version of "${FIRST}") → false`,
      '1 | answer | "The Corran River powered three paper mills." (current) → true',
    ])
    // The lead's wording stays current: a merge never changes which units are current here.
    expect(await currentTexts(lead)).toEqual(before)

    // The same bundle again changes nothing.
    const after = everything(lead)
    const again = await cli(['merge', file, '--workspace', lead])
    expect(again.code, again.err).toBe(0)
    expect(again.out).toContain('0 added, 0 updated, 2 unchanged')
    expect(again.out).toContain('0 unit versions recreated')
    expect(everything(lead)).toEqual(after)
  })

  it('merges every bundle when the lead edited units after sending the packages', async () => {
    const dir = tmp()
    const { lead, laptop } = await leadAndLaptop(dir)
    // Fact 1 had no label at the lead's (rewritten in place); fact 2 carried the import's labels (versioned).
    await edit(lead, 1, SHORTER)
    await edit(lead, 2, 'The Corran powered three mills.')
    await label(laptop, 1, 'false')
    await label(laptop, 2, 'not_clear')
    await label(laptop, 3, 'true')
    const file = await bundle(dir, laptop)

    const merged = await cli(['merge', file, '--workspace', lead])
    expect(merged.code, merged.err).toBe(0)
    expect(merged.out).toContain('3 added')
    expect(anasLabels(lead)).toEqual([
      `1 | answer | "${FIRST}" (earlier version of "${SHORTER}") → false`,
      '1 | answer | "The Corran River powered three paper mills." (earlier version of "The Corran powered three mills.") → not_clear',
      '1 | answer | "The paper mills operated in the 1800s." (current) → true',
    ])
    const after = everything(lead)
    expect((await cli(['merge', file, '--workspace', lead])).out).toContain('3 unchanged')
    expect(everything(lead)).toEqual(after)
  })

  it('keeps labels on units split, added or deleted on the laptop, recreating what the lead never had as deleted units', async () => {
    const dir = tmp()
    const { lead, laptop } = await leadAndLaptop(dir)
    const ws = Workspace.open(laptop)
    const facts = ws.db
      .prepare(
        `SELECT u.id, u.item_id AS itemId FROM units u JOIN items i ON i.id = u.item_id
         WHERE i.ext_id = '1' AND u.kind = 'fact' ORDER BY u.position, u.id`,
      )
      .all() as { id: number; itemId: number }[]
    splitUnit(ws.db, facts[1]!.id, ['The Corran River powered mills.', 'There were three mills.'])
    addUnit(ws.db, { itemId: facts[0]!.itemId, kind: 'fact', text: 'The falls are in Elmbridge.' })
    ws.close()
    // 1: first fact, 2 and 3: the split, 4: the third fact, 5: her own; she labels all, then deletes 4.
    for (const n of [1, 2, 3, 4, 5]) await label(laptop, n, n === 4 ? 'false' : 'true')
    await run('units', 'delete', '--workspace', laptop, '--dataset', 'wiki', '--item', '1', '--unit', '4')
    const file = await bundle(dir, laptop)

    const merged = await cli(['merge', file, '--workspace', lead])
    expect(merged.code, merged.err).toBe(0)
    expect(merged.out).toContain('5 added')
    expect(anasLabels(lead)).toEqual([
      `1 | answer | "${FIRST}" (current) → true`,
      '1 | answer | "The Corran River powered mills." (earlier version of "The Corran River powered three paper mills.") → true',
      '1 | answer | "The falls are in Elmbridge." (deleted) → true',
      '1 | answer | "The paper mills operated in the 1800s." (current) → false',
      '1 | answer | "There were three mills." (deleted) → true',
    ])
    const after = everything(lead)
    expect((await cli(['merge', file, '--workspace', lead])).out).toContain('5 unchanged')
    expect(everything(lead)).toEqual(after)
  })

  it('still refuses a bundle of a different dataset with the same name, and changes nothing', async () => {
    const dir = tmp()
    const { laptop } = await leadAndLaptop(dir)
    await edit(laptop, 1, SHORTER)
    await label(laptop, 1, 'false')
    const file = await bundle(dir, laptop)
    const other = join(dir, 'other.factlab')
    const otherCsv = join(dir, 'other.csv')
    writeFileSync(otherCsv, readFileSync(FIXTURE, 'utf8').replaceAll('Corran', 'Dorran'))
    await run('import', otherCsv, '--workspace', other, '--dataset', 'wiki')
    const before = everything(other)

    const refused = await cli(['merge', file, '--workspace', other])
    expect(refused.code).toBe(1)
    expect(refused.err).toMatch(
      /This bundle is for dataset "wiki" \(content [0-9a-f]{12}\), but dataset "wiki" here has different content \([0-9a-f]{12}\).*Nothing was merged/,
    )
    expect(everything(other)).toEqual(before)
  })

  it('merges a bundle between two workspaces that imported the same file and edited it differently', async () => {
    const dir = tmp()
    const a = join(dir, 'a.factlab')
    const b = join(dir, 'b.factlab')
    await run('import', FIXTURE, '--workspace', a, '--dataset', 'wiki')
    await run('import', FIXTURE, '--workspace', b, '--dataset', 'wiki')
    await edit(a, 1, SHORTER)
    await label(a, 1, 'false')
    await edit(b, 1, 'The Corran flows through the Elmbridge Falls.')
    const merged = await cli(['merge', await bundle(dir, a), '--workspace', b])
    expect(merged.code, merged.err).toBe(0)
    expect(anasLabels(b)).toEqual([
      `1 | answer | "${SHORTER}" (earlier version of "The Corran flows through the Elmbridge Falls.") → false`,
    ])
  })
})
