import DOMPurify from 'dompurify'
import { Marked } from 'marked'
import { isActiveHtml } from '../../../../shared/guidelinesCheck'

const escapeHtml = (s: string) =>
  s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;')

/**
 * Raw HTML that guidelines may not hold is shown as text: the editor refuses it anyway, and
 * Chromium reports an event handler even in the inert document DOMPurify parses (a console
 * error per keystroke, although nothing runs).
 */
const marked = new Marked({
  async: false,
  gfm: true,
  renderer: {
    html: ({ text }) => (isActiveHtml(text) ? escapeHtml(text) : text),
  },
})

/** Images may come only from the page itself or inline data: nothing fetched from elsewhere. */
const LOCAL_IMAGE = /^(data:image\/|blob:)/i

/**
 * Guidelines Markdown → safe HTML: marked renders, DOMPurify removes scripts, event handlers and
 * anything active, and a hook drops remote images (they would tell a server who reads the
 * guidelines, and when). Returns how many images were left out so the panel can say so.
 */
export function renderGuidelines(markdown: string): { html: string; droppedImages: number } {
  let droppedImages = 0
  const raw = marked.parse(markdown) as string
  DOMPurify.addHook('uponSanitizeElement', (node, data) => {
    if (data.tagName !== 'img') return
    const src = (node as Element).getAttribute('src') ?? ''
    if (!LOCAL_IMAGE.test(src)) {
      droppedImages++
      node.parentNode?.removeChild(node)
    }
  })
  try {
    const html = DOMPurify.sanitize(raw, {
      FORBID_TAGS: ['style', 'form', 'input', 'button', 'iframe', 'object', 'embed'],
      FORBID_ATTR: ['style'],
    })
    return { html, droppedImages }
  } finally {
    DOMPurify.removeHook('uponSanitizeElement')
  }
}
