// Tokens that hold no sentence boundary: inline code, URLs and identifiers keep their dots, "!" and "?"; long paragraphs are cut into windows between them.

/**
 * Stand-ins for ".", "!" and "?" inside a token while ICU segments: private-use characters, which ICU reads
 * as ordinary letters-or-symbols and never breaks at. One character each, so every offset stays the same.
 */
const STAND_IN_OF: Readonly<Record<string, string>> = { ".": "\uE010", "!": "\uE011", "?": "\uE012" }

const MARK_OF: Readonly<Record<string, string>> = { "\uE010": ".", "\uE011": "!", "\uE012": "?" }

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

/**
 * The text with every stand-in turned back into its mark: one native replace per mark, which builds the
 * result without a string or a callback per stand-in (a megabyte of code spans holds 70,000 of them).
 */
export function unshieldTokens(text: string): string {
  let out = text
  for (const [stand, mark] of STAND_INS) if (out.includes(stand)) out = out.replaceAll(stand, mark)
  return out
}

const STAND_INS = Object.entries(MARK_OF)

/** How many offsets are patched into one chunk: the small slices between them never pile up by the million. */
const PATCH_CHUNK = 1024

/**
 * The text with the character at each offset (ascending) swapped for its counterpart: the runs between the
 * offsets are sliced, not copied unit by unit, and joined once.
 */
function patched(text: string, offsets: readonly number[], swap: Readonly<Record<string, string>>): string {
  const chunks: string[] = []
  const parts: string[] = []
  let from = 0
  for (const offset of offsets) {
    parts.push(text.slice(from, offset), swap[text[offset] as string] as string)
    from = offset + 1
    if (parts.length >= 2 * PATCH_CHUNK) chunks.push(parts.splice(0).join(""))
  }
  parts.push(text.slice(from))
  chunks.push(parts.join(""))
  return chunks.length === 1 ? (chunks[0] as string) : chunks.join("")
}

/** What may stand before a cut: a letter, or a code span's closing backtick (ICU breaks after neither). */
const BEFORE_CUT_RE = /[\p{L}`]/u

/** How far past its target a cut is looked for, and the longest token (a span of 400 and its backticks). */
const CUT_SLACK = 4096

const TOKEN_MAX = 402

/**
 * The first space at or after `target` that follows a letter or code and stands in no token, or -1 when
 * there is none within a few KB: a place where a long paragraph can be cut into windows with no sentence
 * boundary and no token cut. Tokens are read from `from`, a place that is itself in none, and only up to a
 * little past the target, so each window is scanned once.
 */
function tokenFreeSpace(text: string, from: number, target: number): number {
  const region = text.slice(from, target + CUT_SLACK)
  // A token cut off by the region's end is not seen whole: spaces that near the end are not taken.
  const last = from + region.length === text.length ? region.length : region.length - TOKEN_MAX
  const scan = new RegExp(UNSPLITTABLE_RE.source, UNSPLITTABLE_RE.flags)
  let token = scan.exec(region)
  let space = target - from
  for (;;) {
    space = region.indexOf(" ", space)
    while (space > 0 && !BEFORE_CUT_RE.test(region[space - 1] as string)) space = region.indexOf(" ", space + 1)
    if (space < 0 || space > last) return -1
    while (token && token.index + token[0].length <= space) token = scan.exec(region)
    if (!token || token.index > space) return from + space
    space = token.index + token[0].length
  }
}

/**
 * How long a stretch of a paragraph is segmented at once. Whole-text passes over a paragraph of megabytes
 * cost more than linearly (each allocates a copy that large, which the allocator and the collector handle
 * ever more slowly), so a paragraph longer than this is read in windows.
 */
export const WINDOW_CHARS = 32 * 1024

/**
 * A text in windows of about `WINDOW_CHARS`, each cut at a space after a letter or code, in no code span
 * or URL: no rule puts a sentence boundary there (every one needs a stop, a digit or a line break before it).
 */
export function windowsOf(text: string): Generator<string> {
  return eachWindow(text)
}

function* eachWindow(text: string): Generator<string> {
  let from = 0
  while (text.length - from > WINDOW_CHARS) {
    const cut = tokenFreeSpace(text, from, from + WINDOW_CHARS)
    if (cut < 0) break
    yield text.slice(from, cut)
    from = cut
  }
  yield from === 0 ? text : text.slice(from)
}
