// The relevance gate: a statement that shares no term with the sources goes to no judge in normal mode.

import { wordPattern } from "../base/words.ts"
import { READ_LINE_PREFIX_RE } from "../capture/evidence.ts"
import type { Claim } from "../state/shapes.ts"
import { readProcessClaim } from "./process-claim.ts"

/**
 * Words that name nothing a source could be about: articles, pronouns, auxiliaries, prepositions,
 * conjunctions and the commonest adverbs, English and German, written folded (lower case, no umlauts). Words
 * that point back ("it", "this", "sie") are among them: what they point to is in the sentences before.
 */
const STOP_WORDS = new Set([
  ...["a", "an", "the", "this", "that", "these", "those", "it", "its", "it's", "they", "them", "their", "theirs"],
  ...["he", "him", "his", "she", "her", "hers", "we", "us", "our", "ours", "you", "your", "yours", "i", "me", "my"],
  ...["mine", "one", "ones", "itself", "themselves", "myself", "ourselves", "yourself", "who", "whom", "whose"],
  ...["which", "what", "when", "where", "why", "how", "there", "here", "then", "than", "so", "such", "very"],
  ...["is", "are", "was", "were", "be", "been", "being", "am", "do", "does", "did", "done", "doing", "have", "has"],
  ...["had", "having", "can", "could", "will", "would", "shall", "should", "may", "might", "must", "not", "no"],
  ...["nor", "and", "or", "but", "if", "else", "because", "as", "of", "at", "by", "for", "with", "without", "about"],
  ...["into", "onto", "in", "on", "to", "from", "up", "down", "out", "off", "over", "under", "again", "further"],
  ...["once", "all", "any", "both", "each", "few", "more", "most", "other", "some", "own", "same", "too", "only"],
  ...["just", "also", "now", "still", "yet", "already", "even", "ever", "never", "always", "often", "well", "via"],
  ...["let", "let's", "like", "into", "upon", "while", "during", "before", "after", "above", "below", "between"],
  ...["through", "against", "among", "per", "whether", "either", "neither", "however", "therefore", "thus"],
  ...["instead", "rather", "quite", "really", "actually", "basically", "simply", "indeed", "yes", "ok", "okay"],
  ...["der", "die", "das", "dem", "den", "des", "ein", "eine", "einer", "eines", "einem", "einen", "es", "er"],
  ...["sie", "ihr", "ihre", "ihren", "ihrem", "ihrer", "ihres", "ihn", "ihm", "wir", "uns", "unser", "unsere"],
  ...["ich", "mich", "mir", "mein", "meine", "du", "dich", "dir", "dein", "deine", "sein", "seine", "seinen"],
  ...["seinem", "seiner", "man", "sich", "dies", "diese", "dieser", "dieses", "diesem", "diesen", "jene", "jener"],
  ...["ist", "sind", "war", "waren", "bin", "bist", "seid", "wird", "werden", "wurde", "wurden", "worden", "hat"],
  ...["haben", "hatte", "hatten", "kann", "konnen", "konnte", "soll", "sollte", "sollen", "muss", "mussen"],
  ...["darf", "durfen", "will", "wollen", "mochte", "und", "oder", "aber", "doch", "denn", "weil", "wenn", "als"],
  ...["ob", "dass", "da", "dann", "so", "wie", "was", "wer", "wo", "wann", "warum", "nicht", "kein", "keine"],
  ...["keinen", "nur", "auch", "noch", "schon", "sehr", "hier", "dort", "jetzt", "nun", "mit", "von", "vom", "zu"],
  ...["zum", "zur", "bei", "beim", "nach", "vor", "auf", "aus", "an", "am", "im", "in", "ins", "um", "uber"],
  ...["unter", "fur", "gegen", "ohne", "durch", "bis", "seit", "wahrend", "zwischen", "also", "dabei", "damit"],
  ...["dazu", "davon", "darin", "daran", "darauf", "deshalb", "daher", "jedoch", "etwa", "ja", "nein", "alle"],
  ...["allen", "aller", "alles", "jede", "jeder", "jedes", "jeden", "einige", "mehr", "viel", "viele", "selbst"],
  ...["eben", "gerade", "immer", "nie", "wieder", "bereits", "ganz", "eigentlich", "wirklich", "zwar", "sowie"],
  // What is left of a contraction once its apostrophe splits it: "don't" gives "don".
  ...["don", "doesn", "didn", "isn", "aren", "wasn", "weren", "won", "wouldn", "shouldn", "couldn", "hasn"],
  ...["haven", "hadn", "ll", "ve", "re"],
])

