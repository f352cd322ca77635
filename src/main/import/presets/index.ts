import type { PresetName } from '../../../shared/importMapping'
import type { PresetOptions, RowConverter } from '../normalized'
import { detectFactlab, factlabConverter } from './factlab'
import { findColumn, mrpc, msrpar, paws, qqp, wikieval, wikievalfacts } from './flat'
import { qags, type RefContext, refchecker, summeval } from './nested'

interface PresetEntry {
  detect(columns: readonly string[]): boolean
  build(
    columns: readonly string[],
    options: PresetOptions,
    byId?: ReadonlyMap<string, RefContext>,
  ): RowConverter
}

/** In detection order: the more specific layout first (WikiEvalFacts is WikiEval plus columns). */
const PRESETS: [PresetName, PresetEntry][] = [
  ['factlab', { detect: detectFactlab, build: factlabConverter }],
  ['wikievalfacts', wikievalfacts],
  ['wikieval', wikieval],
  [
    'refchecker',
    {
      detect: (cols) =>
        cols.includes('id') && cols.includes('response') && cols.some((c) => c.endsWith('_response_kg')),
      build: (cols, _o, byId) => refchecker(cols, byId),
    },
  ],
  [
    'qags',
    {
      detect: (cols) => !!findColumn(cols, 'article') && cols.includes('summary_sentences'),
      build: (cols) => qags(cols),
    },
  ],
  [
    'summeval',
    {
      detect: (cols) =>
        !!findColumn(cols, 'text', 'article') &&
        !!findColumn(cols, 'decoded', 'summary') &&
        !!findColumn(cols, 'expert_annotations', 'turker_annotations', 'crowd_annotations'),
      build: (cols, options) => summeval(cols, options),
    },
  ],
  ['mrpc', mrpc],
  ['qqp', qqp],
  ['msrpar', msrpar],
  ['paws', paws],
]

/** The preset whose layout these columns match, or null when none does. */
export function detectPreset(columns: readonly string[]): PresetName | null {
  return PRESETS.find(([, p]) => p.detect(columns))?.[0] ?? null
}

export function presetConverter(
  name: PresetName,
  columns: readonly string[],
  options: PresetOptions = {},
  byId?: ReadonlyMap<string, RefContext>,
): RowConverter {
  const entry = PRESETS.find(([n]) => n === name)![1]
  return entry.build(columns, options, byId)
}
