// Private-key blocks, also when only their BEGIN or END line is in view.
import {
  BACKSLASH,
  DIGIT_0,
  DIGIT_9,
  EQUALS,
  LOWER_A,
  LOWER_Z,
  PLUS,
  SLASH,
  UPPER_A,
  UPPER_Z,
} from "../../base/chars.ts"
import { applyCuts } from "./commands.ts"
import { PLACEHOLDER_RE } from "./values.ts"

/** A line of a key body next to a lone BEGIN or END: base64 (also with `\n` escapes), or a PEM header. */
const KEY_BODY_LINE_RE = /^[ \t]*(?:[A-Za-z0-9+/=\\]+|[A-Za-z][\w-]*: [^\n]*)[ \t\r]*$/

/** A character of a key body: base64, `=` padding, or the backslash of an escaped `\n`. */
const isKeyBodyChar = (char = "") => {
  const code = char.charCodeAt(0)
  return (
    (code >= UPPER_A && code <= UPPER_Z) ||
    (code >= LOWER_A && code <= LOWER_Z) ||
    (code >= DIGIT_0 && code <= DIGIT_9) ||
    code === PLUS ||
    code === SLASH ||
    code === EQUALS ||
    code === BACKSLASH
  )
}

/** Where the key body that ends at a lone END marker starts: back over its lines, not into the prose before. */
function keyBodyStart(text: string, marker: number): number {
  let start = marker
  while (start > 0 && isKeyBodyChar(text[start - 1])) start--
  if (start > 0 && text[start - 1] !== "\n") return start
  while (start > 0) {
    const lineStart = text.lastIndexOf("\n", start - 2) + 1
    if (!KEY_BODY_LINE_RE.test(text.slice(lineStart, start - 1))) break
    start = lineStart
  }
  return start
}

/** Where the key body that follows a lone BEGIN marker ends: over its headers and base64 lines. */
function keyBodyEnd(text: string, from: number): number {
  let end = from
  while (end < text.length && isKeyBodyChar(text[end])) end++
  while (text[end] === "\n") {
    const next = text.indexOf("\n", end + 1)
    const lineEnd = next < 0 ? text.length : next
    if (!KEY_BODY_LINE_RE.test(text.slice(end + 1, lineEnd))) break
    end = lineEnd
  }
  return end
}

/**
 * Private-key blocks can be several kilobytes, so they are cut out by index rather than by a lazy regex
 * (which would rescan the rest of the text for every BEGIN). A lone END (the block straddles a cut) takes
 * the key body before it, a lone BEGIN the body after it; prose that merely names a marker keeps its text.
 * Returns the spans to cut, in order: the read path needs them to know which lines a block took.
 */
export function privateKeyCuts(text: string): Array<[number, number]> {
  const cuts: Array<[number, number]> = []
  if (!text.includes("PRIVATE KEY")) return cuts
  const begin = /-----BEGIN[A-Z0-9 ]{0,40}PRIVATE KEY(?: BLOCK)?-----/g
  const end = /-----END[A-Z0-9 ]{0,40}PRIVATE KEY(?: BLOCK)?-----/g
  let cursor = 0
  // A BEGIN found ahead of the cursor is still the next one, and once no END follows, none is looked for
  // again: searching anew each time would be quadratic.
  let b: RegExpExecArray | null | undefined
  let endless = false
  for (;;) {
    if (b === undefined || (b && b.index < cursor)) {
      begin.lastIndex = cursor
      b = begin.exec(text)
    }
    end.lastIndex = cursor
    const e = endless ? null : end.exec(text)
    if (e && (!b || e.index < b.index)) {
      const start = keyBodyStart(text, e.index)
      // A marker with no body beside it holds nothing secret: prose that names it keeps it.
      if (start < e.index) cuts.push([Math.max(start, cursor), e.index + e[0].length])
      cursor = e.index + e[0].length
      continue
    }
    if (!b) break
    end.lastIndex = b.index + b[0].length
    const close = endless ? null : end.exec(text)
    if (!close) {
      endless = true
      cursor = keyBodyEnd(text, b.index + b[0].length)
      if (cursor > b.index + b[0].length) cuts.push([b.index, cursor])
      else cursor = b.index + b[0].length
      continue
    }
    const body = text.slice(b.index + b[0].length, close.index).replace(/\\n|\s/g, "")
    // A documentation stand-in (`…`, `xxx`, `<key>`) is kept; the shortest real key is some hundred characters.
    // Only the telling patterns count: a key's base64 may repeat a character or cycle like no token does.
    if (body.length >= 64 && !PLACEHOLDER_RE.test(body)) cuts.push([b.index, close.index + close[0].length])
    cursor = close.index + close[0].length
  }
  return cuts
}

export const redactPrivateKeys = (text: string) => applyCuts(text, privateKeyCuts(text))
