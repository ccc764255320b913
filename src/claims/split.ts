// Claims: a reply's prose split into sentences a judge can check, each with the sentences before it.

import { LIMITS } from "../base/bounds.ts"
import { clipStart } from "../base/text.ts"
import { wordPattern } from "../base/words.ts"
import type { Claim, NotJudged } from "../state/shapes.ts"
import { listAction, MIN_CLAIM_CHARS, notAClaim } from "./checkable.ts"
import { continuesAfterPeriod, periodEnding, startsLikeName } from "./periods.ts"
import { CODE_SPAN_RE, eachProseBlock, stripInlineMarkdown } from "./prose.ts"
import { segmentPieces, wholeSegment } from "./stops.ts"
import { shieldTokens, unshieldTokens, WINDOW_CHARS, windowsOf } from "./tokens.ts"
import { GERMAN_WORD_RE, QUESTION_START_RE } from "./words.ts"

const BEFORE_CHARS = 300

/** Names that carry "!": before a capitalised word that opens no sentence, the sentence goes on ("Yahoo! Mail"). */
const NAME_EXCLAIMED_RE = /(?:^|[\s(])(?:Yahoo|Jeopardy|Joomla|Wham)!$/u

/** Three spaced dots not preceded by a fourth: an ellipsis inside the sentence ("it reads . . . and then stops"). */
const SPACED_ELLIPSIS_END_RE = /[^.\s]\s?\.\s\.\s\.["'”’)\]]*$/

/** "[...]" marks words left out of a quotation, never the end of a sentence. */
const OMISSION_END_RE = /\[(?:\.\.\.|…)\]["'”’)]*$/

/** The comparison form of a claim: markdown, case and spacing do not make two claims different. */
export function normalizeForMatch(text: string): string {
  const spaced = text
    .toLowerCase()
    .replace(/[*_`~]+/g, "")
    .replace(/\s+/g, " ")
    .replace(/^[\s"'“„(]+/, "")
  // The closing run of quotes, brackets and punctuation, walked back from the end: a pattern anchored at the
  // end would be tried from every position of the sentence.
  let end = spaced.length
  while (end > 0 && TRAILING_MARKS.has(spaced[end - 1] as string)) end--
  return end === spaced.length ? spaced : spaced.slice(0, end)
}

/** What a claim's comparison form drops at its end: spaces, closing quotes and brackets, punctuation. */
const TRAILING_MARKS = new Set([" ", '"', "'", "”", ")", ".", ":", ";", "!", ","])

/**
 * A sentence being put together from ICU's pieces, as offsets into its block: keeping a string per piece
 * would hold a million small strings on a megabyte of "1. ", which the garbage collector pays for more than
 * linearly. The text is sliced once at the end.
 */
type PendingSentence = {
  start: number
  end: number
  /** Where its first piece ends: a question is recognised by how it opens. */
  firstEnd: number
  count: number
  closed: boolean
  /** A quotation opened in the sentence is still open. */
  quoted: boolean
}

/** Too short to judge on its own: what `isCheckable` would drop for its length. */
function isFragment(text: string): boolean {
  return text.length < MIN_CLAIM_CHARS || !/\s/.test(text.trim())
}

/** Whether `piece`, which ICU cut off, belongs to the sentence before it. */
function continuesSentence(previous: PendingSentence, piece: string, block: string): boolean {
  if (!/\p{L}/u.test(piece)) return true
  // Only the end of the sentence decides, so only a bounded tail of it is read.
  const tail = block.slice(Math.max(previous.start, previous.end - 48), previous.end)
  if (OMISSION_END_RE.test(tail) || SPACED_ELLIPSIS_END_RE.test(tail)) return true
  // ICU always breaks after "!" and "?": "uses Yahoo! for the login" is one sentence, and so is a name
  // that carries "!" before a word that opens none ("the login page of Yahoo! Mail").
  if (/[!?]["'”’)\]]*$/.test(tail))
    return /^\p{Ll}/u.test(piece) || (NAME_EXCLAIMED_RE.test(tail) && startsLikeName(piece))
  const ending = periodEnding(tail)
  if (!ending) return /^\p{Ll}/u.test(piece)
  if (continuesAfterPeriod(ending, piece)) return true
  // The split is doubtful: a piece too short to judge goes back to its neighbour rather than being dropped,
  // and a question cut there is joined up, so its first half is never judged as a statement.
  const short = previous.end - previous.start < MIN_CLAIM_CHARS || (previous.count === 1 && !/\s/.test(tail))
  const question =
    /\?["'”’)\]]*$/.test(piece) &&
    QUESTION_START_RE.test(block.slice(previous.start, Math.min(previous.firstEnd, previous.start + 40)))
  return short || question || (isFragment(piece) && !/[.!?]["'”’)\]]*$/.test(piece))
}

/** One piece of a block: ICU's segment or a part cut from it. `hard`: a sentence surely starts here. */
interface Piece {
  text: string
  /** Where the piece starts in its block. */
  at: number
  hard: boolean
  /** The segment ended a line, which `joinLines` put there only where a sentence ends. */
  lineEnd: boolean
  /** The piece has a quotation mark. */
  marks: boolean
}

/** The pieces of a block in order, each found at its offset: a piece is the next text after the one before. */
function* piecesOf(block: string, segmenter: Intl.Segmenter): Generator<Piece> {
  let cursor = 0
  // A segment that ends a line marks its last piece: each piece is handed on once the next one is known.
  let held: Piece | undefined
  for (const { segment, index } of segmenter.segment(block)) {
    const text = segment.trimEnd()
    // Most segments hold no stop but their last and no code: one piece as it is, with no cutting to do.
    if (text && wholeSegment(text) && !/^\s/.test(text)) {
      if (held) yield held
      held = { text, at: index, hard: false, lineEnd: false, marks: QUOTE_CHAR_RE.test(text) }
      cursor = index + text.length
    } else
      for (const [piece, hard] of segmentPieces(segment)) {
        const at = block.indexOf(piece, cursor)
        cursor = at + piece.length
        if (held) yield held
        held = { text: piece, at, hard, lineEnd: false, marks: QUOTE_CHAR_RE.test(piece) }
      }
    if (held && segment.endsWith("\n")) held.lineEnd = true
  }
  if (held) yield held
}

/** Whether a quotation is open after `text`, given whether one was open before: straight, „…“ and “…” quotes. */
function quoteOpenAfter(open: boolean, text: string): boolean {
  let inside = open
  for (const [char] of text.matchAll(QUOTE_CHARS_RE)) {
    if (char === '"') inside = !inside
    else if (char === "„" || (char === "“" && !inside)) inside = true
    else inside = false
  }
  return inside
}

const QUOTE_CHAR_RE = /["“”„]/

const QUOTE_CHARS_RE = /["“”„]/g

/** A mark that closes an open quotation. */
const QUOTE_CLOSE_RE = /["“”]/

/** How many pieces ahead a quotation opened in a sentence may close and still be part of it. */
const QUOTE_LOOKAHEAD = 4

/**
 * A sentence quoted inside a sentence ("He wrote "Done. All good." in the log"): while a quotation is open,
 * ICU's cut inside it is undone when the quotation closes within a few pieces and the sentence goes on in
 * lowercase after it. `quoted[i]` says whether piece i has a quotation mark at all.
 */
function insideQuotation(previous: PendingSentence, ahead: readonly Piece[]): boolean {
  if (!previous.quoted) return false
  for (const piece of ahead) {
    const close = piece.marks ? piece.text.search(QUOTE_CLOSE_RE) : -1
    if (close >= 0) return /^[\s,;:)\]]*\p{Ll}/u.test(piece.text.slice(close + 1))
    if (piece.lineEnd) return false
  }
  return false
}

/**
 * Joins the pieces ICU split off at abbreviations, initials, acronyms, ordinals, German dates and inside
 * quotations back onto their sentence; cuts before inline code that opens a sentence and before a sentence
 * that starts lowercase.
 */
export function sentences(
  text: string,
  segmenter: Intl.Segmenter,
  prepare: (window: string) => string = (window) => window,
): Generator<string> {
  return windowedSentences(text, segmenter, prepare)
}

function* windowedSentences(
  text: string,
  segmenter: Intl.Segmenter,
  prepare: (window: string) => string,
): Generator<string> {
  // A paragraph over a window is read window by window (see `windowsOf`). A window's first sentence goes on
  // with the last of the window before, since no boundary stands at a cut, unless that one already fills a
  // window: a run with no sentence end is cut there rather than handed on as one claim of megabytes.
  let held: string | undefined
  let first = false
  for (const window of windowsOf(text)) {
    for (const sentence of eachSentence(prepare(window), segmenter)) {
      if (first && held !== undefined && held.length < WINDOW_CHARS) held = `${held} ${sentence}`
      else {
        if (held !== undefined) yield held
        held = sentence
      }
      first = false
    }
    first = true
  }
  if (held !== undefined) yield held
}

/** The sentences of a block one by one (see `sentences`): a long reply's sentences are never all held at once. */
function* eachSentence(text: string, segmenter: Intl.Segmenter): Generator<string> {
  // Code, URLs and identifiers hold no boundary: their marks are hidden from ICU and the rules below.
  const block = shieldTokens(text)
  const spans: number[] = []
  let current: PendingSentence | undefined
  const add = (piece: Piece, ahead: readonly Piece[]) => {
    const end = piece.at + piece.text.length
    const open = current && !current.closed && !piece.hard
    if (current && open && (continuesSentence(current, piece.text, block) || insideQuotation(current, ahead))) {
      current.end = end
      current.count++
      if (piece.marks) current.quoted = quoteOpenAfter(current.quoted, piece.text)
    } else {
      if (current) spans.push(current.start, current.end)
      const quoted = piece.marks && quoteOpenAfter(false, piece.text)
      current = { start: piece.at, end, firstEnd: end, count: 1, closed: false, quoted }
    }
    if (piece.lineEnd) current.closed = true
  }
  // A quotation opened in a sentence may close a few pieces ahead: those are held back to look at.
  const window: Piece[] = []
  const lookahead = QUOTE_CHAR_RE.test(block) ? QUOTE_LOOKAHEAD : 1
  const next = () => {
    const piece = window.shift() as Piece
    add(piece, [piece, ...window])
  }
  const finished = function* () {
    for (let at = 0; at < spans.length; at += 2) yield unshieldTokens(block.slice(spans[at], spans[at + 1]))
    spans.length = 0
  }
  for (const piece of piecesOf(block, segmenter)) {
    window.push(piece)
    if (window.length === lookahead) next()
    if (spans.length) yield* finished()
  }
  while (window.length) next()
  if (current) spans.push(current.start, current.end)
  yield* finished()
}

/**
 * The checkable sentences of a reply, each once, at most `max` of them; the others with the reason. Reuse one segmenter: building
 * an ICU segmenter costs far more than segmenting a reply.
 */
export function splitClaims(
  reply: string,
  max: number,
  segmenter = new Intl.Segmenter(undefined, { granularity: "sentence" }),
): { claims: Claim[]; skipped: number; notClaims: NotJudged[]; unlisted: number } {
  const seen = new Set<string>()
  const claims: Claim[] = []
  let skipped = 0
  const notClaims: NotJudged[] = []
  // Past the bound, sentences that state nothing are only counted: a pathological reply of a million of them
  // would otherwise keep a million objects alive and slow every collection of the garbage collector.
  let unlisted = 0
  // The last two sentences, claims or not: what a claim's "it" refers to stands there.
  const recent: string[] = []
  const blocks = eachProseBlock(reply)
  // What the items of a list claim under a lead-in that states an action ("Updated files:" + "- `a.ts`").
  let carry: ((item: string) => string) | undefined
  for (let next = blocks.next(); !next.done; ) {
    const block = next.value
    next = blocks.next()
    const listFollows = next.value?.item === true && !block.item
    if (!block.item) carry = undefined
    // Markup is stripped window by window: a paragraph of megabytes is never copied whole.
    const each = sentences(joinLines(block.lines), segmenter, (window) => stripInlineMarkdown(window, true))
    let ahead = each.next()
    for (let at = 0; !ahead.done; at++) {
      let withCode = ahead.value
      ahead = each.next()
      const last = ahead.done === true
      if (at === 0 && block.item && carry && NAMES_FIRST_RE.test(withCode)) withCode = carry(withCode)
      // The lead-in's action is claimed item by item; the lead-in itself says nothing more.
      const action = last && listFollows ? listAction(withCode) : undefined
      const sentence = withCode.includes("`")
        ? withCode.replace(CODE_SPAN_RE, "$1").replace(/\s+/g, " ").trim()
        : withCode
      // The sentences before, as a claim carries them: joined only for a claim, not for every sentence.
      const [first, second] = recent
      recent.push(sentence)
      if (recent.length > 2) recent.shift()
      const why = action ? "a lead-in" : notAClaim(sentence, last)
      if (last && !block.item) carry = action
      if (why) {
        if (notClaims.length < LIMITS.notClaimsPerReply) notClaims.push({ text: sentence, why })
        else unlisted++
        continue
      }
      const key = normalizeForMatch(sentence)
      if (seen.has(key)) continue
      seen.add(key)
      if (claims.length >= max) skipped++
      else
        claims.push({
          text: sentence,
          key,
          ...(first !== undefined
            ? { before: clipStart(second === undefined ? first : `${first} ${second}`, BEFORE_CHARS) }
            : {}),
          ...(withCode !== sentence ? { raw: withCode } : {}),
        })
    }
  }
  return { claims, skipped, notClaims, unlisted }
}

/** An item that opens with the thing acted on: code, a path or a file name ("`src/a.ts`", "docs/setup.md: …"). */
const NAMES_FIRST_RE = /^(?:`[^`]+`|[\w.-]*[/.][\w./-]+)(?:\s|:|$)/

/** Line ends that decide whether the next line of a paragraph goes on with the same sentence. */
const TERMINAL_LINE_END_RE = /[.!?…]["'”’)\]*_]*\s*$/

const OPEN_LINE_END_RE = /[,;([{/&+=–—-]\s*$/

/** Articles, prepositions and conjunctions, English and German: a sentence goes on after them. */
const FUNCTION_WORDS = [
  ...["the", "a", "an", "of", "to", "in", "on", "at", "for"],
  ...["with", "and", "or", "but", "from", "by", "as", "that", "which"],
] as const

const GERMAN_FUNCTION_WORDS = [
  ...["der", "die", "das", "des", "dem", "den", "ein", "eine", "einer", "eines", "einem", "einen"],
  ...["und", "oder", "aber", "mit", "von", "zu", "zum", "zur", "im", "am", "an", "auf"],
  ...["für", "bei", "aus", "nach", "über", "unter", "vor", "durch", "als", "wie", "dass"],
] as const

/** A line ending in an article, preposition or conjunction is hard-wrapped mid-sentence, whatever comes next. */
const FUNCTION_WORD_END_RE = new RegExp(
  String.raw`(?:^|\s)${wordPattern([...FUNCTION_WORDS, ...GERMAN_FUNCTION_WORDS])}\s*$`,
  "i",
)

const LINE_START_MARKUP_RE = /^[*_[(„"“'‘]+/

/**
 * Whether the next source line goes on with the sentence of the line before. A line that ends a sentence is
 * a boundary even when the next starts lowercase or with code (ICU would run them together); a line without
 * closing punctuation is its own sentence unless it is plainly hard-wrapped.
 */
function continuesLine(previous: string, line: string, german: () => boolean = () => false): boolean {
  const start = line.replace(LINE_START_MARKUP_RE, "")
  const end = previous.trimEnd().slice(-64)
  if (TERMINAL_LINE_END_RE.test(end)) return periodEnding(end)?.kind === "fixed"
  if (/^[\p{Ll}\d`]/u.test(start) || OPEN_LINE_END_RE.test(end) || FUNCTION_WORD_END_RE.test(end)) return true
  // German capitalises nouns: a wrap after a lowercase word ("… beim Start seine⏎Konfiguration …") lands
  // before a noun, which no usual sentence opener is.
  return /(?:^|\s)\p{Ll}[\p{L}-]*$/u.test(end) && startsLikeName(start) && german()
}

/** English words a paragraph has, to tell German text from English that happens to hold "die" or "an". */
const ENGLISH_WORD_RE = /\b(?:the|and|is|of|to|that|with|for|it|this|are|was)\b/gi

/** Whether a paragraph reads as German: at least two German function words, and more than English ones. */
function readsGerman(text: string): boolean {
  const german = text.match(GERMAN_WORD_RE)?.length ?? 0
  return german >= 2 && german > (text.match(ENGLISH_WORD_RE)?.length ?? 0)
}

/**
 * A paragraph's lines as one text: a line that goes on is joined with a space, a line that ends a sentence
 * with a line break, which ICU always breaks at (a paragraph separator) and the merging never crosses.
 */
export function joinLines(lines: readonly string[]): string {
  if (lines.length < 2) return lines[0] ?? ""
  // Read once, and only where a wrap before a capital leaves the question open.
  let reads: boolean | undefined
  const german = () => {
    reads ??= readsGerman(lines.join(" "))
    return reads
  }
  return lines
    .map((line, i) => (i === 0 ? line : `${continuesLine(lines[i - 1] ?? "", line, german) ? " " : "\n"}${line}`))
    .join("")
}
