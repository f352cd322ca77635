import type { LabelSchema } from '../../shared/labelSchemas'
import { countOf } from '../../shared/plural'
import { agreementText, MIN_SHARED_TARGETS, rateNote, withNote } from '../../shared/smallSample'
import type { DatasetAgreement } from '../metrics/agreementService'
import type { ProjectCardFacts } from '../projects/cardFacts'
import type { AgreementSummary } from './agreementSummary'
import type { Feature } from './targetRows'

export interface CardInput {
  datasetName: string
  layout: 'targets' | 'wikievalfacts'
  dataFile: string
  format: 'json' | 'csv' | 'parquet'
  features: readonly Feature[]
  rows: number
  bytes: number
  labelSchema: LabelSchema
  /** `source`: the dataset's own reference labels (a release's rater), not a person. */
  annotators: readonly { name: string; column?: string; labels: number; source?: boolean }[]
  /** Among people only: the release's own labels are never in it. */
  agreement: AgreementSummary
  /**
   * The release's own labels as the Agreement view reads them (each person against them, their
   * agreement among themselves); absent where the dataset has no source with labels.
   */
  release?: Pick<DatasetAgreement, 'sourcePairs' | 'amongSources' | 'minSharedTargets'>
  /** Where the gold (or exported labels) come from, for the wikievalfacts layout. */
  labelSource: string
  /** The dataset's gold rule in words (describeGoldRule): how gold is made where nobody adjudicated. */
  goldRule: string
  exportedAt: string
  /** How the labels were made, when the dataset is an annotation project. */
  project?: ProjectCardFacts | null
  /** The one annotator whose labels the file holds (`--annotator`), if only one. */
  only?: string
}

/** Hugging Face's size buckets. */
export function sizeCategory(n: number): string {
  const bounds: [number, string][] = [
    [1e3, 'n<1K'],
    [1e4, '1K<n<10K'],
    [1e5, '10K<n<100K'],
    [1e6, '100K<n<1M'],
    [1e7, '1M<n<10M'],
    [1e8, '10M<n<100M'],
    [1e9, '100M<n<1B'],
  ]
  for (const [limit, name] of bounds) if (n < limit) return name
  return 'n>1B'
}

// Double-quoted JSON strings are valid YAML scalars, which spares us every YAML quoting rule.
const q = (s: string) => JSON.stringify(s)

function yamlHeader(c: CardInput): string {
  const lines = [
    '---',
    'license: other',
    `pretty_name: ${q(c.datasetName)}`,
    'size_categories:',
    `- ${q(sizeCategory(c.rows))}`,
    'tags:',
    '- factlab',
    `- ${q(c.layout)}`,
    'configs:',
    '- config_name: default',
    '  data_files:',
    '  - split: train',
    `    path: ${q(c.dataFile)}`,
    'dataset_info:',
    '  features:',
  ]
  for (const f of c.features) lines.push(`  - name: ${q(f.name)}`, `    dtype: ${f.dtype}`)
  lines.push(
    '  splits:',
    '  - name: train',
    `    num_bytes: ${c.bytes}`,
    `    num_examples: ${c.rows}`,
    `  download_size: ${c.bytes}`,
    `  dataset_size: ${c.bytes}`,
    '---',
  )
  return lines.join('\n')
}

const pct = (x: number | null) => (x === null ? 'n/a' : `${(x * 100).toFixed(1)}%`)
const num = (x: number | null) => (x === null ? 'n/a' : x.toFixed(3))
const cell = (s: string) => s.replace(/\|/g, '\\|').replace(/\r?\n/g, ' ')

function schemaSection(schema: LabelSchema): string[] {
  if (schema.type === 'numeric')
    return [
      `Numeric scores from ${schema.min} to ${schema.max} (step ${schema.step}).`,
      `Scores of ${schema.threshold} or more count as **supported**, lower scores as **unsupported**.`,
    ]
  return [
    `Schema \`${schema.name}\`: each verdict and the binary outcome it counts as in error-rate metrics.`,
    '',
    '| verdict | binary |',
    '| --- | --- |',
    ...schema.values.map((v) => `| \`${cell(v)}\` | ${schema.binary[v] ?? 'unmapped'} |`),
  ]
}

