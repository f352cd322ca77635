import { useMemo } from 'react'
import { countOf } from '../../../../shared/plural'
import { renderGuidelines } from './markdown'

/** Guidelines as a reader sees them: rendered, sanitised, remote images left out (and said so). */
export function GuidelinesText({ body }: { body: string }) {
  const { html, droppedImages } = useMemo(() => renderGuidelines(body), [body])
  return (
    <div className="guidelines-text">
      {/* biome-ignore lint/security/noDangerouslySetInnerHtml: sanitised by DOMPurify in renderGuidelines */}
      <div dangerouslySetInnerHTML={{ __html: html }} />
      {droppedImages > 0 && (
        <p className="muted">{countOf(droppedImages, 'image')} from other sites not shown.</p>
      )}
    </div>
  )
}
