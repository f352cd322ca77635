/**
 * When the page drew the gate's first name, in the page's own clock. Playwright's wait for an
 * element asks again after 20, 50, 100, 100 and then every 500 ms, so the moment it returns says
 * when it last looked, not when the gate appeared: the same page measured 0.87 s and 1.02 s
 * depending on which look caught it. This script runs in the page before its own (an init
 * script), watches the DOM for an open dialog titled `dialog` holding a button named `name`, and
 * keeps the time of the animation frame that first draws it as `window.__gateDrawn`.
 */
export function gateMarkScript(dialog: string, name: string): string {
  return `(() => {
    const dialog = ${JSON.stringify(dialog)}, name = ${JSON.stringify(name)}
    // A button's name as a screen reader hears it here: its text without aria-hidden parts.
    const spoken = (el) => [...el.childNodes]
      .filter((n) => !(n.nodeType === 1 && n.getAttribute('aria-hidden') === 'true'))
      .map((n) => n.textContent).join('').trim()
    const found = () => [...document.querySelectorAll('dialog[open]')].some((d) => {
      const by = d.getAttribute('aria-labelledby')
      const title = by ? document.getElementById(by)?.textContent : d.getAttribute('aria-label')
      return title?.trim() === dialog && [...d.querySelectorAll('button')].some((b) => spoken(b) === name)
    })
    const watch = new MutationObserver(() => {
      if (!found()) return
      watch.disconnect()
      window.__gateInDom = performance.now()
      requestAnimationFrame(() => { window.__gateDrawn = performance.now() })
    })
    watch.observe(document, { subtree: true, childList: true, attributes: true, characterData: true })
  })()`
}
