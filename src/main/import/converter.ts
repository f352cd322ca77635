import { z } from 'zod'
import { Mapping, mappingColumns, mappingGap, type PresetName } from '../../shared/importMapping'
import { ImportError } from './errors'
import { mappingConverter } from './mapping'
import type { PresetOptions, RowConverter } from './normalized'
import { detectPreset, presetConverter } from './presets'
import type { RefContext } from './presets/nested'

export interface ConverterChoice {
  preset?: PresetName
  mapping?: Mapping | z.input<typeof Mapping>
  presetOptions?: PresetOptions
}

/** Chooses how rows become items: an explicit mapping, a named preset, or the detected preset. */
export function chooseConverter(
  file: string,
  columns: string[],
  opts: ConverterChoice,
  byId?: ReadonlyMap<string, RefContext>,
): RowConverter {
  const listed = columns.length ? columns.map((c) => `"${c}"`).join(', ') : 'none'
  if (opts.mapping) {
    const parsed = Mapping.safeParse(opts.mapping)
    if (!parsed.success)
      throw new ImportError(`The column mapping is invalid: ${z.prettifyError(parsed.error)}`)
    const gap = mappingGap(parsed.data)
    if (gap) throw new ImportError(gap)
    const missing = mappingColumns(parsed.data).filter((c) => !columns.includes(c))
    if (missing.length)
      throw new ImportError(
        `${file}: the mapping names column "${missing[0]}", which the file does not have (its columns: ${listed})`,
      )
    try {
      return mappingConverter(parsed.data)
    } catch (error) {
      throw new ImportError(`The column mapping is invalid: ${(error as Error).message}`)
    }
  }
  const preset = opts.preset ?? detectPreset(columns)
  if (!preset)
    throw new ImportError(
      `${file}: no preset matches its columns (${listed}); choose a preset or give a column mapping`,
    )
  const converter = presetConverter(preset, columns, opts.presetOptions, byId)
  const missing = converter.required.filter((c) => !columns.includes(c))
  if (missing.length)
    throw new ImportError(
      `${file}: missing required column "${missing[0]}" for preset ${preset} (its columns: ${listed})`,
    )
  return converter
}
