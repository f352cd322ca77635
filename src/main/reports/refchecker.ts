import type { DatasetMetrics } from '../../shared/contract/metrics'
import type { RefFigures } from '../../shared/contract/refchecker'
import { responsesWords } from '../../shared/refcheckerExtractors'
import { REFCHECKER_NA_WORDS } from '../../shared/refcheckerNa'
import { NOT_DEFINED, num, pct } from './format'
import { rateCi } from './smallSample'

/** A report table (the shape tables.ts renders; declared here so the two files do not import each other). */
interface Table {
  title: string
  note?: string
  head: string[]
  rows: string[][]
}

const dist = (d: RefFigures['macro']) =>
  d ? `${pct(d.entailment)} / ${pct(d.neutral)} / ${pct(d.contradiction)}` : NOT_DEFINED

/** `variants`: for an overall row, the variants it pools (its count then names extractors apart). */
function row(name: string, f: RefFigures, variants: readonly string[] = []): string[] {
  return [
    name,
    responsesWords(f.responses, variants),
    `${f.abstentions} (${pct(f.abstentionRate)})`,
    String(f.judged),
    String(f.triplets),
    dist(f.macro),
    dist(f.micro),
    rateCi(f.hallucinationRate, f.hallucinationCi, f.hallucinationCiMethod),
    `${f.strict.entailment} / ${f.strict.neutral} / ${f.strict.contradiction}`,
  ]
}

/** The report tables: humans and each checker overall, then per variant, then checker error rates. */
export function refcheckerTables(m: DatasetMetrics): Table[] {
  const e = m.refcheckerEval
  if (!e) return []
  const head = [
    'Source',
    'Responses',
    'Abstained',
    'Judged',
    'Triplets',
    'Macro E / N / C',
    'Micro E / N / C',
    'Hallucinated responses [95% CI]',
    'Strict label E / N / C',
  ]
  const note =
    'Abstentions (responses with no triplets) are counted and left out of every other figure, as RefChecker does. Macro: shares per response, averaged over responses; micro: shares of all triplets. A response is hallucinated when one of its triplets is a contradiction; its strict label is contradiction if any, else neutral if any, else entailment. Intervals: bootstrap over responses, or Wilson’s over the counted responses (triplets), marked (Wilson), where that is the wider, where the share is 0 or 1, or where the bootstrap would reach 0% with a contradiction observed.'
  const naNote = `Checker N/A (a label that could not be read): ${REFCHECKER_NA_WORDS[e.naRule]}; ${e.judges.map((j) => `${j.label} ${j.naTriplets}`).join(', ') || 'no checker runs'}.`
  const tables: Table[] = [
    {
      title: 'RefChecker evaluation',
      note: `${note} ${naNote}`,
      head,
      rows: [
        row('human labels', e.human, Object.keys(e.human.byVariant)),
        ...e.judges.map((j) => row(j.label, j, Object.keys(j.byVariant))),
      ],
    },
    {
      title: 'RefChecker evaluation by variant',
      head: ['Variant', ...head],
      rows: Object.keys(e.human.byVariant).flatMap((v) => [
        [v, ...row('human labels', e.human.byVariant[v]!)],
        ...e.judges.flatMap((j) => (j.byVariant[v] ? [[v, ...row(j.label, j.byVariant[v]!)]] : [])),
      ]),
    },
  ]
  if (e.judges.length > 0)
    tables.push({
      title: 'RefChecker checkers against the human labels (per triplet, three-way)',
      note: 'Accuracy and macro-F1 are three-way (entailment / neutral / contradiction), as the RefChecker paper scores checkers; macro-F1 averages the F1 of the classes either side used.',
      head: ['Checker', 'Triplets compared', 'Error rate [95% CI]', 'Accuracy', 'Macro-F1', 'F1 E / N / C'],
      rows: e.judges.map((j) => [
        j.label,
        String(j.tripletsCompared),
        rateCi(j.tripletErrorRate, j.tripletErrorCi, j.tripletErrorCiMethod),
        pct(j.tripletAccuracy),
        num(j.tripletMacroF1),
        j.tripletF1 === null
          ? NOT_DEFINED
          : [j.tripletF1.entailment, j.tripletF1.neutral, j.tripletF1.contradiction].map(num).join(' / '),
      ]),
    })
  return tables
}
