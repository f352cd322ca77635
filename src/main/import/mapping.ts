import type { Mapping } from '../../shared/importMapping'
import { FAAF_SCHEMA, type LabelSchema } from '../../shared/labelSchemas'
import { sameName } from '../../shared/personName'
import {
  FACT_LABEL_TEXT,
  LABELS_MATCHING_NO_FACT,
  type LabelMatchingNoFact,
  usualLabelText,
} from '../../shared/releaseFactLabels'
import { RowError } from './errors'
import type {
  NormCandidate,
  NormFact,
  NormItem,
  Row,
  RowConverter,
  UnlabelledFact,
  UnmatchedKey,
} from './normalized'
import { parseLiteral } from './pyLiteral'
import { cellText, matchKey, splitFacts, toVerdict } from './text'

/** Turns a column mapping into a row converter. Presets with a flat layout are built on it. */
export function mappingConverter(
  mapping: Mapping,
  labelSchema: LabelSchema = mapping.labelSchema ?? FAAF_SCHEMA,
  name: RowConverter['name'] = 'mapping',
): RowConverter {
  const firstVariant = mapping.candidates[0]?.variant
  for (const l of [...mapping.labels, ...mapping.gold]) {
    const variant = l.variant ?? firstVariant
    if (!variant || !mapping.candidates.some((c) => c.variant === variant))
      throw new RowError(`column "${l.column}" points at no candidate variant`)
    if (!mapping.wholeUnits)
      throw new RowError(`column "${l.column}" gives verdicts on whole units, so it needs wholeUnits: true`)
  }
  return {
    name,
    labelSchema,
    mapping,
    required: [mapping.reference, ...mapping.candidates.map((c) => c.column)],
    toItem(row: Row): NormItem {
      const candidates: NormCandidate[] = []
      for (const c of mapping.candidates) {
        const text = cellText(row, c.column, true)!
        candidates.push({
          variant: c.variant,
          text,
          units: mapping.wholeUnits ? [{ kind: 'whole', text, labels: [] }] : [],
        })
      }
      for (const l of mapping.labels) {
        const raw = row[l.column]
        if (raw === undefined || raw === null || raw === '') continue
        const verdict = at(l.column, () => toVerdict(labelSchema, raw))
        const variant = l.variant ?? firstVariant
        const cand = candidates.find((c) => c.variant === variant)!
        cand.units[0]!.labels.push({ annotator: l.annotator, verdict })
      }
      for (const g of mapping.gold) {
        const raw = row[g.column]
        if (raw === undefined || raw === null || raw === '') continue
        const cand = candidates.find((c) => c.variant === (g.variant ?? firstVariant))!
        cand.units[0]!.gold = at(g.column, () => toVerdict(labelSchema, raw))
      }
      const facts: NormFact[] = mapping.facts
        ? readFacts(row, mapping.facts).map((text) => ({ text, labels: [] }))
        : []
      const unmatched: UnmatchedKey[] = []
      const unlabelled: UnlabelledFact[] = []
      const spellings: Record<string, string> = {}
      for (const fl of mapping.factLabels) {
        const cell = row[fl.column]
        // An empty cell leaves the whole variant unlabelled, which needs no warning.
        if (cell === undefined || cell === null || cell === '') continue
        const found = attachFactLabels(facts, cell, fl, labelSchema)
        unmatched.push(...found.unmatched)
        unlabelled.push(...found.unlabelled)
        for (const [verdict, text] of found.spellings) spellings[verdict] ??= text
      }
      const metadata: Record<string, unknown> = {}
      for (const col of mapping.metadata) if (row[col] !== undefined) metadata[col] = row[col]
      // Published labels stay with the item as the file wrote them, for an export to give back.
      if (unmatched.length > 0)
        metadata[LABELS_MATCHING_NO_FACT] = unmatched.map(
          (u): LabelMatchingNoFact => ({
            variant: u.variant,
            annotator: u.annotator,
            fact: u.key,
            label: u.label,
          }),
        )
      if (Object.keys(spellings).length > 0) metadata[FACT_LABEL_TEXT] = spellings
      return {
        extId: mapping.id ? cellText(row, mapping.id, true) : null,
        question: mapping.question ? cellText(row, mapping.question, false) : null,
        reference: cellText(row, mapping.reference, true)!,
        metadata,
        candidates,
        facts,
        unmatched,
        unlabelled,
      }
    },
  }
}

/**
 * Why a mapping may not be imported into this workspace, or null: a column whose labels it gives
 * as a person's under the name of a label source here (RefChecker's, WikiEvalFacts'…) would mix
 * someone's verdicts into the dataset's reference labels. Names the preset declares as its own
 * sources are that preset's reference labels, and pass. `sourceNamed` says which source a name
 * points at in the workspace.
 */
export function sourceNamedInMapping(
  mapping: Mapping,
  declaredSources: readonly string[],
  sourceNamed: (name: string) => string | null,
): string | null {
  for (const l of [...mapping.labels, ...mapping.factLabels]) {
    if (declaredSources.some((d) => sameName(d, l.annotator))) continue
    const source = sourceNamed(l.annotator)
    if (source !== null)
      return `The mapping gives column "${l.column}" as the labels of “${l.annotator.trim()}”, but “${source}” is a dataset's reference labels (a label source) in this workspace, not a person: name the person whose labels that column holds. Nothing was imported`
  }
  return null
}

