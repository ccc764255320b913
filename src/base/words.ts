// Word lists made into patterns: a list is written as a list, and one helper turns it into a regular expression.
import { escapeRegExp } from "./text.ts"

/**
 * A pattern source that matches any one of `words`, as a non-capturing group: each word escaped, duplicates
 * dropped, longest first, a blank in a phrase matched by `blank` (a space unless told, `\s+` for text that
 * may wrap). Longest first because an alternation takes the first word that fits: "eine" must come before
 * "ein" wherever nothing after the group holds the match to a whole word.
 */
export function wordPattern(words: readonly string[], { blank = " " }: { blank?: string } = {}): string {
  const longestFirst = [...new Set(words)].sort((a, b) => b.length - a.length)
  return `(?:${longestFirst.map((word) => escapeRegExp(word).replaceAll(" ", blank)).join("|")})`
}
