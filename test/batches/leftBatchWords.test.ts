import { expect, it } from 'vitest'
import { leftBatchWords } from '../../src/main/batches/leave'

// What `judge resume --mode sync` and the Judges view say after leaving batch mode: real plurals.
it('counts the requests a left batch held in the singular and the plural', () => {
  expect(leftBatchWords([{ name: 'msgbatch_1', waiting: 1, how: 'cancelled' }])).toBe(
    'cancelled msgbatch_1 with 1 request waiting; whatever was answered before is kept, and the 1 request left goes call by call',
  )
  expect(
    leftBatchWords([
      { name: 'msgbatch_1', waiting: 3, how: 'cancelled' },
      { name: 'batch 7', waiting: 1, how: 'never sent' },
      { name: 'msgbatch_2', waiting: 0, how: 'already ended' },
    ]),
  ).toBe(
    'cancelled msgbatch_1 with 3 requests waiting; batch 7 was never sent (1 request); msgbatch_2 had already ended; whatever was answered before is kept, and the 4 requests left go call by call',
  )
  expect(leftBatchWords([{ name: 'msgbatch_2', waiting: 0, how: 'already ended' }])).toBe(
    'msgbatch_2 had already ended; whatever was answered before is kept, and no request was left waiting',
  )
})
