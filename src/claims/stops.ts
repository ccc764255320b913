// Stops ICU reads on through: where one ICU segment is cut into pieces (a lowercase start, inline code, a dash, no space).

import { periodEnding } from "./periods.ts"
import { SENTENCE_STARTERS } from "./words.ts"

/** ICU does not break before a lowercase letter, so ". `pool_size` is ..." stays one segment without this cut. */
const STOP_BEFORE_CODE_RE = /[.!?]["'”’)\]]*\s+$/

/** An ICU segment cut before inline code that follows a full stop: ". `pool_size` is validated". */
function cutBeforeCode(segment: string): string[] {
  const parts: string[] = []
  let from = 0
  for (let at = segment.indexOf("`"); at >= 0; at = segment.indexOf("`", at + 1)) {
    if (at > from && STOP_BEFORE_CODE_RE.test(segment.slice(Math.max(from, at - 16), at))) {
      parts.push(segment.slice(from, at))
      from = at
    }
  }
  parts.push(segment.slice(from))
  return parts
}

/**
 * ". the", ". it", ". und": a full stop, then a lowercase word that opens sentences; or ". 2007 war", a number
 * and a word (ICU breaks before neither: it reads on to the next lowercase letter).
 */
const STOP_BEFORE_LOWER_RE = /\.\s+(?=(\p{Ll}[\p{Ll}'’]*|\d{1,4}\s+\p{L}))/gu

/** Before a sentence that opens with a number, the stop must end a word: "Exemplare. 2009" but not "S. 12. 3". */
const WORD_BEFORE_STOP_RE = /\p{L}{2}["'”’)]*$/u

/**
 * Cuts a segment where a sentence starts lowercase: after a full stop that ends an ordinary word or a number
 * (no abbreviation, initial, ordinal or ellipsis), before a lowercase word that usually opens a sentence
 * ("… in 2024. it fixed", "… is warm. the queue"). Each part after the first is a sure start.
 */
function* cutBeforeLowercase(segment: string): Generator<[string, boolean]> {
  let from = 0
  for (const match of segment.matchAll(STOP_BEFORE_LOWER_RE)) {
    const at = match.index
    const next = match[1] ?? ""
    const number = /^\d/.test(next)
    if (number ? !WORD_BEFORE_STOP_RE.test(segment.slice(Math.max(0, at - 4), at)) : !SENTENCE_STARTERS.has(next))
      continue
    // An ellipsis, spaced or not, goes on into lowercase: "weakened . . . was that".
    if (/[.…]\s?$/.test(segment.slice(Math.max(0, at - 2), at))) continue
    if (periodEnding(segment.slice(Math.max(from, at - 47), at + 1)) !== undefined) continue
    yield [segment.slice(from, at + 1), from > 0]
    from = at + match[0].length
  }
  yield [segment.slice(from), from > 0]
}

/** A stop: the scan for stops ICU reads on through starts only at these, never at every character. */
const STOP_CHAR_RE = /[.．!?]/g

/**
 * After a stop: closing marks, spaces, then a dash that opens the next sentence ("nicht. – Nach Innen", "it?
 * — The build", "functioning. - The programme"), or a short lowercase label in brackets before a capital
 * ("village. (obsolete) Most direct", "Done. (optional) Run the migration"). ICU reads a dash as a sentence
 * that goes on (Unicode's SContinue), and a bracket before a lowercase word too, so it never breaks here.
 */
const MARK_AFTER_STOP_RE = /["'”’)\]]*[ \t]+(?=[–—-][ \t]+["„“‘']?\p{Lu}|\(\p{Ll}[^()\n]{0,40}\)[ \t]+\p{Lu})/uy

/** After a stop with no space: a capitalised word, which must be a usual sentence opener ("Monday.The"). */
const OPENER_AFTER_RE = /(\p{Lu}\p{Ll}+)\b/uy

/** After a full-width stop: spaces, then a capital ("Monday．The"). */
const FULL_WIDTH_STOP_RE = /．\s*(?=\p{Lu})/uy

/** After a year's full stop: a footnote number of one or two digits, spaces, a capitalised word. */
const FOOTNOTE_AFTER_RE = /\.\d{1,2}\s+(?=\p{Lu}\p{Ll})/uy

const TWO_LOWER_RE = /^\p{Ll}{2}$/u

const YEAR_RE = /^\d{4}$/

/**
 * Where a stop ICU reads on through ends: one with no space after it between a word and a sentence opener
 * ("on Monday.The next"), a full-width one ("Monday．The"), and a footnote number after a year's full stop
 * ("in 1987.1 According to"). The cut goes after the stop, or after the footnote number. Each check is
 * anchored at a stop: a pattern with lookbehinds tried at every character of a megabyte segment costs
 * hundreds of nanoseconds a character.
 */
function* unspacedStops(segment: string): Generator<number> {
  for (const { index: at } of segment.matchAll(STOP_CHAR_RE)) {
    MARK_AFTER_STOP_RE.lastIndex = at + 1
    if (MARK_AFTER_STOP_RE.test(segment)) {
      if (segment[at] !== "." || endsSentenceBeforeMark(segment.slice(Math.max(0, at - 47), at + 1)))
        yield MARK_AFTER_STOP_RE.lastIndex
      continue
    }
    if (segment[at] === "!" || segment[at] === "?") continue
    const sticky = segment[at] === "．" ? FULL_WIDTH_STOP_RE : undefined
    if (sticky) {
      sticky.lastIndex = at
      if (sticky.test(segment)) yield sticky.lastIndex
      continue
    }
    const before = segment.slice(Math.max(0, at - 4), at)
    if (TWO_LOWER_RE.test(before.slice(-2))) {
      OPENER_AFTER_RE.lastIndex = at + 1
      const opener = OPENER_AFTER_RE.exec(segment)?.[1]
      if (opener !== undefined && SENTENCE_STARTERS.has(opener.toLowerCase())) yield at + 1
    } else if (YEAR_RE.test(before)) {
      FOOTNOTE_AFTER_RE.lastIndex = at
      if (FOOTNOTE_AFTER_RE.test(segment)) yield FOOTNOTE_AFTER_RE.lastIndex
    }
  }
}

/** Whether a full stop before a dash or a label ends its sentence: not after an abbreviation, initial or ordinal ("am 3. –"). */
function endsSentenceBeforeMark(tail: string): boolean {
  const ending = periodEnding(tail)
  return ending === undefined || ending.kind === "final"
}

/** The dash and spaces at a sentence's start, after the stop before it. */
const DASH_LEAD_RE = /[–—-][ \t]+/y

/** A stop inside a segment, with a dash or a bracketed label after it: only then is the dash rule tried. */
const STOP_THEN_MARK_RE = /[.!?]["'”’)\]]*[ \t]+(?:[–—-][ \t]|\(\p{Ll})/u

/** The pieces of one ICU segment, first cut at stops ICU reads on through. */
export function* segmentPieces(segment: string): Generator<[string, boolean]> {
  if (!segment.includes(".") && !segment.includes("．") && !STOP_THEN_MARK_RE.test(segment))
    return yield* cutPieces(segment)
  let from = 0
  for (const end of unspacedStops(segment)) {
    if (end <= from) continue
    for (const [text, hard] of cutPieces(segment.slice(from, end))) yield [text, hard || from > 0]
    from = end
    // The dash that opens a sentence is punctuation, not a word of its claim.
    DASH_LEAD_RE.lastIndex = end
    if (DASH_LEAD_RE.test(segment)) from = DASH_LEAD_RE.lastIndex
  }
  if (from === 0) return yield* cutPieces(segment)
  for (const [text] of cutPieces(segment.slice(from))) yield [text, true]
}

/** The pieces of one ICU segment, cut before inline code after a stop and before a lowercase sentence start. */
function* cutPieces(segment: string): Generator<[string, boolean]> {
  // Most segments have no full stop but their last and no code: they are one piece as they are.
  const stop = segment.indexOf(". ")
  const innerStop = stop >= 0 && stop < segment.trimEnd().length - 1
  if (!innerStop && !segment.includes("`")) {
    const trimmed = segment.trim()
    if (trimmed) yield [trimmed, false]
    return
  }
  for (const [part, hard] of innerStop ? cutBeforeLowercase(segment) : [[segment, false] as const]) {
    const texts = part.includes("`") ? cutBeforeCode(part) : [part]
    for (const [i, text] of texts.entries()) {
      const trimmed = text.trim()
      if (trimmed) yield [trimmed, hard && i === 0]
    }
  }
}

/** A stop inside a segment, with something after it: only then may the segment hold more than one piece. */
const INNER_STOP_RE = /[.．](?=\S)|\.\s/

/**
 * Whether an ICU segment is one piece as it is, with no cutting to do: no code, no stop inside it, no dash
 * after a stop. Most segments are.
 */
export function wholeSegment(text: string): boolean {
  return !text.includes("`") && !INNER_STOP_RE.test(text) && !STOP_THEN_MARK_RE.test(text)
}
