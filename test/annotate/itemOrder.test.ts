import { describe, expect, it } from 'vitest'
import { nextUnlabelledInItem, nextVariantWithWork } from '../../src/renderer/src/views/annotate/itemOrder'

// Item with two variants: answer (candidate 1: targets 10, 11, 12) and poor (candidate 2: 20, 21).
const targets = [
  { targetId: 10, candidateId: 1 },
  { targetId: 11, candidateId: 1 },
  { targetId: 12, candidateId: 1 },
  { targetId: 20, candidateId: 2 },
  { targetId: 21, candidateId: 2 },
]
const candidates = [
  { id: 1, variant: 'answer' },
  { id: 2, variant: 'poor_answer' },
]
const done =
  (...ids: number[]) =>
  (id: number) =>
    ids.includes(id)

describe('moving through one item', () => {
  it('Enter finds an unlabelled unit of this item before the focus, or in another variant, before leaving it', () => {
    // On the last unit of a variant with its first unit still open: back to it, same variant.
    expect(nextUnlabelledInItem(targets, done(11, 12), 12, 1)).toEqual({ targetId: 10, candidateId: 1 })
    // This variant done: the next variant with work, then wrapping to an earlier one.
    expect(nextUnlabelledInItem(targets, done(10, 11, 12), 12, 1)).toEqual({ targetId: 20, candidateId: 2 })
    expect(nextUnlabelledInItem(targets, done(11, 12, 20, 21), 21, 2)).toEqual({
      targetId: 10,
      candidateId: 1,
    })
    expect(nextUnlabelledInItem(targets, done(10, 11, 12, 20, 21), 12, 1)).toBeNull()
    // The focused unit itself does not count, even unlabelled.
    expect(nextUnlabelledInItem(targets, done(10, 11, 20, 21), 12, 1)).toBeNull()
  })

  it('a finished variant hands over to the next one with work left, saying how much', () => {
    expect(nextVariantWithWork(candidates, targets, done(10, 11, 12), 1)).toEqual({
      candidateId: 2,
      variant: 'poor_answer',
      left: 2,
      first: 20,
    })
    expect(nextVariantWithWork(candidates, targets, done(10, 11), 1)).toBeNull()
    expect(nextVariantWithWork(candidates, targets, done(10, 11, 12, 20, 21), 1)).toBeNull()
    // Wrapping: finishing the last variant goes back to an earlier one with work.
    expect(nextVariantWithWork(candidates, targets, done(20, 21, 10), 2)).toMatchObject({
      candidateId: 1,
      left: 2,
    })
  })
})
