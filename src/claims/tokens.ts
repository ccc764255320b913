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
const TOKEN_RE = /(?<!`)`(?!`)[^`\n]{1,400}(?<!`)`(?!`)|\bhttps?:\/\/[^\s<>"`]{1,400}|(?<=[\p{N}_])\.(?=[\p{L}_])/gu

/** The text with every ".", "!" and "?" inside a token replaced by its stand-in. Linear: one pass. */
export function shieldTokens(text: string): string {
  if (!text.includes("`") && !text.includes("://") && !/[\p{N}_]\.[\p{L}_]/u.test(text)) return text
  return text.replace(TOKEN_RE, (token) => {
    if (token === ".") return STAND_IN_OF["."] as string
    // A URL's last character may be the full stop of its sentence: "… see https://x.org/a." ends there.
    const keep = token.startsWith("`") ? token.length : token.search(/[.!?,;:)]*$/)
    return token.slice(0, keep).replace(MARK_RE, (mark) => STAND_IN_OF[mark] as string) + token.slice(keep)
  })
}

/** The text with every stand-in turned back into its mark. */
export function unshieldTokens(text: string): string {
  return text.replace(STAND_IN_RE, (char) => MARK_OF[char] as string)
}
