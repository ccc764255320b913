// Clipping and wrapping text for notes, notices, toasts and logs, and any thrown value as text.

/** Keeps the end of a text, where it meets what follows: "…the last words". */
export function clipStart(text: string, max: number): string {
  const flat = text.replace(/\s+/g, " ").trim()
  return flat.length > max ? `…${flat.slice(flat.length - max + 1)}` : flat
}

export function clip(text: string, max: number): string {
  const flat = text.replace(/\s+/g, " ").trim()
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat
}

/**
 * Wraps text at `width` columns, the first line after `lead` and the others after `indent`: opencode shows a
 * user message as written (the report breaks its own lines), and word-wraps a toast.
 */
export function wrap(text: string, width: number, indent = "", lead = ""): string[] {
  const lines: string[] = []
  let line = lead
  let empty = true
  for (const word of text.split(/\s+/).filter(Boolean)) {
    if (!empty && line.length + 1 + word.length > width) {
      lines.push(line)
      line = indent + word
    } else line = empty ? `${line}${word}` : `${line} ${word}`
    empty = false
  }
  if (!empty) lines.push(line)
  return lines
}

/** A count with its noun, singular for one: "1 statement", "3 statements", "1 note". */
export function plural(count: number, noun: string, many = `${noun}s`): string {
  return `${count.toLocaleString("en")} ${count === 1 ? noun : many}`
}

export function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&")
}

/** Local time as a person reads it off a clock: 14:02. */
export const clockTime = (ms: number) => new Date(ms).toTimeString().slice(0, 5)

/** Any thrown value as text, even one whose toString throws or that JSON cannot serialise. */
export function describeError(error: unknown): string {
  try {
    if (error instanceof Error) return `${error.name}: ${error.message}`
    if (typeof error === "string") return error
    return JSON.stringify(error) ?? String(error)
  } catch {
    return "unprintable error"
  }
}