/** Word endings folded off, longest first, so "retries", "retried" and "retry" or "Dateien" and "Datei" meet. */
const ENDINGS: ReadonlyArray<readonly [string, string]> = [
  ["ies", "y"],
  ["ied", "y"],
  ["ing", ""],
  ["es", ""],
  ["ed", ""],
  ["en", ""],
  ["er", ""],
  ["s", ""],
  ["e", ""],
  ["n", ""],
]

/** Shorter stems are not cut further: "is", "bus" and "use" keep enough of themselves to mean something. */
const MIN_STEM = 3

/** A run of letters, digits and the joints of names, paths and numbers (`src/a.ts`, `max_retries`, `1.5`). */
const TERM_RE = /[\p{L}\p{N}][\p{L}\p{N}_.,/\\'’-]*/gu

/** A number as written: digits with separators, a decimal part, a version's dots. */
const NUMBER_RE = /^\d[\d_,.]*$/

/**
 * The words inside a name: a capitalised or lower-case run, an acronym before the next capital
 * (`HTTPServer` → HTTP, Server), a run of digits (`sha256` → sha, 256).
 */
const NAME_PART_RE = /\p{Lu}+(?!\p{Ll})|\p{Lu}?\p{Ll}+|\p{N}+|\p{L}+/gu

/** Case, umlauts and accents folded: "Größe" and "grosse", "Café" and "cafe" are one word. */
function fold(word: string): string {
  const lower = word.toLowerCase()
  const plain = !/\P{ASCII}/u.test(lower)
    ? lower
    : lower.replace(/ß/g, "ss").normalize("NFD").replace(/\p{M}/gu, "").replace(/[’]/g, "'")
  // German written without umlauts ("Groesse", "Uebersicht") meets the same word written with them.
  return plain.replace(/([aou])e(?=[a-z])/g, "$1")
}

/**
 * A folded word with its plural, tense or German inflection cut off, again until nothing more comes off, so
 * that every form ends at the same stem: "Häusern" → "hauser" → "haus" → "hau", as "Haus" → "hau".
 */
function stem(word: string): string {
  let stemmed = word
  for (;;) {
    const ending = ENDINGS.find(
      ([suffix, put]) => stemmed.endsWith(suffix) && stemmed.length - suffix.length + put.length >= MIN_STEM,
    )
    if (!ending || (ending[0] === "s" && stemmed.endsWith("ss"))) break
    stemmed = stemmed.slice(0, stemmed.length - ending[0].length) + ending[1]
  }
  return stemmed
}

/**
 * A number as a number: "10,000", "10_000" and "10000" are one; "1.5" and "1,5" are one; a version or a
 * date keeps its dots ("3.2.1") and also gives each of its parts, so "version 3" meets "3.2.1".
 */
function numberTerms(token: string, into: Set<string>) {
  const digits = token.replace(/[.,]+$/, "").replace(/_/g, "")
  const grouped = /^\d{1,3}(?:([,.])\d{3})(?:\1\d{3})*$/.exec(digits)
  if (grouped) {
    into.add(`#${digits.replace(/[,.]/g, "")}`)
    return
  }
  const parts = digits.split(/[.,]/).filter(Boolean)
  if (parts.length === 2) into.add(`#${Number(`${parts[0]}.${parts[1]}`)}`)
  else if (parts.length !== 2) into.add(`#${parts.join(".")}`)
  for (const part of parts) into.add(`#${Number(part)}`)
}

/** The words of one token: split at path and name joints and camelCase, each folded and stemmed. */
function wordTerms(token: string, into: Set<string>) {
  for (const piece of token.split(/[_./\\,'’-]+/)) {
    for (const part of piece.match(NAME_PART_RE) ?? []) {
      if (/^\d+$/.test(part)) {
        into.add(`#${Number(part)}`)
        continue
      }
      const word = fold(part)
      if (word.length < 2 || STOP_WORDS.has(word)) continue
      into.add(stem(word))
    }
  }
}

/** Adds the terms of a text to a set: identifiers, numbers, paths, names and content words, normalised. */
function addTerms(text: string, into: Set<string>) {
  // A token seen before in the same text adds nothing new: code that repeats its names costs one lookup each.
  const seen = new Set<string>()
  for (const match of text.matchAll(TERM_RE)) {
    if (seen.has(match[0])) continue
    seen.add(match[0])
    const token = match[0].replace(/[.,'’]+$/, "")
    if (NUMBER_RE.test(token)) numberTerms(token, into)
    else wordTerms(token, into)
  }
}

export function termsOf(text: string): Set<string> {
  const terms = new Set<string>()
  addTerms(text, terms)
  return terms
}

/**
 * The terms of what the judge would see, gathered once per reply: the gate then costs one set lookup per word
 * of a statement, however many statements the reply has. The sources (files read, pages fetched, output kept)
 * and the lines of the session's tool calls are kept apart: a call's line says what was run or changed, not
 * what a file or page holds, so it speaks only to a statement about the session's own work.
 */
export interface SourceIndex {
  sources: ReadonlySet<string>
  calls: ReadonlySet<string>
}

/** The index of one reply's evidence. opencode's `12: ` line numbers are no term. */
export function indexSources(texts: readonly string[], callLines: readonly string[] = []): SourceIndex {
  const sources = new Set<string>()
  for (const text of texts) addTerms(text.replace(READ_LINE_PREFIX_RE, ""), sources)
  const calls = new Set<string>()
  for (const line of callLines) addTerms(line, calls)
  return { sources, calls }
}

/**
 * Whether any source could bear on a statement: a term of it, or of the sentences before it (which give "it",
 * "the default" or a list item its subject), stands in the sources. One that shares nothing can only be
 * answered faithful or unverifiable, never contradicted with the sources' words, so in normal mode it costs no
 * request. The sentences before always count: a German statement about English sources ("Typdeklarationen
 * werden erzeugt." against `"declaration": false`) shares no word with them, only its neighbours do.
 * `referent` counts them only for a statement that takes its subject from them (bench/relevance.ts compares).
 * The tool calls' lines count only for a statement about the work itself (`reportsWork`): "I ran the parser
 * tests" may meet its command, "The parser keeps comments" meets nothing in `grep -n comment parser.py`.
 */
export function speaksTo(index: SourceIndex, claim: Claim, context: "always" | "referent" = "always") {
  const text = claim.raw ?? claim.text
  const own = termsOf(text)
  const work = index.calls.size > 0 && reportsWork(text)
  const meets = (terms: ReadonlySet<string>) => {
    for (const term of terms) if (index.sources.has(term) || (work && index.calls.has(term))) return true
    return false
  }
  if (meets(own)) return true
  if (!claim.before) return false
  if (context === "referent" && !takesReferent(claim.text, own)) return false
  return meets(termsOf(claim.before))
}

/** Past forms that do not end in -ed, which an agent uses of its own work. */
const IRREGULAR_DONE = [
  ...["ran", "wrote", "made", "built", "found", "read", "did", "put", "set", "took", "kept", "left", "gave"],
  ...["began", "got", "saw", "rebuilt", "reran", "rewrote", "undid", "split", "cut", "ran", "done"],
] as const

/**
 * A statement about what the session did, which a tool call's line can speak to: the agent of itself ("I
 * added …", "We ran …", "Ich habe … ausgeführt"), a report that opens with what was done ("Ran …",
 * "Committed …"), a passive one ("`x` was updated"), or a run's outcome (tests or a build that pass or fail, a
 * command's exit code). Anything else names what a file or page holds, which a command line does not show.
 */
const WORK_RE = new RegExp(
  [
    String.raw`^(?:i|we)(?:['’]ve)?\s+(?:(?:also|then|now|just|already|have|had|first|finally)\s+){0,2}(?:\p{L}+(?<!e)ed|${wordPattern(IRREGULAR_DONE)})\b`,
    String.raw`^(?:ich|wir)\s+(?:habe|haben|hab)\b`,
    String.raw`^(?:\p{Lu}\p{Ll}+(?<!e)ed|${wordPattern(IRREGULAR_DONE.map((word) => word[0]?.toUpperCase() + word.slice(1)))})\b`,
    String.raw`\b(?:was|were|has been|have been|got|wurde|wurden|ist|sind)\s+(?:\p{L}+\s+)?(?:\p{L}+(?<!e)ed|${wordPattern(IRREGULAR_DONE)}|ge\p{L}+t|ge\p{L}+en)\b`,
    String.raw`\b(?:tests?|specs?|build|suite|checks?|lint|tsc|compil\p{L}*|run|command|script|exit(?:ed)?|exit code|Tests?|Build)\b[^.]{0,60}\b(?:pass\p{L}*|fail\p{L}*|succeed\p{L}*|green|red|errors?|broke\p{L}*|crash\p{L}*|durch|grün|rot|fehl\p{L}*)\b`,
  ].join("|"),
  "iu",
)

/** Whether a statement reports the session's own work, the only kind a tool call's line can contradict. */
export function reportsWork(text: string): boolean {
  return WORK_RE.test(text.replace(/`/g, "")) || readProcessClaim(text) !== undefined
}

/** Definite articles and demonstratives that open a statement whose subject an earlier sentence named. */
const DEFINITE_OPENERS = new Set(["the", "der", "die", "das", "dem", "den", "des", "this", "that", "these", "those"])

/**
 * Whether a statement takes its subject from the sentences before: it points back, opens with a definite
 * article ("The function returns null."), or names nothing of its own but numbers.
 */
function takesReferent(text: string, own: ReadonlySet<string>): boolean {
  const first = /[\p{L}']+/u.exec(text)?.[0]
  if (first && DEFINITE_OPENERS.has(fold(first))) return true
  if ([...own].every((term) => term.startsWith("#"))) return true
  return pointsBack(text)
}

/**
 * Words that take their referent from the sentences before: pronouns, demonstratives, "here", "the same",
 * German da-compounds. A statement with one of them means something else after other sentences.
 */
const POINTING_WORDS = new Set([
  ...["it", "its", "itself", "this", "that", "these", "those", "they", "them", "their", "theirs", "themselves"],
  ...["he", "him", "his", "she", "her", "hers", "here", "there", "such", "same", "former", "latter", "above"],
  ...["below", "both", "either", "neither", "one", "ones", "es", "er", "sie", "ihr", "ihre", "ihren", "ihrem"],
  ...["ihrer", "ihres", "ihn", "ihm", "sein", "seine", "seinen", "seinem", "seiner", "seines", "dies", "diese"],
  ...["dieser", "dieses", "diesem", "diesen", "jene", "jener", "jenes", "jenem", "jenen", "dort", "hier", "solche"],
  ...["solcher", "solches", "solchen", "dabei", "damit", "dazu", "davon", "darin", "daran", "darauf", "dafur"],
  ...["dagegen", "daraus", "daruber", "danach", "dadurch", "derselbe", "dieselbe", "dasselbe", "beide", "beiden"],
])

/** German articles that open a sentence as pronouns do: "Die gibt null zurück.", "Das ist falsch." */
const OPENING_ARTICLES = new Set(["der", "die", "das", "dem", "den", "des"])

/** Whether a statement leans on the sentences before it for what it is about. */
export function pointsBack(text: string): boolean {
  const words = [...text.matchAll(/[\p{L}']+/gu)].map((match) => fold(match[0]))
  if (OPENING_ARTICLES.has(words[0] ?? "") && words[1] !== undefined && !/^\p{Lu}/u.test(text.split(/\s+/)[1] ?? "")) {
    return true
  }
  return words.some((word) => POINTING_WORDS.has(word) || POINTING_WORDS.has(word.replace(/'s$/, "")))
}
