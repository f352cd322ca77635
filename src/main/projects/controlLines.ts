import { type ControlLineProblem, parseControlLines } from '../../shared/controlLines'
import { checkVerdict, LabelSchema, schemaWord } from '../../shared/labelSchemas'
import { countOf } from '../../shared/plural'
import type { Db } from '../store/connection'
import { parseJson } from '../store/repos/rows'
import { UNIT_ORDER } from '../units/numbering'
import type { ControlAnswer } from './controls'

/**
 * Control answers typed or loaded as lines (src/shared/controlLines.ts), each named target found
 * as `factlab label` finds one (cli/commands/locate.ts): the item by its id as imported, the unit
 * by its 1-based number among the item's current units in the Units view's order, the candidate
 * by variant. A line that names nothing here comes back as a problem with its number; the caller
 * marks nothing while any line has one.
 */
export function resolveControlLines(
  db: Db,
  datasetId: number,
  text: string,
): { answers: ControlAnswer[]; problems: ControlLineProblem[] } {
  const { lines, problems } = parseControlLines(text)
  const schema = parseJson(
    LabelSchema,
    (db.prepare('SELECT label_schema AS s FROM datasets WHERE id = ?').get(datasetId) as { s: string }).s,
    'datasets.label_schema',
  )
  const item = db.prepare('SELECT id FROM items WHERE dataset_id = ? AND ext_id = ?')
  const units = db.prepare(
    `SELECT u.id, u.kind, u.candidate_id AS candidateId FROM units u LEFT JOIN candidates c ON c.id = u.candidate_id
     WHERE u.item_id = ? AND u.superseded_by IS NULL AND u.deleted_at IS NULL ORDER BY ${UNIT_ORDER}`,
  )
  const candidates = db.prepare('SELECT id, variant FROM candidates WHERE item_id = ? ORDER BY id')
  const target = db.prepare('SELECT id FROM targets WHERE unit_id = ? AND candidate_id = ?')
  const inDataset = db.prepare('SELECT 1 FROM targets WHERE id = ? AND dataset_id = ?')
  const answers: ControlAnswer[] = []
  const found: ControlLineProblem[] = [...problems]
  for (const typed of lines) {
    // "False" or "Not clear" as typed is the schema's word where only one word reads so.
    const l = { ...typed, verdict: schemaWord(schema, typed.verdict) }
    const problem = (why: string) => found.push({ line: l.line, text: l.text, problem: why })
    // Said here with the line's number: setControls would name only the target id.
    const badVerdict = checkVerdict(schema, l.verdict)
    if (badVerdict) {
      problem(badVerdict)
      continue
    }
    if ('targetId' in l) {
      if (inDataset.get(l.targetId, datasetId)) answers.push({ targetId: l.targetId, verdict: l.verdict })
      else problem(`this dataset has no target ${l.targetId}`)
      continue
    }
    const row = item.get(datasetId, l.item) as { id: number } | undefined
    if (!row) {
      problem(`this dataset has no item “${l.item}”`)
      continue
    }
    const list = units.all(row.id) as { id: number; kind: string; candidateId: number | null }[]
    const unit = list[l.unit - 1]
    if (!unit) {
      problem(`item “${l.item}” has ${countOf(list.length, 'unit')}; there is no unit ${l.unit}`)
      continue
    }
    const variants = candidates.all(row.id) as { id: number; variant: string }[]
    const candidate = variants.find((c) => c.variant === l.variant)
    if (!candidate) {
      problem(
        `item “${l.item}” has no variant “${l.variant}” (it has ${variants.map((c) => c.variant).join(', ')})`,
      )
      continue
    }
    const t = target.get(unit.id, candidate.id) as { id: number } | undefined
    if (!t) {
      const own = variants.find((c) => c.id === unit.candidateId)?.variant ?? '?'
      problem(`unit ${l.unit} of item “${l.item}” is a ${unit.kind} of variant “${own}”, not “${l.variant}”`)
      continue
    }
    answers.push({ targetId: t.id, verdict: l.verdict })
  }
  found.sort((a, b) => a.line - b.line)
  return { answers, problems: found }
}
