import { type ReactNode, useState } from 'react'
import type { Chart } from '../../../../shared/charts'
import { chartFileName, pngFromSvg, saveBlob } from './chartFile'

/*
 * The charts are drawn by src/shared/charts as SVG strings, the same strings the reports embed
 * and rasterise, so a chart here and in a report are one picture. The string is built there from
 * escaped values only, which is what makes inserting it as markup safe. It scales with its box
 * through its viewBox; hovering a mark shows its figures through the SVG's own <title>.
 */

/**
 * "Save SVG" / "Save PNG" for one chart: the file is the chart's own SVG (title and legend
 * included), or a PNG drawn from it, named after the dataset and the chart.
 */
export function ChartSave({ chart, dataset }: { chart: Chart; dataset: string }) {
  const [error, setError] = useState<string | null>(null)
  const save = async (ext: 'svg' | 'png') => {
    setError(null)
    try {
      const blob =
        ext === 'svg'
          ? new Blob([chart.svg], { type: 'image/svg+xml' })
          : await pngFromSvg({ text: chart.svg, width: chart.width, height: chart.height })
      saveBlob(blob, chartFileName(dataset, chart.id, ext))
    } catch (e) {
      setError(`Could not save the chart: ${e instanceof Error ? e.message : String(e)}`)
    }
  }
  return (
    <div className="cmp-actions" data-testid={`save-${chart.id}`}>
      {(['svg', 'png'] as const).map((ext) => (
        <button
          key={ext}
          type="button"
          title={`Save “${chart.title}” as ${ext.toUpperCase()}`}
          onClick={() => save(ext)}
        >
          Save {ext.toUpperCase()}
        </button>
      ))}
      {error && <p className="cmp-error">{error}</p>}
    </div>
  )
}

/** One chart with its save buttons (none while it is empty); `caption` is a line under it on screen only. */
export function ChartFigure(props: { chart: Chart; dataset: string; testId: string; caption?: ReactNode }) {
  return (
    <figure className="cmp-figure">
      <div
        className="cmp-chart"
        data-testid={props.testId}
        // biome-ignore lint/security/noDangerouslySetInnerHtml: built by src/shared/charts, which escapes every value
        dangerouslySetInnerHTML={{ __html: props.chart.svg }}
      />
      {props.caption && <p className="cmp-hint">{props.caption}</p>}
      {!props.chart.empty && <ChartSave chart={props.chart} dataset={props.dataset} />}
    </figure>
  )
}
