// YAML block scalars after a secret's name: `password: |` or `>-`, and the more-indented lines below it.
import { CARRIAGE_RETURN, DIGIT_1, DIGIT_9, HYPHEN, LINE_FEED, PLUS } from "../../base/chars.ts"
import { isBlank, isQuote } from "./values.ts"

/**
 * Where the line of a block scalar's header ends (its `\n`), the header at `at`: `|` or `>`, a chomping
 * indicator and an indentation digit in either order, then blanks or a comment; -1 if there is none. `Password: |`
 * amid a line (`grep Password: | cut …`) is a pipe, not a header.
 */
export function blockHeaderEnd(text: string, at: number): number {
  const indicator = text[at]
  if (indicator !== "|" && indicator !== ">") return -1
  let i = at + 1
  for (let n = 0; n < 2; n++) {
    const code = text.charCodeAt(i)
    if (code === HYPHEN || code === PLUS || (code >= DIGIT_1 && code <= DIGIT_9)) i++
  }
  const blanks = i
  while (isBlank(text.charCodeAt(i))) i++
  if (text[i] === "#" && i > blanks) while (i < text.length && text[i] !== "\n" && text[i] !== "\r") i++
  if (text[i] === "\r") i++
  return text[i] === "\n" ? i : -1
}

/** The indentation of the line a key starts, its list dash included (`- password: |` is indented by 2). */
export function keyIndent(text: string, start: number): number {
  let from = start
  while (from > 0 && start - from < 80 && text[from - 1] !== "\n" && text[from - 1] !== "\r") from--
  let indent = 0
  while (from + indent < start && (isBlank(text.charCodeAt(from + indent)) || text[from + indent] === "-")) indent++
  return indent
}

export interface Block {
  /** Each line's content as a start and an end, one pair after another; empty if the block is no one value. */
  spans: number[]
  /** Where the block ends: the start of the first line that is not indented past its key, or where reading stopped. */
  end: number
}

/**
 * The lines of the block after the header line that ends at `from`, more indented than `indent`. They are one
 * value (a password, a token, base64 folded over lines) only where every line is one run without blanks or
 * quotes: JSON, a script or prose in a block is left to the rest of the scan, and reading stops at its first
 * such line. Each line is read once.
 */
export function readBlock(text: string, from: number, indent: number): Block {
  const spans: number[] = []
  let at = from + 1
  while (at < text.length) {
    let content = at
    while (isBlank(text.charCodeAt(content))) content++
    const first = text.charCodeAt(content)
    // Indented no further than the key: the block ends here, before this line is read.
    if (content < text.length && first !== LINE_FEED && first !== CARRIAGE_RETURN && content - at <= indent)
      return { spans, end: at }
    let end = content
    let last = -1
    for (; end < text.length && text[end] !== "\n"; end++) {
      const code = text.charCodeAt(end)
      if (isBlank(code) || code === CARRIAGE_RETURN) continue
      if ((last >= 0 && end > last + 1) || isQuote(code)) return { spans: [], end } // a blank inside, or a quote
      last = end
    }
    if (last >= 0) spans.push(content, last + 1) // a blank line belongs to the block
    at = end + 1
  }
  return { spans, end: text.length }
}
