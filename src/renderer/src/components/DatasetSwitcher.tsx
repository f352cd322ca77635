/**
 * The sidebar's dataset card: it names the dataset every view works on, and switches it. The
 * view stays the same (Annotate stays Annotate) on the other dataset.
 */
export function DatasetSwitcher(props: {
  datasets: { id: number; name: string }[]
  current: { id: number; name: string }
  onSwitch(id: number): void
}) {
  return (
    <label className="sidebar-dataset" title={props.current.name}>
      <span className="eyebrow">Dataset</span>
      <select
        className="sidebar-dataset-name"
        aria-label="Current dataset"
        value={props.current.id}
        onChange={(e) => props.onSwitch(Number(e.target.value))}
      >
        {props.datasets.map((d) => (
          <option key={d.id} value={d.id}>
            {d.name}
          </option>
        ))}
      </select>
    </label>
  )
}
