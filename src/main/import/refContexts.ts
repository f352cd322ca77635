import { ImportError } from './errors'
import { type RefContext, refContext } from './presets/nested'
import { openRows, placeText } from './sources'

/** Reads RefChecker's second file whole: one question and reference per id (small by nature). */
export async function loadContexts(file: string): Promise<Map<string, RefContext>> {
  const source = await openRows(file)
  const out = new Map<string, RefContext>()
  for await (const ev of source.events) {
    if (ev.kind === 'header') continue
    const where = `${file}, ${placeText(source.unit, ev.line, ev.kind === 'bad' ? ev.column : undefined)}`
    if (ev.kind === 'bad') throw new ImportError(`${where}: ${ev.error}`)
    const id = ev.row.id
    if (typeof id !== 'string' && typeof id !== 'number')
      throw new ImportError(`${where}: field "id": missing`)
    const ctx = refContext(ev.row)
    if (ctx.reference === null) throw new ImportError(`${where}: field "reference": missing`)
    if (out.has(String(id))) throw new ImportError(`${where}: field "id": duplicate id "${id}"`)
    out.set(String(id), { question: ctx.question, reference: ctx.reference })
  }
  return out
}
