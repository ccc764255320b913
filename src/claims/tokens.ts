// Tokens that hold no sentence boundary: inline code, URLs and identifiers keep their dots, "!" and "?".

/**
 * Stand-ins for ".", "!" and "?" inside a token while ICU segments: private-use characters, which ICU reads
 * as ordinary letters-or-symbols and never breaks at. One character each, so every offset stays the same.
 */
const STAND_IN_OF: Readonly<Record<string, string>> = { ".": "\uE010", "!": "\uE011", "?": "\uE012" }

const MARK_OF: Readonly<Record<string, string>> = { "\uE010": ".", "\uE011": "!", "\uE012": "?" }

const STAND_IN_RE = /[\uE010-\uE012]/g

/** A mark with a character right after it: a mark before a space may still end a sentence a stray backtick opened. */
const MARK_RE = /[.!?](?=\S)/g

/**
 * What is shielded: a code span; a URL; and a dot that ICU would break at inside a word, after a digit or an
 * underscore and before a letter (`s3.PutObject`, `v2.Client`, `__main__.Outer`). A dot after a letter is
 * left alone: "e.g." and "U.S." are read by the abbreviation rules, and ICU keeps `fmt.Println` whole.
 */
const UNSPLITTABLE_RE =
  /(?<!`)`(?!`)[^`\n]{1,400}(?<!`)`(?!`)|\bhttps?:\/\/[^\s<>"`]{1,400}|(?<=[\p{N}_])\.(?=[\p{L}_])/gu

/** The text with every ".", "!" and "?" inside a token replaced by its stand-in. Linear: one pass. */
export function shieldTokens(text: string): string {
  if (!text.includes("`") && !text.includes("://") && !/[\p{N}_]\.[\p{L}_]/u.test(text)) return text
  // Offsets, not replaced pieces: a megabyte of code spans would otherwise hold a string per span.
  const at: number[] = []
  UNSPLITTABLE_RE.lastIndex = 0
  for (let match = UNSPLITTABLE_RE.exec(text); match; match = UNSPLITTABLE_RE.exec(text)) {
    const token = match[0]
    if (token === ".") {
      at.push(match.index)
      continue
    }
    // A URL's last character may be the full stop of its sentence: "… see https://x.org/a." ends there.
    const keep = token.startsWith("`") ? token.length : token.search(/[.!?,;:)]*$/)
    MARK_RE.lastIndex = 0
    for (let mark = MARK_RE.exec(token); mark && mark.index < keep; mark = MARK_RE.exec(token))
      at.push(match.index + mark.index)
  }
  return at.length ? patched(text, at, STAND_IN_OF) : text
}

/** Below this length a text is unshielded by a plain replace: no array of units to build for a sentence. */
const SHORT_UNITS = 4096

/** The text with every stand-in turned back into its mark. */
export function unshieldTokens(text: string): string {
  if (text.length < SHORT_UNITS) return text.replace(STAND_IN_RE, (stand) => MARK_OF[stand] as string)
  const at: number[] = []
  STAND_IN_RE.lastIndex = 0
  for (let match = STAND_IN_RE.exec(text); match; match = STAND_IN_RE.exec(text)) at.push(match.index)
  return at.length ? patched(text, at, MARK_OF) : text
}

/**
 * The text with the character at each offset (ascending) swapped for its counterpart: the runs between the
 * offsets are sliced, not copied unit by unit, and joined once.
 */
function patched(text: string, offsets: readonly number[], swap: Readonly<Record<string, string>>): string {
  const parts: string[] = []
  let from = 0
  for (const offset of offsets) {
    parts.push(text.slice(from, offset), swap[text[offset] as string] as string)
    from = offset + 1
  }
  parts.push(text.slice(from))
  return parts.join("")
}
