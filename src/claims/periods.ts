// Periods: what the word before a full stop is (abbreviation, initial, ordinal, unit, era), and whether the sentence goes on after it.

import {
  BEFORE_ORDINAL_RE,
  FINAL_ABBREVIATIONS,
  FIXED_ABBREVIATIONS,
  MONTH_START_RE,
  NUMBER_ABBREVIATIONS,
  ORDINAL_NOUN_START_RE,
  SENTENCE_STARTERS,
  SUBJECT_OPENERS,
  UNIT_ABBREVIATIONS,
} from "./words.ts"

/**
 * The word before a final period, as ICU leaves it: "K" in "Ada K.", "U.S" in "the U.S.", "3" in "1.–3.".
 * The tail is cut to a few dozen characters, so this never scans a whole sentence.
 */
const PERIOD_END_RE = /(?:^|[\s([„"“‘'/–—-])([^\s([„"“‘'/–—-]*)\.$/u

/** A sentence so far that is only a preposition and a year before an era: "In 44", "Um 800". */
const ERA_PHRASE_RE = /^\s*(?:in|by|around|about|until|after|before|im|um|bis|nach|vor|ab|seit)\s+\d{1,4}\s*$/i

const LETTER_RE = /\p{L}/u

/**
 * English units after a number end a sentence before any capital ("weighed 5 lb. Tom carried it"): English
 * capitalises no noun after them. German units ("3 Std. Anfahrt") stand before nouns and keep the unit rule.
 */
const ENGLISH_UNITS = new Set(["ft", "yd", "mi", "lb", "lbs", "oz", "gal", "qt", "hrs", "mins", "secs", "yrs", "wks"])

type PeriodEnding = "fixed" | "number" | "final" | "ordinal" | "initial" | "acronym" | "unit" | "regnal"

/** What stands before a final period: its kind, the text before the word, and (for a fixed one) the word itself. */
interface Ending {
  kind: PeriodEnding
  before: string
  word?: string
}

/** What the word before a text's final period is, which decides whether that period ends the sentence. */
export function periodEnding(tail: string): Ending | undefined {
  const match = PERIOD_END_RE.exec(tail)
  if (!match) return undefined
  const token = match[1] ?? ""
  const lower = token.toLowerCase()
  const before = tail.slice(0, match.index + match[0].length - token.length - 1)
  // An apostrophe inside a word is no quote: "didn't." ends with the word "didn't", not with a letter "t".
  const mark = before.at(-1)
  if ((mark === "'" || mark === "’") && LETTER_RE.test(before.at(-2) ?? "")) return undefined
  if (FINAL_ABBREVIATIONS.has(lower)) return { kind: "final", before }
  // The same written with spaces ("u. s. w.") ends a sentence as "usw." does.
  if (lower === "w" && /(?:^|\s)u\.\s*s\.\s*$/i.test(before)) return { kind: "final", before }
  // A unit after a number: "984 ft." is feet, not Fort.
  if (UNIT_ABBREVIATIONS.has(lower) && /\d\s*$/.test(before))
    return { kind: ENGLISH_UNITS.has(lower) ? "final" : "unit", before }
  // Lowercase single letters and dotted forms are abbreviations: "p. 55", "s. oben", "u. Ä.", "e.g.", "z.B.".
  if (FIXED_ABBREVIATIONS.has(lower) || /^\p{Ll}(?:\.\p{L})*$/u.test(token))
    return { kind: "fixed", before, word: token }
  // A capital letter alone is an initial ("Johann S. Bach"), even where "S." could be a page ("S. 14").
  if (/^\p{Lu}$/u.test(token)) return { kind: "initial", before }
  // German street names carry the abbreviation inside the word: "Hafenstr. 12".
  if (NUMBER_ABBREVIATIONS.has(lower) || /\p{L}str$/u.test(lower)) return { kind: "number", before }
  // Days, months, centuries and ranks; a four-digit number is a year or a count and ends sentences.
  if (/^\d{1,3}$/.test(token)) return { kind: "ordinal", before }
  // A regnal number after a name: "Heinrich VIII. Tudor", "Wilhelm II. Er dankte ab".
  if (/^[IVX]{2,5}$/.test(token) && /\p{Lu}\p{Ll}+\s*$/u.test(before)) return { kind: "regnal", before }
  if (/^\p{Lu}(?:\.\p{Lu})+$/u.test(token)) return { kind: "acronym", before }
  return undefined
}

/** A capitalised word that is not a usual sentence opener: after an initial or acronym, the name goes on. */
export function startsLikeName(piece: string): boolean {
  const word = /^\p{Lu}[\p{L}'’-]*/u.exec(piece)?.[0]
  return word !== undefined && !SENTENCE_STARTERS.has(word.toLowerCase())
}

/** The first word of a piece, lowercased. */
function firstWord(piece: string): string {
  return (/^\p{L}[\p{L}'’-]*/u.exec(piece)?.[0] ?? "").toLowerCase()
}

/**
 * A lone lowercase letter before the stop is a variable ending its sentence when a usual opener follows ("stops
 * at index i. Then …", "labeled x. Let …"), unless it is one of a spaced abbreviation ("u. a.") or a letter
 * that abbreviates before such words ("p." page, "v." versus: "Smith v. The State").
 */
function variableEnds(ending: Ending, piece: string): boolean {
  const word = ending.word ?? ""
  if (!/^\p{Ll}$/u.test(word) || word === "p" || word === "v") return false
  if (/(?:^|\s)\p{L}\.\s*$/u.test(ending.before)) return false
  return /^\p{Lu}/u.test(piece) && !startsLikeName(piece)
}

/** ICU broke after a period that follows `ending`; whether the sentence really goes on into `piece`. */
export function continuesAfterPeriod(ending: Ending, piece: string): boolean {
  const lower = /^\p{Ll}/u.test(piece)
  const digit = /^\d/.test(piece)
  switch (ending.kind) {
    case "fixed":
      return !variableEnds(ending, piece)
    case "final":
      // "GmbH & Co. KG" goes on; so does an era that ends a phrase of three words or less ("In 44 B.C. Caesar").
      return lower || /^(?:KG|OHG)\b/.test(piece) || ERA_PHRASE_RE.test(ending.before)
    case "number":
      return lower || digit
    case "ordinal":
      // "am 3. Oktober", "im 19. Jahrhundert", "auf der 35. Kommandeurstagung"; "auf Seite 12. Dort" ends.
      return (
        lower ||
        digit ||
        MONTH_START_RE.test(piece) ||
        ORDINAL_NOUN_START_RE.test(piece) ||
        (BEFORE_ORDINAL_RE.test(ending.before) && startsLikeName(piece))
      )
    case "acronym":
      // A dotted acronym often ends a sentence ("the U.S."): a subject that opens reports ends it too.
      return lower || digit || (startsLikeName(piece) && !SUBJECT_OPENERS.has(firstWord(piece)))
    case "unit":
    case "regnal":
      return lower || digit || startsLikeName(piece)
    case "initial":
      // "Ada K. Lovelace", "J. R. R. Tolkien", "z. B. Wasser"; but "the reviewer and I. Then ..." ends.
      if (lower || digit || /^\p{Lu}\.(?:\s|$)/u.test(piece)) return true
      return startsLikeName(piece) && /(?:\p{Lu}[\p{Ll}'’-]+|\p{L}\.)\s*$/u.test(ending.before)
  }
}
