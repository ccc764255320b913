// Markdown to prose: the blocks of a reply that can hold claims, with code, tables and markup set aside.
import { wordPattern } from "../base/words.ts"

const FENCE_RE = /^\s{0,3}(`{3,}|~{3,})/

const HEADING_RE = /^\s{0,3}#{1,6}(\s|$)/

const RULE_RE = /^\s{0,3}([-*_])(\s*\1){2,}\s*$/

const TABLE_RE = /^\s*\|.*\|\s*$/

const TABLE_SEPARATOR_RE = /^\s*\|?\s*:?-{3,}:?\s*(?:\|\s*:?-{3,}:?\s*)+\|?\s*$/

const SETEXT_RE = /^\s{0,3}(?:=+|-{2,})\s*$/

/** Markdown bullets, typographic bullets (numbered too: "• 3."), "1." "2)" "1.)", and "a)" "(b)" "iv)". */
const LIST_ITEM_RE =
  /^\s{0,8}(?:[-*+]|[•‣⁃◦▪](?:\s*\d{1,3}[.)])?|\d{1,3}(?:\.\)|[.)])|\(?(?:[a-zA-Z]|[ivx]{1,4})\))\s+(?:\[[ xX]\]\s+)?/

/** "a." and "i." items are taken only as the first of a list or the next after the item before: "s. oben" is not. */
const DOTTED_LETTER_ITEM_RE = /^\s{0,8}([a-z]|[ivx]{1,4})\.\s+/

const ROMAN_NUMERALS = ["i", "ii", "iii", "iv", "v", "vi", "vii", "viii", "ix", "x", "xi", "xii"] as const

/** Markers of a later item on the same line: bullets (numbered too), "2.", "3)", "4.)", "b.", "(c)". */
const INLINE_ITEM_RE = /\s([•‣⁃◦▪](?:\s*\d{1,3}[.)])?|\d{1,3}(?:\.\)|[.)])|\(?[a-z][.)])(?=\s)/gu

const VALUE_WORDS = [
  ...["to", "from", "by", "of", "at", "than", "is", "are", "was"],
  ...["were", "be", "version", "v", "step", "page", "size", "limit", "no"],
] as const

const GERMAN_VALUE_WORDS = ["bis", "von", "auf", "um", "zu", "als", "ist", "sind", "seite", "schritt", "nr"] as const

/** A number just after these is a value, not the next item of an inline list: "set retries to 2. Then ...". */
const VALUE_BEFORE_NUMBER_RE = new RegExp(
  String.raw`(?:^|\s)${wordPattern([...VALUE_WORDS, ...GERMAN_VALUE_WORDS])}\s*$|[\d=<>+*/-]\s*$`,
  "i",
)

const QUOTE_RE = /^\s{0,3}(?:>\s?)+/

const LINK_ONLY_RE = /^\s*(?:!?\[[^\]]*\]\([^)]*\)|<?https?:\/\/\S+>?|\[[^\]]+\]:\s*\S+)\s*$/

const HTML_ONLY_RE = /^\s*<\/?[a-z][^>]*>\s*$/i

/**
 * Spans are bounded so an unclosed `[`, `_` or `**` costs a constant, not a scan to the end of the text.
 * `keepCode` leaves inline code in its backticks, so sentence splitting can still see where code starts.
 */
export function stripInlineMarkdown(text: string, keepCode = false): string {
  // Code spans are set aside while markup is stripped, so what stands in backticks reaches the judge as
  // written, and emphasis around a span ("**the `x` flag**") still pairs up.
  const spans: string[] = []
  // Only code that holds a markup character could be changed, so only then is it set aside.
  const masked = MARKED_CODE_RE.test(text)
    ? text.replace(CODE_SPAN_RE, (span) => `\uE000${spans.push(span) - 1}\uE001`)
    : text
  const stripped = stripMarkup(masked)
  const plain = spans.length
    ? stripped.replace(CODE_MARK_RE, (mark, index: string) => {
        const span = spans[Number(index)]
        return span === undefined ? mark : keepCode ? span : span.slice(1, -1)
      })
    : stripped
  // Line breaks survive only where `joinLines` put them: there a sentence ends.
  if (!plain.includes("\n")) return plain.replace(/\s+/g, " ").trim()
  return plain
    .replace(/\s*\n\s*/g, "\n")
    .replace(/[^\S\n]+/g, " ")
    .trim()
}

/**
 * Elements an agent's markdown may carry as HTML. `<void>` in `Promise<void>` or `<string, number>` is code:
 * only these names count as tags, and an opening tag only where its `<` does not stick to a word.
 */
const HTML_TAG_NAMES = [
  ...["a", "abbr", "b", "bdi", "big", "blockquote", "br", "center", "cite", "code", "dd", "del"],
  ...["details", "div", "dl", "dt", "em", "font", "h1", "h2", "h3", "h4", "h5", "h6"],
  ...["hr", "i", "img", "ins", "kbd", "li", "mark", "ol", "p", "picture", "pre", "q"],
  ...["s", "samp", "small", "source", "span", "strike", "strong", "sub", "summary", "sup", "table", "tbody"],
  ...["td", "th", "thead", "tr", "tt", "u", "ul", "var", "wbr"],
] as const

export const HTML_TAG_RE = new RegExp(String.raw`<(/?)${wordPattern(HTML_TAG_NAMES)}(?:\s[^<>]{0,200})?/?>`, "gi")

/** A letter, digit or underscore: an opening tag stuck to one is code (`Promise<void>`). */
const WORD_CHAR_RE = /[\p{L}\p{N}_]/u

/** A code span that holds a character some markup pattern reads: `*`, `_`, `<`, `[` or `]`. */
const MARKED_CODE_RE = /`[^`]*[*_<[\]][^`]*`/

/** Where a code span stood while markup was stripped around it. */
const CODE_MARK_RE = /\uE000(\d+)\uE001/g

/**
 * Links, emphasis and HTML tags taken off prose (never code). Underscores mark emphasis only at word
 * boundaries, as in CommonMark: `__init__.py` and `snake_case_name` stay as written.
 */
function stripMarkup(text: string): string {
  // Each pattern runs only on text that has its marker: most prose has none of them.
  let out = text.includes("](") ? text.replace(/!?\[([^\]]{0,300})\]\([^)\s]{0,500}\)/g, "$1") : text
  if (out.includes("**")) out = out.replace(/\*\*(.{1,300}?)\*\*/g, "$1")
  if (out.includes("__")) {
    out = out.replace(/(^|[^\p{L}\p{N}_])__(?!\s)(.{1,300}?)(?<!\s)__(?![\p{L}\p{N}_]|\.[\p{L}\p{N}])/gu, "$1$2")
  }
  if (out.includes("*") || out.includes("_")) {
    out = out.replace(/(^|[\s(])([*_])(\S(?:.{0,300}?\S)?)\2(?=[\s),;:!?]|\.(?!\w)|$)/g, "$1$3")
  }
  if (!out.includes("<")) return out
  return out.replace(HTML_TAG_RE, (tag, closing: string, at: number, whole: string) =>
    closing || !WORD_CHAR_RE.test(whole[at - 1] ?? "") ? "" : tag,
  )
}

/** Whether `candidate` marks the item after the one marked `previous`: "2)" after "1)", "c." after "b.". */
function isNextItem(previous: string, candidate: string): boolean {
  if (/^[•‣⁃◦▪]/u.test(previous)) return candidate[0] === previous[0]
  const numbered = /^(\d{1,3})(\.\)|[.)])$/.exec(previous)
  if (numbered) {
    const next = Number(numbered[1]) + 1
    return numbered[2] === "." ? candidate === `${next}.` : candidate === `${next})` || candidate === `${next}.)`
  }
  const lettered = /^(\(?)([a-y])([.)])$/.exec(previous)
  const letter = lettered?.[2]
  return (
    letter !== undefined &&
    candidate === `${lettered?.[1]}${String.fromCharCode(letter.charCodeAt(0) + 1)}${lettered?.[3]}`
  )
}

/**
 * One line that holds a whole list, "1) The first item 2) The second item" or "• a • b": ICU sees one
 * sentence (or splits after the "2." and leaves it on the item before), so the items are cut at their markers.
 */
function splitInlineItems(text: string, marker: string): { items: string[]; marker: string } {
  const items: string[] = []
  let from = 0
  let last = marker
  const hasSuccessor = /^(?:[•‣⁃◦▪]|\d|\(?[a-y][.)]$)/u.test(marker)
  for (const found of hasSuccessor ? text.matchAll(INLINE_ITEM_RE) : []) {
    const candidate = found[1] ?? ""
    if (!isNextItem(last, candidate)) continue
    const before = text.slice(Math.max(from, found.index - 12), found.index)
    if (/^\d/.test(candidate) && VALUE_BEFORE_NUMBER_RE.test(before)) continue
    items.push(text.slice(from, found.index).trim())
    from = found.index + found[0].length
    last = candidate
  }
  items.push(text.slice(from).trim())
  return { items: items.filter(Boolean), marker: last }
}

/** A list item's marker and text, or undefined for a line that is not one. */
function listItem(line: string, previousMarker: string | undefined): { marker: string; text: string } | undefined {
  const item = LIST_ITEM_RE.exec(line)
  if (item) return { marker: item[0].replace(/\[[ xX]\]/, "").trim(), text: line.slice(item[0].length) }
  const dotted = DOTTED_LETTER_ITEM_RE.exec(line)
  const label = dotted?.[1]
  // "i. d. R." and "u. a." open German lines too: a second dotted letter means an abbreviation, not an item.
  if (!dotted || !label || /^\p{L}\./u.test(line.slice(dotted[0].length))) return undefined
  const previous = previousMarker?.replace(/[().]/g, "") ?? ""
  const romanNext = ROMAN_NUMERALS[(ROMAN_NUMERALS as readonly string[]).indexOf(previous) + 1]
  const letterNext = previous.length === 1 ? String.fromCharCode(previous.charCodeAt(0) + 1) : undefined
  if (label !== "a" && label !== "i" && label !== romanNext && label !== letterNext) return undefined
  return { marker: `${label}.`, text: line.slice(dotted[0].length) }
}

/** A prose paragraph's source lines, and whether it is an item of a list. */
interface ProseBlock {
  lines: string[]
  item: boolean
}

/** A paragraph this many lines long is handed on at its next line that ends a sentence: none is held whole. */
const PARAGRAPH_LINES = 256

const SENTENCE_LINE_END_RE = /[.!?]["'”’)\]]*$/

/** The lines of a text one by one, without splitting all of it first. */
function* eachLine(text: string): Generator<string> {
  let from = 0
  for (let end = text.indexOf("\n"); end >= 0; end = text.indexOf("\n", from)) {
    yield text.slice(from, end > from && text[end - 1] === "\r" ? end - 1 : end)
    from = end + 1
  }
  yield text.slice(from)
}

/**
 * The prose paragraphs of a markdown reply, each as its source lines: code, headings, tables, rules and
 * link-only lines are dropped; each list item and each paragraph is its own entry, with bullets and quote
 * markers removed and inline markdown left in place.
 *
 * They come one by one: a long reply's lines are never all held at once.
 */
export function eachProseBlock(markdown: string): Generator<ProseBlock> {
  return blocksOf(markdown)
}

function* blocksOf(markdown: string): Generator<ProseBlock> {
  const paragraphs: ProseBlock[] = []
  let current: string[] = []
  let currentItem = false
  let fence: string | undefined
  let previousBlank = true
  let inTable = false
  let marker: string | undefined
  const flush = () => {
    if (current.length) paragraphs.push({ lines: current, item: currentItem })
    current = []
    currentItem = false
  }
  for (const rawLine of eachLine(markdown)) {
    if (paragraphs.length) yield* paragraphs.splice(0)
    const fenceMatch = FENCE_RE.exec(rawLine)
    if (fence) {
      if (fenceMatch?.[1]?.startsWith(fence)) fence = undefined
      continue
    }
    if (fenceMatch) {
      flush()
      fence = fenceMatch[1]
      continue
    }
    const blank = rawLine.trim() === ""
    const indentedCode: boolean = /^(?: {4}|\t)/.test(rawLine) && previousBlank && current.length === 0
    previousBlank = blank || indentedCode
    if (blank || indentedCode) {
      flush()
      continue
    }
    const line = rawLine.replace(QUOTE_RE, "")
    // Setext headings and tables without outer pipes reveal themselves one line late: drop that line too.
    if (SETEXT_RE.test(line) || TABLE_SEPARATOR_RE.test(line)) {
      current.pop()
      inTable = TABLE_SEPARATOR_RE.test(line)
      flush()
      continue
    }
    if (inTable && line.includes("|")) continue
    inTable = false
    if (HEADING_RE.test(line) || RULE_RE.test(line) || TABLE_RE.test(line) || LINK_ONLY_RE.test(line)) {
      flush()
      continue
    }
    if (HTML_ONLY_RE.test(line)) continue
    const item = listItem(line, marker)
    if (item) {
      flush()
      const inline = splitInlineItems(item.text, item.marker)
      for (const text of inline.items.slice(0, -1)) paragraphs.push({ lines: [text], item: true })
      current.push(inline.items.at(-1) ?? "")
      currentItem = true
      marker = inline.marker
      continue
    }
    current.push(line.trim())
    if (current.length >= PARAGRAPH_LINES && SENTENCE_LINE_END_RE.test(line.trimEnd())) flush()
  }
  flush()
  yield* paragraphs
}

export const CODE_SPAN_RE = /`([^`]+)`/g
