import { z } from 'zod'
import { Unit, UnitKind } from '../domain'
import { type CallDef, call } from './define'
import { Viewer } from './viewer'

const Id = z.number().int().positive()

/** A unit as the review list shows it: how many labels and verdicts refer to it. */
export const UnitEntry = Unit.extend({
  /** Current, non-cleared labels on this unit's targets. */
  labels: z.number().int(),
  /** Judge verdicts on this unit's targets. */
  verdicts: z.number().int(),
  /** True when an edit will make a new version instead of rewriting the text. */
  locked: z.boolean(),
  /** How many versions the unit's lineage has (1 = never edited after labelling). */
  versions: z.number().int(),
})
export type UnitEntry = z.infer<typeof UnitEntry>

export const UnitsPage = z.object({
  total: z.number().int(),
  /** 0-based place of this item in the dataset. */
  index: z.number().int(),
  prevItemId: z.number().int().nullable(),
  nextItemId: z.number().int().nullable(),
  item: z
    .object({
      id: z.number().int(),
      extId: z.string(),
      question: z.string().nullable(),
      reference: z.string(),
    })
    .nullable(),
  candidates: z.array(z.object({ id: z.number().int(), variant: z.string(), text: z.string() })),
  /** Current units: facts first, then each candidate's units, each list in order. */
  units: z.array(UnitEntry),
  /** Deleted units of this item that can be restored. */
  deleted: z.array(UnitEntry),
})
export type UnitsPage = z.infer<typeof UnitsPage>

export const UnitVersion = z.object({
  unit: Unit,
  labels: z.array(
    z.object({
      annotator: z.string(),
      variant: z.string(),
      verdict: z.string().nullable(),
      note: z.string().nullable(),
      updatedAt: z.string(),
    }),
  ),
  /** Others' labels kept from the viewer while blind (they show once the viewer labels the unit). */
  hiddenLabels: z.number().int(),
  verdicts: z.number().int(),
})
export type UnitVersion = z.infer<typeof UnitVersion>

const EditOutput = z.object({ unit: Unit, versioned: z.boolean() })

export const TRIPLET_PARTS = ['subject', 'predicate', 'object'] as const

const part = (name: (typeof TRIPLET_PARTS)[number]) =>
  z
    .string()
    .trim()
    .min(1, { error: `The ${name} of a triplet cannot be empty` })

/** A triplet as a person types it: each part is trimmed, and none may be left blank. */
export const TripletFields = z.tuple([part('subject'), part('predicate'), part('object')])

const TEXT_OR_TRIPLET = {
  error: 'Give the text, or for a triplet its subject, predicate and object',
} as const

/** Calls of the units area. Names read `units.verb`. */
export const unitsCalls = {
  /** One item with its units; by id, or by 0-based index in the dataset (default the first). */
  'units.list': call(
    z.object({ datasetId: Id, itemId: Id.optional(), index: z.number().int().nonnegative().optional() }),
    UnitsPage,
  ),
  /**
   * A triplet given for a triplet unit decides its text (the parts read as a phrase); `text` is
   * then not needed and not used. `triplet: null` turns a triplet into free text on purpose.
   */
  'units.edit': call(
    z
      .object({ unitId: Id, text: z.string().optional(), triplet: TripletFields.nullable().optional() })
      .refine((i) => i.text !== undefined || i.triplet, TEXT_OR_TRIPLET),
    EditOutput,
  ),
  'units.add': call(
    z
      .object({
        itemId: Id,
        kind: UnitKind,
        text: z.string().optional(),
        candidateId: Id.nullable().optional(),
        triplet: TripletFields.nullable().optional(),
        afterUnitId: Id.nullable().optional(),
      })
      .refine((i) => i.text !== undefined || i.triplet, TEXT_OR_TRIPLET),
    Unit,
  ),
  'units.delete': call(z.object({ unitId: Id }), Unit),
  'units.restore': call(z.object({ unitId: Id }), Unit),
  /** Texts split a fact, sentence or whole unit; a triplet with parts splits into triplets. */
  'units.split': call(
    z
      .object({
        unitId: Id,
        texts: z.array(z.string()).min(2).optional(),
        triplets: z.array(TripletFields).min(2).optional(),
      })
      .refine((i) => (i.texts === undefined) !== (i.triplets === undefined), {
        error: 'Give either the texts or the triplets of the pieces',
      }),
    z.array(Unit),
  ),
  /** Triplets are refused: two claims do not make one (subject, predicate, object). */
  'units.merge': call(z.object({ unitIds: z.array(Id).min(2), text: z.string().optional() }), EditOutput),
  'units.reorder': call(
    z.object({
      itemId: Id,
      kind: UnitKind,
      candidateId: Id.nullable(),
      orderedIds: z.array(Id),
    }),
    z.array(Unit),
  ),
  /** While blind (`viewer`), other annotators' labels stay out. */
  'units.versions': call(z.object({ lineageId: Id, viewer: Viewer.optional() }), z.array(UnitVersion)),
  /** Deterministic sentence units for one candidate, or for every candidate of a dataset. */
  'units.splitSentences': call(
    z.union([z.object({ candidateId: Id }), z.object({ datasetId: Id, variant: z.string().optional() })]),
    z.object({ candidates: z.number().int(), units: z.number().int() }),
  ),
} satisfies Record<string, CallDef>