function projectSection(p: ProjectCardFacts | null): string[] {
  if (!p) return []
  return [
    '## Annotation project',
    '',
    p.planned
      ? `- overlap: k = ${p.k} distinct annotators per target; assignment: ${p.policy}${p.policy === 'fixed' ? ` (items split among named annotators from seed ${p.seed})` : ' (each annotator took the next target with the fewest labels)'}`
      : '- no overlap plan was set: every annotator could label every target',
    `- guidelines version: ${p.guidelinesVersion === null ? 'none written' : p.guidelinesVersion} (each label records the version it was given under)`,
    `- control items: ${p.controls} (targets with a known answer, mixed unmarked into the queue; left out of the agreement figures)`,
    ...(p.controlAccuracy.length === 0
      ? []
      : [
          '',
          'Accuracy on control items (95% Wilson interval):',
          '',
          '| annotator | answered | correct | accuracy | interval |',
          '| --- | --- | --- | --- | --- |',
          ...p.controlAccuracy.map(
            (a) =>
              `| ${cell(a.name)} | ${a.answered} | ${a.correct} | ${controlAccuracyText(a.answered, a.correct)} | ${pct(a.low)}–${pct(a.high)} |`,
          ),
        ]),
    '',
  ]
}

/**
 * A coefficient (or percent agreement, with `format` pct) with the small-sample mark the
 * Agreement view and the reports give it.
 */
function mark(x: number | null, n: number, min: number, format: (x: number | null) => string = num): string {
  return agreementText(format(x), n, min)
}

/** A person's accuracy on controls, marked over too few answers as every other rate is. */
function controlAccuracyText(answered: number, correct: number): string {
  if (answered === 0) return pct(null)
  return withNote(pct(correct / answered), rateNote(answered))
}

/**
 * The release's own labels, apart from the people's figures: each person against them, then
 * the release's annotators among themselves (what the benchmark's paper reports).
 */
function releaseSection(r: NonNullable<CardInput['release']>, alphaLevel: 'nominal' | 'interval'): string[] {
  const min = r.minSharedTargets
  const row = (p: DatasetAgreement['sourcePairs'][number]) =>
    `| ${cell(p.a)} | ${cell(p.b)} | ${p.n} | ${mark(p.kappa, p.n, min)} | ${mark(p.ac1, p.n, min)} | ${mark(p.pabak, p.n, min)} |`
  const personPairs = r.sourcePairs.filter((p) => p.kind === 'person-source' && p.n > 0)
  const sourcePairs = r.sourcePairs.filter((p) => p.kind === 'sources' && p.n > 0)
  const among = r.amongSources
  return [
    '### The release’s own labels (not counted above)',
    '',
    ...(personPairs.length === 0
      ? ['No person shares a target with the release’s labels.', '']
      : [
          'Each person against the release’s labels:',
          '',
          '| person | release’s labels | shared targets | κ | AC1 | PABAK |',
          '| --- | --- | --- | --- | --- | --- |',
          ...personPairs.map(row),
          '',
        ]),
    ...(among === null
      ? []
      : [
          `Agreement among the release’s annotators (${among.names.map(cell).join(', ')}), measured on the ${countOf(among.n, 'target')} that at least two of them labelled; no person’s label is in it:`,
          '',
          `- percent agreement: ${agreementText(`${pct(among.percent)}${among.percentCi ? ` (95% Wilson interval ${pct(among.percentCi[0])}–${pct(among.percentCi[1])})` : ''}`, among.n, min)}`,
          `- Fleiss' κ: ${mark(among.fleissKappa, among.n, min)}`,
          `- Krippendorff's α (${alphaLevel}): ${mark(among.krippendorffAlpha, among.n, min)}`,
          ...(among.ac1 === null && among.pabak === null
            ? []
            : [
                `- Gwet's AC1: ${mark(among.ac1, among.n, min)}`,
                `- PABAK: ${mark(among.pabak, among.n, min)}`,
              ]),
          ...(sourcePairs.length === 0
            ? []
            : [
                '',
                'The release’s annotators against each other:',
                '',
                '| release’s annotator | release’s annotator | shared targets | κ | AC1 | PABAK |',
                '| --- | --- | --- | --- | --- | --- |',
                ...sourcePairs.map(row),
              ]),
          '',
        ]),
  ]
}

