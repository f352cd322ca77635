import type { ExtrasKey, PartExtras, ReadExtras } from './blockExtras'

/** One stored block's packed columns, laid over its (aligned) bytes. */
export interface BlockPart {
  base: number
  n: number
  /** Whether every label of the block lies inside the range read. */
  whole: boolean
  offset: Uint16Array
  annotator: Int32Array
  /** index into the block's own verdicts */
  verdict: Uint32Array
  /** the block's verdicts as indexes into the read's `verdicts` */
  codes: Int32Array
  /** Read from the block's extras when first asked for (blockExtras.ts). */
  readonly seconds: Float64Array
  readonly time: Float64Array | null
}

/** A part whose seconds and times come from its extras, found when first asked for. */
export class StoredPart implements BlockPart {
  private own: PartExtras | null

  constructor(
    readonly base: number,
    readonly n: number,
    readonly whole: boolean,
    readonly offset: Uint16Array,
    readonly annotator: Int32Array,
    readonly verdict: Uint32Array,
    readonly codes: Int32Array,
    private readonly key: ExtrasKey,
    own: PartExtras | undefined,
    private readonly extras: ReadExtras,
  ) {
    this.own = own ?? null
    if (!own) extras.wait(key)
  }

  get seconds(): Float64Array {
    this.own ??= this.extras.of(this.key)
    return this.own.seconds
  }

  get time(): Float64Array | null {
    if (!this.key.times) return null
    this.own ??= this.extras.of(this.key)
    return this.own.time
  }
}