/** A label column of a mapping that names a person this workspace already has. */
export interface PersonColumn {
  column: string
  /** The name as the mapping gives it. */
  named: string
  /** The person here it points at, as the workspace spells her name. */
  person: string
}

/**
 * The mapping's label columns whose annotator is a person here already (`personNamed` finds her,
 * whatever the case or Unicode form the mapping spells her name in, and gives the workspace's
 * spelling). Imported as they are, their verdicts would be filed among that person's own labels,
 * to be shown, counted and overwritten as hers; the import asks for that to be confirmed.
 */
export function peopleNamedInMapping(
  mapping: Mapping,
  personNamed: (name: string) => string | null,
): PersonColumn[] {
  return [...mapping.labels, ...mapping.factLabels].flatMap((l) => {
    const person = personNamed(l.annotator)
    return person === null ? [] : [{ column: l.column, named: l.annotator.trim(), person }]
  })
}

/** Why an unconfirmed mapping naming people here is refused, and how to confirm it. */
export function peopleRefusal(found: readonly PersonColumn[]): string {
  const columns = found.map((f) => `column "${f.column}" as the labels of “${f.named}”`).join(', ')
  const who = [...new Set(found.map((f) => `“${f.person}”`))].join(', ')
  return (
    `The mapping gives ${columns}, and ${who} ${found.length === 1 ? 'is a person' : 'are people'} already in this workspace: ` +
    `the file's labels would be filed among their own. If the file holds their labels, confirm it ` +
    `(“File label columns under the people of those names” in the import dialog, --credit-existing-people on the command line); ` +
    `otherwise give those columns another name. Nothing was imported`
  )
}

/** Facts from a cell: a list as it is (JSON, Parquet), or text split as the mapping says. */
function readFacts(row: Row, source: NonNullable<Mapping['facts']>): string[] {
  return at(source.column, () => {
    const cell = row[source.column]
    if (Array.isArray(cell)) {
      if (!cell.every((f) => typeof f === 'string')) throw new RowError('a list of facts must hold text only')
      return cell.map((f) => f.trim()).filter((f) => f !== '')
    }
    return splitFacts(cellText(row, source.column, false) ?? '', source.split)
  })
}

/** Runs a cell's parse and pins any RowError to that column. */
export function at<T>(column: string, fn: () => T): T {
  try {
    return fn()
  } catch (error) {
    if (error instanceof RowError && error.field === undefined) throw new RowError(error.message, column)
    throw error
  }
}

/**
 * Attaches a `{fact: verdict}` cell to the item's facts. Keys are matched ignoring case,
 * quotes, punctuation and spacing; a key that matches no fact, and a fact that no key gave a
 * verdict, are returned for the report, not passed over silently (a dict missing one fact looks
 * like a complete import otherwise). `spellings` holds the cell's own text of a verdict where it
 * is not the usual one ("Not clear from the given passage").
 */
export function attachFactLabels(
  facts: NormFact[],
  cell: unknown,
  target: { column: string; variant: string; annotator: string },
  schema: LabelSchema,
): { unmatched: UnmatchedKey[]; unlabelled: UnlabelledFact[]; spellings: Map<string, string> } {
  const dict = at(target.column, () => {
    let value: unknown = cell
    if (typeof cell === 'string') {
      try {
        value = parseLiteral(cell)
      } catch (error) {
        throw new RowError(`not a dict of fact labels (${(error as Error).message})`)
      }
    }
    if (typeof value !== 'object' || value === null || Array.isArray(value))
      throw new RowError('not a dict of fact labels')
    return value as Record<string, unknown>
  })
  const byKey = new Map<string, NormFact>()
  for (const f of facts) if (!byKey.has(matchKey(f.text))) byKey.set(matchKey(f.text), f)
  const unmatched: UnmatchedKey[] = []
  const spellings = new Map<string, string>()
  for (const [key, raw] of Object.entries(dict)) {
    const verdict = at(target.column, () => {
      try {
        return toVerdict(schema, raw)
      } catch (error) {
        throw new RowError(`fact "${key.slice(0, 60)}": ${(error as Error).message}`)
      }
    })
    const text = typeof raw === 'string' ? raw : usualLabelText(schema, verdict)
    if (text !== usualLabelText(schema, verdict) && !spellings.has(verdict)) spellings.set(verdict, text)
    const fact = byKey.get(matchKey(key.replace(/^\s*[-–•*]\s+/, '')))
    if (!fact) {
      unmatched.push({
        variant: target.variant,
        column: target.column,
        key,
        annotator: target.annotator,
        label: text,
      })
      continue
    }
    fact.labels = fact.labels.filter(
      (l) => !(l.variant === target.variant && l.annotator === target.annotator),
    )
    fact.labels.push({ variant: target.variant, annotator: target.annotator, verdict })
  }
  const unlabelled = facts
    .filter((f) => !f.labels.some((l) => l.variant === target.variant && l.annotator === target.annotator))
    .map((f) => ({ variant: target.variant, column: target.column, fact: f.text }))
  return { unmatched, unlabelled, spellings }
}