/** README.md with a Hugging Face dataset-card header and a body a reviewer can read. */
export function buildCard(c: CardInput): string {
  const body = [
    '',
    `# ${c.datasetName}`,
    '',
    `Exported from FactLab on ${c.exportedAt} in the **${c.layout}** layout ` +
      `(${countOf(c.rows, 'row')}, file \`${c.dataFile}\`, ${c.format}).`,
    '',
    c.layout === 'targets'
      ? 'Each row is one *target*: a unit (fact, triplet, sentence or whole answer) together with the ' +
        'candidate it is judged in, plus every annotator’s verdict and the gold verdict.'
      : 'Each row is one question with its answer variants, the facts drawn from the reference ' +
        '(`gt_facts`, one "- " line per fact) and, per variant, a Python dict literal mapping each ' +
        'fact to its human label (`human_evaluated_facts_<variant>`).',
    '',
    ...(c.layout === 'wikievalfacts'
      ? [
          'This layout holds **one label per fact and answer**, as the published WikiEvalFacts does: ' +
            'imported back, those labels come under a single name (`wikievalfacts`), not each ' +
            'annotator’s. Every annotator’s labels, the adjudicated decisions and the control items ' +
            'travel in the targets layout (`jsonl`, `csv` or `parquet`), which FactLab imports back whole.',
          '',
        ]
      : [
          `FactLab imports this file back as it was: items, answers, units, ${c.only === undefined ? 'each annotator’s labels under their name' : `the labels of ${c.only}`}, ` +
            'adjudicated and imported gold, the control items, the guidelines (every version) and the ' +
            'plan (`factlab import <file>`; the ' +
            'columns name the layout).',
          '',
        ]),
    '## Columns',
    '',
    '| column | type | meaning |',
    '| --- | --- | --- |',
    ...c.features.map((f) => `| \`${cell(f.name)}\` | ${f.dtype} | ${cell(f.description)} |`),
    '',
    '## Label schema',
    '',
    ...schemaSection(c.labelSchema),
    '',
    `Labels in this export: ${c.labelSource}.`,
    '',
    `Gold rule (where nobody adjudicated): ${c.goldRule}. Adjudicated and imported gold always wins.`,
    '',
    '## Annotators',
    '',
    ...(c.annotators.length === 0
      ? ['No labels yet.']
      : [
          '| annotator | column | labels |',
          '| --- | --- | --- |',
          ...c.annotators.map(
            (a) =>
              `| ${cell(a.name)}${a.source ? ' (the release’s labels)' : ''} | ${a.column ? `\`${a.column}\`` : '—'} | ${a.labels} |`,
          ),
        ]),
    ...(c.annotators.some((a) => a.source)
      ? [
          '',
          'Names marked “the release’s labels” are the labels the dataset came with (its published ' +
            'annotators), not people who labelled it in FactLab.',
        ]
      : []),
    '',
    ...projectSection(c.project ?? null),
    '## Agreement',
    '',
    ...(c.release && c.agreement.sharedTargets === 0
      ? ['No target has labels from two people, so there is no agreement among people to give.']
      : [
          `Measured on the ${countOf(c.agreement.sharedTargets, 'target')} that at least two people labelled` +
            // The same figures as the Agreement view, which leaves control items out unless asked.
            (c.release ? ', the release’s own labels not counted' : '') +
            (c.project?.controls ? ' (control items left out).' : '.'),
          '',
          `- percent agreement (mean over targets of agreeing pairs of people): ${mark(c.agreement.percentAgreement, c.agreement.sharedTargets, MIN_SHARED_TARGETS, pct)}`,
          `- Fleiss' κ: ${mark(c.agreement.fleissKappa, c.agreement.sharedTargets, MIN_SHARED_TARGETS)}`,
        ]),
    ...(c.agreement.pairs.length === 0
      ? []
      : [
          '',
          "Cohen's κ per pair of people:",
          '',
          '| people | shared targets | κ |',
          '| --- | --- | --- |',
          // Marked as the Agreement view, the reports and the release table below mark them.
          ...c.agreement.pairs.map(
            (p) =>
              `| ${cell(p.a)} / ${cell(p.b)} | ${p.shared} | ${mark(p.kappa, p.shared, MIN_SHARED_TARGETS)} |`,
          ),
        ]),
    '',
    ...(c.release
      ? releaseSection(c.release, c.labelSchema.type === 'numeric' ? 'interval' : 'nominal')
      : []),
    '## License',
    '',
    'Set by the dataset owner; the source data’s own license applies.',
    '',
  ]
  return `${yamlHeader(c)}\n${body.join('\n')}`
}
