/**
 * A fresh id for one label given (annotate.save's `saveId`). Resends of that label carry the same
 * id, so a save that landed but whose answer was lost is not stored twice. getRandomValues works
 * on any page, secure context or not.
 */
export function newSaveId(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16))
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('')
}
