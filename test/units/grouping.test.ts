import { describe, expect, it } from 'vitest'
import { groupUnits, moved, splitPieces } from '../../src/renderer/src/views/units/grouping'
import type { UnitEntry } from '../../src/shared/contract/units'

const unit = (id: number, kind: UnitEntry['kind'], candidateId: number | null): UnitEntry => ({
  id,
  itemId: 1,
  candidateId,
  kind,
  position: id,
  text: `u${id}`,
  triplet: null,
  origin: 'import',
  version: 1,
  lineageId: id,
  supersededBy: null,
  deletedAt: null,
  labels: 0,
  verdicts: 0,
  locked: false,
  versions: 1,
})

describe('units review lists', () => {
  it('groups facts together and other units per candidate and kind, keeping order', () => {
    const groups = groupUnits([
      unit(1, 'fact', null),
      unit(2, 'fact', null),
      unit(3, 'sentence', 7),
      unit(4, 'sentence', 8),
      unit(5, 'sentence', 7),
    ])
    expect(groups.map((g) => [g.key, g.units.map((u) => u.id)])).toEqual([
      ['fact', [1, 2]],
      ['sentence:7', [3, 5]],
      ['sentence:8', [4]],
    ])
  })

  it('moves a unit one place and refuses to move past either end', () => {
    expect(moved([1, 2, 3], 2, -1)).toEqual([2, 1, 3])
    expect(moved([1, 2, 3], 2, 1)).toEqual([1, 3, 2])
    expect(moved([1, 2, 3], 1, -1)).toBeNull()
    expect(moved([1, 2, 3], 3, 1)).toBeNull()
    expect(moved([1, 2, 3], 9, 1)).toBeNull()
  })

  it('turns each non-blank line into a split piece', () => {
    expect(splitPieces('Ada wrote it.\r\n\n  In 1843. \n')).toEqual(['Ada wrote it.', 'In 1843.'])
  })
})
