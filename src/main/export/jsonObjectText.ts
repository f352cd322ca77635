/**
 * A JSON object {annotator name: value} of one target, written as text as members are added:
 * the same text JSON.stringify gives for the object filled in that order, without building
 * the object. Names that look like array indexes, which an object would list first, take the
 * object path.
 */
export class JsonObjectText {
  private readonly keys: string[]
  private readonly viaObject: boolean
  private body: string | null = null
  private object: Record<string, string | number> | null = null

  constructor(private readonly names: readonly string[]) {
    this.keys = names.map((n) => `${JSON.stringify(n)}:`)
    this.viaObject = names.some((n) => /^(?:0|[1-9]\d*)$/.test(n) && Number(n) < 2 ** 32 - 1)
  }

  reset(): void {
    this.body = null
    this.object = null
  }

  add(column: number, value: string | number): void {
    if (this.viaObject) {
      this.object ??= {}
      this.object[this.names[column]!] = value
      return
    }
    const json =
      typeof value === 'string' ? JSON.stringify(value) : Number.isFinite(value) ? String(value) : 'null'
    this.body = `${this.body === null ? '{' : `${this.body},`}${this.keys[column]!}${json}`
  }

  text(): string | null {
    if (this.viaObject) return this.object ? JSON.stringify(this.object) : null
    return this.body === null ? null : `${this.body}}`
  }
}
