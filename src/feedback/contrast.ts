// What a contradicted statement gets wrong: the words of the claim the judge's verified quote does not bear out.

/** A claim's wrong part and, where the quote has one in its place, the source's words for it. */
export interface Contrast {
  /** The words of the claim that differ from the source, as the claim writes them. */
  claimPart: string
  /** The source's words in their place, as the quote writes them; undefined when the quote has none. */
  sourcePart: string | undefined
}

/** Words that carry no fact of their own, in English and German: never the wrong part, never its anchor. */
const FILLER = new Set(
  (
    "a an the of in on at to for from by with and or as is are was were be been it its this that these those " +
    "only just there here has have had do does did will would can could may might shall should which who whom whose " +
    "der die das den dem des ein eine einen einem einer eines und oder ist sind war waren wird werden hat " +
    "haben nur es im in am an auf aus bei mit nach von vom zu zum zur für über unter als wie auch"
  ).split(" "),
)

/** Number words a claim may write where the source has digits, or the other way round. */
const NUMBER_WORDS = new Set(
  (
    "zero one two three four five six seven eight nine ten eleven twelve twenty thirty forty fifty hundred " +
    "thousand million billion first second third half null eins zwei drei vier fünf sechs sieben acht neun " +
    "zehn elf zwölf zwanzig dreißig hundert tausend millionen milliarden erste zweite dritte hälfte"
  ).split(" "),
)

/** Words whose presence or absence turns a statement around. */
const NEGATION_WORDS = new Set(
  "not no never none without nicht kein keine keinen keinem keiner nie niemals ohne".split(" "),
)

interface Token {
  text: string
  key: string
  /** Where it stands in the sentence: the first word is capitalised anyway. */
  index: number
}

/** Words and numbers of a text, with the keys they compare by (lower case, no trailing punctuation). */
function tokensOf(text: string): Token[] {
  const found = text.match(/[\p{L}\p{N}_][\p{L}\p{N}_'’.,:%/-]*/gu) ?? []
  return found.map((raw, index) => {
    const word = raw.replace(/[.,:'’-]+$/, "")
    return { text: word, key: word.toLowerCase(), index }
  })
}

/** How telling a differing word is: numbers first, then names, then negations, then other content words. */
function weight(token: Token): number {
  if (/\d/.test(token.key) || NUMBER_WORDS.has(token.key)) return 4
  if (NEGATION_WORDS.has(token.key)) return 3
  if (token.index > 0 && /^\p{Lu}/u.test(token.text)) return 2
  return FILLER.has(token.key) ? 0 : 1
}

/** Whether a word can anchor a contrast: a content word both texts share. */
const anchors = (token: Token | undefined, quoteKeys: ReadonlySet<string>) =>
  token !== undefined && !FILLER.has(token.key) && quoteKeys.has(token.key)

/** How many words beside the anchor read the same in claim and quote, going away from the wrong part. */
function sharedContext(claim: Token[], quote: Token[], claimAt: number, quoteAt: number, away: number): number {
  let n = 0
  while (claim[claimAt + n * away] && claim[claimAt + n * away]?.key === quote[quoteAt + n * away]?.key) n++
  return n
}

/**
 * The source's words in place of the claim's run `[from, to]`: beside a word both share, the quote's
 * differing words on the same side. "Seven bridges span…" against "Freedonia has 3 bridges" gives
 * "Seven bridges" and "3 bridges"; "The capital is Fredville" against "…is Marxburg" gives the two names.
 * Of the places the shared word stands, the one whose surroundings read most like the claim's wins, a content
 * word before a filler.
 */
function counterpart(claim: Token[], quote: Token[], from: number, to: number, claimKeys: ReadonlySet<string>) {
  const differs = (token: Token | undefined) => token !== undefined && !claimKeys.has(token.key) && weight(token) > 0
  const quoteKeys = new Set(quote.map((token) => token.key))
  let best: { score: number; claimSide: Token[]; quoteSide: Token[] } | undefined
  for (const { anchorAt, step } of [
    { anchorAt: to + 1, step: -1 },
    { anchorAt: from - 1, step: 1 },
  ]) {
    const anchor = claim[anchorAt]
    if (!anchor || !quoteKeys.has(anchor.key)) continue
    const content = anchors(anchor, quoteKeys)
    for (const at of quote.flatMap((token, i) => (token.key === anchor.key ? [i] : []))) {
      const run: Token[] = []
      for (let i = at + step; differs(quote[i]) && run.length < 3; i += step) run.push(quote[i] as Token)
      if (run.length === 0) continue
      // A number reads with the word after it ("7 bridges"), so that side goes first among content words.
      const unit = step === -1 && weight(claim[to] as Token) === 4 ? 10 : 0
      const score = (content ? 100 : 0) + unit + sharedContext(claim, quote, anchorAt, at, -step)
      if (best && best.score >= score) continue
      if (step === -1) run.reverse()
      const claimRun = claim.slice(from, to + 1)
      // Each side shows its own spelling of the shared word: the source's words stay the source's.
      const withAnchor = (tokens: Token[], own: Token) =>
        !content ? tokens : step === -1 ? [...tokens, own] : [own, ...tokens]
      best = { score, claimSide: withAnchor(claimRun, anchor), quoteSide: withAnchor(run, quote[at] as Token) }
    }
  }
  if (!best) return undefined
  const words = (tokens: Token[]) => tokens.map((t) => t.text).join(" ")
  return { claimPart: words(best.claimSide), sourcePart: words(best.quoteSide) }
}

/**
 * The part of a contradicted claim the quote does not bear out: its most telling differing word (a number,
 * a negation, a name, then any content word) and the differing words next to it, up to three; with the
 * quote's own words in their place when the two share a word beside them. Undefined when every content word of
 * the claim stands in the quote (a reordering, a paraphrase), or there is no quote.
 */
export function contrastOf(claim: string, quote: string | undefined): Contrast | undefined {
  if (!quote) return undefined
  const claimTokens = tokensOf(claim)
  const quoteTokens = tokensOf(quote)
  const quoteKeys = new Set(quoteTokens.map((token) => token.key))
  const claimKeys = new Set(claimTokens.map((token) => token.key))
  const differing = claimTokens.filter((token) => !quoteKeys.has(token.key) && weight(token) > 0)
  if (differing.length === 0) return undefined
  // The most telling word wins; among equals the first, as the claim reads.
  const best = differing.reduce((top, token) => (weight(token) > weight(top) ? token : top))
  let [from, to] = [best.index, best.index]
  // Only numbers, negations and names join the word: "in 1802" stays "1802", "Fredville Town" stays whole.
  const differs = (token: Token | undefined) => token !== undefined && !quoteKeys.has(token.key) && weight(token) > 1
  while (to - from < 2 && differs(claimTokens[to + 1])) to++
  while (to - from < 2 && differs(claimTokens[from - 1])) from--
  const found = counterpart(claimTokens, quoteTokens, from, to, claimKeys)
  if (found) return found
  const part = claimTokens
    .slice(from, to + 1)
    .map((token) => token.text)
    .join(" ")
  return { claimPart: part, sourcePart: undefined }
}
