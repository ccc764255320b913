// Claims: a reply's prose split into sentences a judge can check, each with the sentences before it.
import { clipStart } from "../base/text.ts"
import { type Premise, READ_LINE_PREFIX_RE } from "../capture/evidence.ts"
import { MIN_CLAIM_CHARS, type NotAClaim, notAClaim } from "./checkable.ts"
import { CODE_SPAN_RE, proseParagraphs, stripInlineMarkdown } from "./prose.ts"

export const BEFORE_CHARS = 300

/** Shorter claims say too little for a verbatim match with a source to prove anything. */
export const VERBATIM_MIN_CHARS = 24

export interface Claim {
  text: string
  /** Normalised form: the dedupe key within a reply and across a turn. */
  key: string
  /** The sentences just before it in the reply: what "it" or "this function" refers to. */
  before?: string
  /** The sentence as written, inline code still in backticks: commands and paths are read from it. */
  raw?: string
}

/** ICU does not break before a lowercase letter, so ". `pool_size` is ..." stays one segment without this cut. */
export const STOP_BEFORE_CODE_RE = /[.!?]["'”’)\]]*\s+$/

/**
 * The word before a final period, as ICU leaves it: "K" in "Ada K.", "U.S" in "the U.S.", "3" in "1.–3.".
 * The tail is cut to a few dozen characters, so this never scans a whole sentence.
 */
export const PERIOD_END_RE = /(?:^|[\s([„"“‘'/–—-])([^\s([„"“‘'/–—-]*)\.$/u

/** Titles and mid-sentence abbreviations, English and German: a period after them never ends a sentence. */
export const FIXED_ABBREVIATIONS = new Set([
  ...["mr", "mrs", "ms", "mx", "dr", "prof", "rev", "fr", "st", "mt", "ft", "capt", "lt", "sgt", "messrs", "mme"],
  ...["mlle", "hon", "cf", "vs", "viz", "approx", "ca", "esp", "incl", "excl", "resp", "ref", "hr", "hrn", "frl"],
  ...["dipl", "ing", "med", "rer", "nat", "phil", "jur", "dent", "vet", "habil", "mag", "bzw", "vgl", "ggf", "evtl"],
  ...["inkl", "zzgl", "exkl", "bspw", "sog", "ggü", "gem", "lt", "kath", "ev", "evang", "ehem", "einschl", "entspr"],
  ...["insb", "insbes", "allg", "dt", "engl", "frz", "geb", "gegr", "bzgl", "tlw", "zz", "zzt", "dgl"],
])

/** Abbreviations that stand before a number ("Str. 5", "Nr. 3", "p. 55", "Jan. 2025"), and may end a sentence. */
export const NUMBER_ABBREVIATIONS = new Set([
  ...["no", "nos", "nr", "p", "pp", "s", "fig", "figs", "vol", "vols", "abs", "art", "kap", "bd", "tab", "abb"],
  ...["eq", "sec", "sect", "ch", "chap", "str", "tel", "ver", "v", "op", "anm", "par", "ziff", "pos", "min", "max"],
  ...["mind", "pt", "pkt", "jan", "feb", "mar", "apr", "jun", "jul", "aug", "sep", "sept", "oct", "okt", "nov"],
  ...["dec", "dez"],
])

/** Abbreviations that often end a sentence: a capital after them starts a new one ("... Sam Vimes Jr. Sam ..."). */
export const FINAL_ABBREVIATIONS = new Set([
  ...["jr", "sr", "inc", "ltd", "co", "corp", "llc", "plc", "gmbh", "ag", "kg", "bros", "esq", "etc", "al", "usw"],
  ...["usf", "a.m", "p.m", "ph.d", "u.v.m", "u.s.w"],
])

/**
 * Words that begin sentences far more often than they follow an initial or an acronym inside a name: after
 * "U.S." or "E." a capitalised word from this list starts a new sentence, any other continues the name.
 */
export const SENTENCE_STARTERS = new Set([
  ...["a", "an", "the", "this", "that", "these", "those", "it", "its", "it's", "we", "they", "he", "she", "i", "you"],
  ...["there", "here", "then", "but", "and", "or", "so", "yet", "if", "when", "while", "after", "before", "since"],
  ...["because", "although", "in", "on", "at", "for", "to", "from", "with", "by", "as", "of", "all", "each", "every"],
  ...["no", "not", "none", "yes", "how", "what", "why", "where", "who", "which", "our", "my", "your", "their", "his"],
  ...["her", "one", "both", "also", "however", "now", "next", "finally", "first", "second", "last", "only", "some"],
  ...["most", "many", "much", "more", "several", "few", "any", "another", "other", "such", "let", "please", "see"],
  ...["note", "is", "are", "was", "were", "do", "does", "did", "can", "could", "would", "should", "will", "may"],
  ...["must", "has", "have", "had", "thus", "instead", "otherwise", "today", "overall", "still", "even", "just"],
  ...["der", "die", "das", "dem", "den", "des", "ein", "eine", "einer", "eines", "einem", "einen", "es", "er", "sie"],
  ...["wir", "ich", "du", "ihr", "man", "dies", "diese", "dieser", "dieses", "dort", "hier", "da", "dann", "danach"],
  ...["daher", "deshalb", "damit", "dabei", "dazu", "aber", "und", "oder", "doch", "denn", "wenn", "als", "auch"],
  ...["im", "am", "an", "auf", "mit", "für", "bei", "nach", "vor", "von", "zum", "zur", "wie", "was", "warum", "wo"],
  ...["wer", "welche", "unser", "unsere", "mein", "meine", "alle", "jeder", "jede", "kein", "keine", "nicht", "nur"],
  ...["bitte", "siehe", "außerdem", "zudem", "jetzt", "nun", "heute", "zuerst", "schließlich", "insgesamt", "ist"],
  ...["sind", "war", "waren", "hat", "haben", "wird", "werden", "kann", "können", "soll", "muss", "gibt"],
])

/** How questions open, so that a question cut at an abbreviation is put back together instead of leaking. */
export const QUESTION_START_RE =
  /^\W*(?:is|are|was|were|do|does|did|can|could|would|should|will|shall|may|might|must|has|have|had|what|why|how|where|when|who|whom|whose|which|ist|sind|war|waren|hat|hast|habt|haben|kann|kannst|können|soll|sollte|sollen|wird|wirst|werden|würde|darf|muss|gibt|bist|seid|was|warum|wieso|weshalb|wie|wo|woher|wohin|wann|wer|wen|wem|welche[rsnm]?)\b/i

export const MONTH_START_RE =
  /^(?:januar|februar|märz|april|mai|juni|juli|august|september|oktober|november|dezember|jan|feb|mär|apr|jun|jul|aug|sep|okt|nov|dez)\b/i

/** German nouns an ordinal stands before ("im 19. Jahrhundert", "die 2. Auflage"); other capitals start sentences. */
export const ORDINAL_NOUN_START_RE =
  /^(?:jahrhundert|jahrtausend|jh\.|klasse|stock|etage|auflage|ausgabe|platz|rang|mal|kapitel|abschnitt|absatz|quartal|halbjahr|semester|liga|runde|spieltag|schritt|stufe|ebene|generation|ordnung|version|tag|woche|monat|jahr|lebensjahr|geburtstag|weltkrieg|teil|band|reihe|zeile|spalte|iteration|durchlauf|versuch|hälfte|fall|advent|sonntag)(?:e|en|er|es|n|s)?(?![\p{L}])/iu

/** Three spaced dots not preceded by a fourth: an ellipsis inside the sentence ("it reads . . . and then stops"). */
export const SPACED_ELLIPSIS_END_RE = /[^.\s]\s?\.\s\.\s\.["'”’)\]]*$/

/** "[...]" marks words left out of a quotation, never the end of a sentence. */
export const OMISSION_END_RE = /\[(?:\.\.\.|…)\]["'”’)]*$/

/** The comparison form of a claim: markdown, case and spacing do not make two claims different. */
export function normalizeForMatch(text: string): string {
  return text
    .toLowerCase()
    .replace(/[*_`~]+/g, "")
    .replace(/\s+/g, " ")
    .replace(/^[\s"'“„(]+/, "")
    .replace(/(?<![\s"'”).:;!,])[\s"'”).:;!,]+$/, "")
}

export type PeriodEnding = "fixed" | "number" | "final" | "ordinal" | "initial" | "acronym"

/** What the word before a text's final period is, which decides whether that period ends the sentence. */
export function periodEnding(tail: string): { kind: PeriodEnding; before: string } | undefined {
  const match = PERIOD_END_RE.exec(tail)
  if (!match) return undefined
  const token = match[1] ?? ""
  const lower = token.toLowerCase()
  const before = tail.slice(0, match.index + match[0].length - token.length - 1)
  if (FINAL_ABBREVIATIONS.has(lower)) return { kind: "final", before }
  // Lowercase single letters and dotted forms are abbreviations: "p. 55", "s. oben", "u. Ä.", "e.g.", "z.B.".
  if (FIXED_ABBREVIATIONS.has(lower) || /^\p{Ll}(?:\.\p{L})*$/u.test(token)) return { kind: "fixed", before }
  // German street names carry the abbreviation inside the word: "Hafenstr. 12".
  if (NUMBER_ABBREVIATIONS.has(lower) || /\p{L}str$/u.test(lower)) return { kind: "number", before }
  // Days, months, centuries and ranks; a four-digit number is a year or a count and ends sentences.
  if (/^\d{1,3}$/.test(token)) return { kind: "ordinal", before }
  if (/^\p{Lu}$/u.test(token)) return { kind: "initial", before }
  if (/^\p{Lu}(?:\.\p{Lu})+$/u.test(token)) return { kind: "acronym", before }
  return undefined
}

/** A capitalised word that is not a usual sentence opener: after an initial or acronym, the name goes on. */
export function startsLikeName(piece: string): boolean {
  const word = /^\p{Lu}[\p{L}'’-]*/u.exec(piece)?.[0]
  return word !== undefined && !SENTENCE_STARTERS.has(word.toLowerCase())
}

/** ICU broke after a period that follows `ending`; whether the sentence really goes on into `piece`. */
export function continuesAfterPeriod(ending: { kind: PeriodEnding; before: string }, piece: string): boolean {
  const lower = /^\p{Ll}/u.test(piece)
  const digit = /^\d/.test(piece)
  switch (ending.kind) {
    case "fixed":
      return true
    case "final":
      return lower
    case "number":
      return lower || digit
    case "ordinal":
      return lower || digit || MONTH_START_RE.test(piece) || ORDINAL_NOUN_START_RE.test(piece)
    case "acronym":
      return lower || startsLikeName(piece)
    case "initial":
      // "Ada K. Lovelace", "J. R. R. Tolkien", "z. B. Wasser"; but "the reviewer and I. Then ..." ends.
      if (lower || digit || /^\p{Lu}\.(?:\s|$)/u.test(piece)) return true
      return startsLikeName(piece) && /(?:\p{Lu}[\p{Ll}'’-]+|\p{L}\.)\s*$/u.test(ending.before)
  }
}

/** A sentence being put together from ICU's pieces; kept as pieces and joined once at the end. */
export type PendingSentence = { pieces: string[]; length: number; closed: boolean }

/** Too short to judge on its own: what `isCheckable` would drop for its length. */
export function isFragment(text: string): boolean {
  return text.length < MIN_CLAIM_CHARS || !/\s/.test(text.trim())
}

/** Whether `piece`, which ICU cut off, belongs to the sentence before it. */
export function continuesSentence(previous: PendingSentence, piece: string): boolean {
  if (!/\p{L}/u.test(piece)) return true
  // Only the end of the sentence decides, so only a bounded tail of it is read.
  const last = previous.pieces.at(-1) ?? ""
  const tail = last.length >= 48 ? last.slice(-48) : previous.pieces.slice(-3).join(" ").slice(-48)
  if (OMISSION_END_RE.test(tail) || SPACED_ELLIPSIS_END_RE.test(tail)) return true
  // ICU always breaks after "!" and "?": "uses Yahoo! for the login" is one sentence.
  if (/[!?]["'”’)\]]*$/.test(tail)) return /^\p{Ll}/u.test(piece)
  const ending = periodEnding(tail)
  if (!ending) return /^\p{Ll}/u.test(piece)
  if (continuesAfterPeriod(ending, piece)) return true
  // The split is doubtful: a piece too short to judge goes back to its neighbour rather than being dropped,
  // and a question cut there is joined up, so its first half is never judged as a statement.
  const short = previous.length < MIN_CLAIM_CHARS || (previous.pieces.length === 1 && !/\s/.test(tail))
  const question = /\?["'”’)\]]*$/.test(piece) && QUESTION_START_RE.test(previous.pieces[0] ?? "")
  return short || question || (isFragment(piece) && !/[.!?]["'”’)\]]*$/.test(piece))
}

/** An ICU segment cut before inline code that follows a full stop: ". `pool_size` is validated". */
export function cutBeforeCode(segment: string): string[] {
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
 * Joins the pieces ICU split off at abbreviations, initials, acronyms, ordinals and German dates back onto
 * their sentence, and cuts before inline code that opens a sentence.
 */
export function sentences(block: string, segmenter: Intl.Segmenter): string[] {
  // Growing one string and reading its tail after every merge would copy it again each time.
  const merged: PendingSentence[] = []
  for (const { segment } of segmenter.segment(block)) {
    for (const part of segment.includes("`") ? cutBeforeCode(segment) : [segment]) {
      const piece = part.trim()
      if (!piece) continue
      const previous = merged.at(-1)
      if (previous && !previous.closed && continuesSentence(previous, piece)) {
        previous.pieces.push(piece)
        previous.length += piece.length + 1
      } else merged.push({ pieces: [piece], length: piece.length, closed: false })
    }
    const last = merged.at(-1)
    if (last && segment.endsWith("\n")) last.closed = true
  }
  return merged.map(({ pieces }) => pieces.join(" "))
}

/** A sentence of the reply that states nothing a source could confirm, and why. */
export interface NotJudged {
  text: string
  why: NotAClaim
}

/**
 * The checkable sentences of a reply, each once, at most `max` of them; the others with the reason. Reuse one segmenter: building
 * an ICU segmenter costs far more than segmenting a reply.
 */
export function splitClaims(
  reply: string,
  max: number,
  segmenter = new Intl.Segmenter(undefined, { granularity: "sentence" }),
): { claims: Claim[]; skipped: number; notClaims: NotJudged[] } {
  const seen = new Set<string>()
  const claims: Claim[] = []
  let skipped = 0
  const notClaims: NotJudged[] = []
  // The last two sentences, claims or not: what a claim's "it" refers to stands there.
  const recent: string[] = []
  for (const paragraph of proseParagraphs(reply)) {
    const found = sentences(stripInlineMarkdown(joinLines(paragraph), true), segmenter)
    for (const [at, withCode] of found.entries()) {
      const sentence = withCode.includes("`")
        ? withCode.replace(CODE_SPAN_RE, "$1").replace(/\s+/g, " ").trim()
        : withCode
      const before = recent.length ? clipStart(recent.join(" "), BEFORE_CHARS) : undefined
      recent.push(sentence)
      if (recent.length > 2) recent.shift()
      const why = notAClaim(sentence, at === found.length - 1)
      if (why) {
        notClaims.push({ text: sentence, why })
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
          ...(before ? { before } : {}),
          ...(withCode !== sentence ? { raw: withCode } : {}),
        })
    }
  }
  return { claims, skipped, notClaims }
}

/**
 * The zero-token gate: a claim that stands word for word in a source needs no judge. The source side
 * drops the `12: ` line numbers of opencode's read output so a quoted line still matches.
 */
export function isVerbatimInSources(claim: Claim, normalizedSources: string): boolean {
  if (claim.key.length < VERBATIM_MIN_CHARS) return false
  // The match must end where the source's clause ends: "X is enabled" is not proven by "X is enabled only if Y".
  for (let at = normalizedSources.indexOf(claim.key); at >= 0; at = normalizedSources.indexOf(claim.key, at + 1)) {
    // It must also start where a word starts ("5 retries" is not "15 retries"), and a comma may open a qualifier.
    const after = normalizedSources.slice(at + claim.key.length, at + claim.key.length + 2)
    if (!/[\p{L}\p{N}]/u.test(normalizedSources[at - 1] ?? "") && /^(?:$|\s?[.!?;:)\]"'”])/.test(after)) {
      return true
    }
  }
  return false
}

export function normalizeSources(premises: readonly Premise[]): string {
  return normalizeForMatch(premises.map((premise) => premise.text.replace(READ_LINE_PREFIX_RE, "")).join("\n"))
}

/** Line ends that decide whether the next line of a paragraph goes on with the same sentence. */
export const TERMINAL_LINE_END_RE = /[.!?…]["'”’)\]*_]*\s*$/

export const OPEN_LINE_END_RE = /[,;([{/&+=–—-]\s*$/

/** A line ending in an article, preposition or conjunction is hard-wrapped mid-sentence, whatever comes next. */
export const FUNCTION_WORD_END_RE =
  /(?:^|\s)(?:the|a|an|of|to|in|on|at|for|with|and|or|but|from|by|as|that|which|der|die|das|des|dem|den|ein|eine|einer|eines|einem|einen|und|oder|aber|mit|von|zu|zum|zur|im|am|an|auf|für|bei|aus|nach|über|unter|vor|durch|als|wie|dass)\s*$/i

export const LINE_START_MARKUP_RE = /^[*_[(„"“'‘]+/

/**
 * Whether the next source line goes on with the sentence of the line before. A line that ends a sentence is
 * a boundary even when the next starts lowercase or with code (ICU would run them together); a line without
 * closing punctuation is its own sentence unless it is plainly hard-wrapped.
 */
export function continuesLine(previous: string, line: string): boolean {
  const start = line.replace(LINE_START_MARKUP_RE, "")
  const end = previous.trimEnd().slice(-64)
  if (TERMINAL_LINE_END_RE.test(end)) return periodEnding(end)?.kind === "fixed"
  return /^[\p{Ll}\d`]/u.test(start) || OPEN_LINE_END_RE.test(end) || FUNCTION_WORD_END_RE.test(end)
}

/**
 * A paragraph's lines as one text: a line that goes on is joined with a space, a line that ends a sentence
 * with a line break, which ICU always breaks at (a paragraph separator) and the merging never crosses.
 */
export function joinLines(lines: readonly string[]): string {
  return lines
    .map((line, i) => (i === 0 ? line : `${continuesLine(lines[i - 1] ?? "", line) ? " " : "\n"}${line}`))
    .join("")
}
