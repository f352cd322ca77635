interface Props {
  label: string
  /** Position as a percentage, for assistive technology. */
  value: number
  /** Called with the pointer's x while dragging. */
  onDrag(clientX: number): void
  onKeyStep(delta: number): void
}

/** A vertical drag handle between two columns; arrow keys move it too. */
export function Splitter({ label, value, onDrag, onKeyStep }: Props) {
  return (
    // biome-ignore lint/a11y/useSemanticElements: a draggable separator has no native element
    <div
      className="splitter"
      role="separator"
      aria-orientation="vertical"
      aria-label={label}
      aria-valuenow={Math.round(value)}
      aria-valuemin={0}
      aria-valuemax={100}
      tabIndex={0}
      onPointerDown={(e) => {
        e.preventDefault()
        const el = e.currentTarget
        el.setPointerCapture(e.pointerId)
        const move = (ev: PointerEvent) => onDrag(ev.clientX)
        const up = () => {
          el.removeEventListener('pointermove', move)
          el.removeEventListener('pointerup', up)
        }
        el.addEventListener('pointermove', move)
        el.addEventListener('pointerup', up)
      }}
      onKeyDown={(e) => {
        if (e.key === 'ArrowLeft' || e.key === 'ArrowRight') {
          e.preventDefault()
          e.stopPropagation()
          onKeyStep(e.key === 'ArrowLeft' ? -1 : 1)
        }
      }}
    />
  )
}
