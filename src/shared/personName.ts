/**
 * When two spellings name the same person. "Ana" and "ana", or "Zoë" typed (NFC) and "Zoë" pasted
 * from a file that decomposes the ë (NFD), look alike to everyone who reads them: an import that
 * made two people of them would split one annotator's labels in two. Every place that matches a
 * name a file gives against the workspace's people, or against the file's other names, compares
 * these keys; the name kept and shown is the one first seen.
 */
export function nameKey(name: string): string {
  return name.trim().normalize('NFC').toLowerCase().normalize('NFC')
}

/** Whether two spellings name the same person. */
export function sameName(a: string, b: string): boolean {
  return nameKey(a) === nameKey(b)
}
