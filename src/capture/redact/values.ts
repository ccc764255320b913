// Secret values: what looks random or key-like, and what is a placeholder, a reference or plain code.
import {
  ASTERISK,
  BACKTICK,
  CARRIAGE_RETURN,
  CASE_BIT,
  COLON,
  DIGIT_0,
  DIGIT_9,
  DOT,
  DOUBLE_QUOTE,
  EQUALS,
  HYPHEN,
  LINE_FEED,
  LOWER_A,
  LOWER_B,
  LOWER_X,
  LOWER_Z,
  PLUS,
  SINGLE_QUOTE,
  SLASH,
  SPACE,
  TAB,
  TILDE,
  UNDERSCORE,
  UPPER_A,
} from "../../base/chars.ts"
import { wordPattern } from "../../base/words.ts"

export const REDACTED = "[REDACTED]"

export interface SecretRule {
  name: string
  /** Literals of which every match holds one: a cheap `includes` skips the regex for most texts. */
  keyword: string | readonly string[]
  /** A literal the text must hold for the rule to apply at all (tested exactly, unlike the keywords). */
  requires?: string
  re: RegExp
  /** Which part of the match is secret; the rest (a name, a header's scheme, a URL's host) stays readable. */
  replace: (match: string, ...groups: string[]) => string
}

export const isBlank = (code: number) => code === SPACE || code === TAB

export const isQuote = (code: number) => code === DOUBLE_QUOTE || code === SINGLE_QUOTE || code === BACKTICK

/**
 * Stand-ins from documentation and templates rather than credentials: runs of x or *, one character six
 * times, a telling word, an ellipsis, `<your-key>`.
 */
export const PLACEHOLDER_RE =
  /x{5}|X{5}|\*{3}|example|placeholder|change[_-]?(?:me|it)|your[_-]|[_-]here\b|redacted|replace[_-]?me|insert[_-]|\.\.\.|…|<[^<>]{0,64}>/i

/**
 * Words that mark a stand-in only when nothing random comes with them: `somefakekey`, not `rfe-fake-Kq7Zx3…`; a
 * value that says it is invalid (`secret == 'invalid'`, `invalid-token`) is a test's, not a working one.
 */
const STAND_IN_WORD_RE = /fake|dummy|sample|mock|demo|secret|passw|invalid/i

/**
 * Mostly x (`glpat-XXXXXXXXXXX-XXXXXXXX`), one character six times (not `A`), a cycle of a few characters
 * (`GR134894112312312…`), seven letters of the alphabet in a row (`…aBcDeFgH…`) or one block written out twice
 * or more (`1234567890abcdef1234567890abcdef`) is a stand-in too: a token's random part holds none of them, and
 * hex cannot hold the alphabet. One pass for the characters: this runs for every match and every assigned value
 * (and a backreference in PLACEHOLDER_RE would cost the regex its JIT).
 */
export function isPlaceholder(value: string): boolean {
  if (PLACEHOLDER_RE.test(value)) return true
  let run = 1
  let same = 1
  let xs = 0
  for (let i = 0; i < value.length; i++) {
    const code = value.charCodeAt(i)
    const lower = code | CASE_BIT
    if (lower === LOWER_X || code === ASTERISK) xs++
    // Base64 of binary holds runs of `A` (zero bytes): only other characters six times mark a stand-in.
    same = code === value.charCodeAt(i - 1) && code !== UPPER_A ? same + 1 : 1
    run = lower >= LOWER_B && lower <= LOWER_Z && (value.charCodeAt(i - 1) | CASE_BIT) === lower - 1 ? run + 1 : 1
    if (run >= 7 || same >= 6) return true
  }
  if (value.length >= 4 && xs * 2 >= value.length) return true
  return value.length >= 12 && (distinctCount(value.slice(-16)) <= 3 || isRepeatedBlock(value))
}

/** Whether a value is one block of 2 to 32 characters written out twice or more (a last, partial block allowed). */
function isRepeatedBlock(value: string): boolean {
  for (let period = 2; period <= 32 && period * 2 <= value.length; period++) {
    let at = period
    while (at < value.length && value.charCodeAt(at) === value.charCodeAt(at - period)) at++
    if (at === value.length) return true
  }
  return false
}

function distinctCount(text: string): number {
  let seen = ""
  for (const char of text) if (!seen.includes(char)) seen += char
  return seen.length
}

/** For values after a name, also the telling words; a token's own prefix (`sb_secret_`) may hold them. */
export const isStandIn = (value: string) =>
  isPlaceholder(value) || (STAND_IN_WORD_RE.test(value) && !looksRandom(value))

/**
 * For a vendor's own format (a prefix, a length, an alphabet): only the stand-ins documentation writes (x's,
 * `example`, `your_`, `<…>`, an ellipsis, a cycle of two or three characters) or a telling word with nothing
 * random about it (`hf_FakeFakeFake…`) keeps it. Test keys are also written as one letter repeated or the
 * alphabet in order (`sk_live_AAAA…`, `AGE-SECRET-KEY-1QQQQ…`, `tskey-api-AAAA…-BBBB…`, `ntn_…aBcDeFgHiJ…`):
 * nothing but a token has that prefix and length, a real one is never written so, and redacting a fixture
 * costs the judge nothing.
 */
export function isTokenStandIn(value: string): boolean {
  if (PLACEHOLDER_RE.test(value)) return true
  let xs = 0
  for (let i = 0; i < value.length; i++) {
    const code = value.charCodeAt(i)
    if ((code | CASE_BIT) === LOWER_X || code === ASTERISK) xs++
  }
  if (value.length >= 4 && xs * 2 >= value.length) return true
  // A cycle of two or three characters at the end (`GR1348941231231…`); one character is a fixture's run.
  const tail = value.length >= 12 ? distinctCount(value.slice(-16)) : 0
  return tail === 2 || tail === 3 || (TOKEN_STAND_IN_WORD_RE.test(value) && !looksRandom(value))
}

/** Telling words a token's body may hold; not `secret` or `pw`, which prefixes hold (`sb_secret_`, `pscale_pw_`). */
const TOKEN_STAND_IN_WORD_RE = /fake|dummy|sample|mock/i

export const redactToken = (match: string) => (isTokenStandIn(match) ? match : REDACTED)

/** Keeps the first group (a name, a header's scheme) readable and redacts the rest of the match. */
export const redactAfter = (match: string, lead = "") =>
  isPlaceholder(match.slice(lead.length)) ? match : `${lead}${REDACTED}`

/** Keeps the first group and the quotes (second group) around the value (third group), if it is a secret. */
export const redactQuoted = (match: string, lead = "", quote = "", value = "") =>
  isNeverSecret(value) ? match : `${lead}${quote}${REDACTED}${quote}`

/** For shapes that dotted names could take too (`MainWindowController.load.…`): a real token mixes cases and digits. */
export const redactIfMixed = (match: string) =>
  /\d/.test(match) && /[a-z]/.test(match) && /[A-Z]/.test(match) ? redactToken(match) : match

/** Mixed-case letters that form no words: `IFjCFiPCkuTmJoXd…` is random, `getElementsByTagName` is not. */
export function isRandomLetters(value: string): boolean {
  if (value.length < 16 || !/[a-z]/.test(value) || !/[A-Z]/.test(value)) return false
  const wordy = (value.match(/[A-Z]?[a-z]{3,}/g) ?? []).reduce((sum, word) => sum + word.length, 0)
  return wordy < value.length / 2
}

/**
 * Whether a part between separators (`-_.:/+=`) is random: 8 or more characters that mix letters and digits,
 * or 24 or more letters that form no words. Rejects kebab-case words and prose (`sk-ui-button-2xl`).
 */
export function looksRandom(value: string): boolean {
  let start = 0
  let digit = false
  let letter = false
  for (let i = 0; i <= value.length; i++) {
    const code = value.charCodeAt(i)
    if (i < value.length && !isSeparator(code)) {
      if (code >= DIGIT_0 && code <= DIGIT_9) digit = true
      else if ((code | CASE_BIT) >= LOWER_A && (code | CASE_BIT) <= LOWER_Z) letter = true
      continue
    }
    const length = i - start
    if (length >= 8 && digit && letter) return true
    if (length >= 24 && !digit && isRandomLetters(value.slice(start, i))) return true
    start = i + 1
    digit = false
    letter = false
  }
  return false
}

/** `-_.:/+=` */
const isSeparator = (code: number) =>
  code === HYPHEN ||
  code === UNDERSCORE ||
  code === DOT ||
  code === COLON ||
  code === SLASH ||
  code === PLUS ||
  code === EQUALS

/** The text a base64 value encodes, if it is printable text (a key or a random token decodes to binary). */
export function base64Text(value: string): string | undefined {
  if (value.length < 8 || value.length > 4096 || value.length % 4 !== 0 || !/^[A-Za-z0-9+/]+={0,2}$/.test(value))
    return undefined
  let text: string
  try {
    text = atob(value)
  } catch {
    return undefined
  }
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i)
    if ((code < SPACE && code !== TAB && code !== LINE_FEED && code !== CARRIAGE_RETURN) || code > TILDE)
      return undefined
  }
  return text
}

/** Base64 of words and blanks (`ZHVtbXkgdGV4dCBkYXRh…`, "dummy text data"): an encoded label, not key material. */
export function encodesProse(value: string): boolean {
  const text = base64Text(value)
  return text !== undefined && /^[A-Za-z]+(?:[ ,.'-]+[A-Za-z]+)+[ .!\n]*$/.test(text) && text.includes(" ")
}

export const redactIfKeyLike = (match: string) => (looksRandom(match) ? redactToken(match) : match)

/** Values that configure, type or name something; compared lower-cased. */
export const NOT_SECRET_VALUES = new Set([
  ..."true false yes no on off null nil none undefined empty required optional default auto inherit hidden".split(" "),
  ..."masked secret secrets password passwd pass token tokens key keys apikey credentials value values".split(" "),
  ..."string str text number int integer float double bool boolean bytes byte object any array list dict".split(" "),
  ..."map void char binary buffer date time json yaml env self this await async new function return typeof".split(" "),
  ..."lambda def var let const static final public private protected readonly changeme test testing todo".split(" "),
  ..."tbd fixme foo bar baz qux foobar postgres postgresql mysql mariadb redis mongo root admin administrator".split(
    " ",
  ),
  ..."guest user username demo localhost local bearer basic digest oauth oauth2 jwt hmac plain sha256".split(" "),
  ..."hs256 rs256 es256 md5 scram trust ident peer latest next".split(" "),
  // fetch's `credentials: "include"` and `"omit"`
  ..."include omit".split(" "),
])

/**
 * Template, environment and secret-store references: the value lives elsewhere. Each is matched whole, opened
 * and closed (`${{ … }}`, `${var.name}`, `${NAME:-default}`, `{{ … }}`, `{% … %}`, `<% … %>`, `#{…}`): a value that
 * merely holds `{{`, `${` and `}}` among other punctuation (`m{{h}o)p${e]nob…}}`) is a password, not a template.
 */
const REFERENCE_RE =
  /\$\{\{[^{}]{0,200}\}\}|\$\{[\w.:/@!#*?[\]-]{1,200}(?::?[-=?+][^{}]{0,200})?\}|\{\{[^{}]{0,200}\}\}|\{%[^%]{0,200}%\}|<%[^%]{0,200}%>|%\{[^{}]{1,200}\}|#\{[^{}]{1,200}\}|%\([\w.-]+\)[sd]|(?:^|\W)(?:process\.env|import\.meta\.env|os\.environ|getenv|ENV\[|ENV\.fetch|System\.getenv|secrets\.|env\()/

/** A format string's field (`{}`, `{0}`, `{api_key}`), not one of a template's doubled braces. */
const FORMAT_FIELD_RE = /(?:^|[^{$#%])\{([\w.:-]{0,64})\}(?!\})/

/** A reference, or a format field whose name is a name: `{ZqL5kVrX1n8tA2}` in braces is still a value. */
const isReference = (value: string) => {
  if (REFERENCE_RE.test(value)) return true
  const field = FORMAT_FIELD_RE.exec(value)
  return field !== null && !looksRandom(field[1] ?? "")
}

const REFERENCE_HINT_RE = /[{%#]|env|secrets\./i

/** The words a secret's name holds, one of them at least: the assignment scan looks for names by them. */
export const SECRET_WORDS = ["pass", "pwd", "pw", "secret", "token", "key", "cred", "auth", "login"] as const

/** A letters-only value that holds one of them is a name (`PASSWORD`, `apiToken`), not a secret. */
const SECRET_WORDS_RE = new RegExp(wordPattern(SECRET_WORDS), "i")

const PATH_SEGMENT = "(?:[a-z0-9._@-]+|[A-Z][a-z0-9._-]*)"

/** A version or range: `1.2.3`, `^4.17.21`, `>=1.0`, `v2.1.0-rc.1`, `1.x`. */
const VERSION_RE = /^(?:[~^=<>!]=?|v)?\d+(?:\.(?:\d+|x|\*)){1,3}(?:[-+][\w.-]+)?$/

/** A package with its version: `jjwt-jackson-0.11.2`, `pbkdf2-password@1.2.1`. */
const PACKAGE_RE = /^@?[a-z][\w./-]*[-@:=]v?\d+(?:\.\d+)+(?:[-.+][\w.]+)?$/

/**
 * Shapes of whole values that are never secrets, grouped by how they start (only one group is tried): a
 * reference (`$VAR`, `${…}`, Windows' `%VAR%` and `!VAR!`, `!Ref`, `@Microsoft.KeyVault(`, `arn:`); a path or
 * regex literal; a number, duration, size, version or date; a URL (its credentials and query have their own
 * rules); a package specifier or a package with its version; the name of a secret (`DB_PASSWORD`,
 * `db-password`, `prod/db/password`); an e-mail address.
 */
const NEVER_SECRET_SHAPES: ReadonlyArray<readonly [start: RegExp, shapes: readonly RegExp[]]> = [
  [/^\$/, [/^\$(?:[{(\w]|$)/]],
  // The start of a C cast or a dereference read up to its first blank: `(char *) (p + 2)`, `*(char **) argv`.
  [/^\*{0,2}\(/, [/^\*{0,2}\([A-Za-z_]\w{0,40}$/]],
  [/^!/, [/^!(?:Ref|Sub|GetAtt|ImportValue|Join|Select|FindInMap)\b/, /^![A-Za-z_]\w{0,64}!$/]],
  [/^%/, [/^%[A-Za-z_][\w.()-]{0,64}%$/]],
  [/^[/~.]/, [new RegExp(`^(?:~|\\.{1,2})?/${PATH_SEGMENT}(?:/${PATH_SEGMENT})*/?$`), /^\/.+\/[dgimsuy]*$/]],
  [/^@/, [/^@[A-Za-z][\w.]*\(/, PACKAGE_RE]],
  [
    /^[\d~^=<>!-]|^v\d/,
    [
      /^-?\d{1,11}(?:\.\d+)?$/,
      /^\d+(?:\.\d+)?(?:ns|us|ms|s|m|h|d|w|y|[kKmMgGtT]i?[bB]?|%)$/,
      VERSION_RE,
      /^\d{4}-\d{2}-\d{2}(?:[T ][\d:.]+Z?)?$/,
    ],
  ],
  [
    /^[A-Za-z_]/,
    [
      /^[a-zA-Z][a-zA-Z0-9+.-]{1,20}:\/\/\S/,
      /^(?:arn|workspace|npm|file|link|portal|patch|catalog|jsr|github):/,
      /^[A-Za-z]:\\/,
      /^[A-Z][A-Z]*\d{0,2}(?:_[A-Z]+\d{0,2})+$/,
      /^[a-z]+\d{0,2}(?:[-_./:][a-z]+\d{0,2})+$/,
      PACKAGE_RE,
      /^[\w.+-]+@(?:[A-Za-z\d-]+\.)+[A-Za-z]{2,}$/,
    ],
  ],
]

/** Regex syntax inside a value: `\d`, `[A-Z…]`, `(?:`, `{36}`. */
const REGEX_HINT_RE = /\\[dwsbDWSB]|\[\^?[A-Za-z0-9]-[A-Za-z0-9][^\]]{0,64}\]|\(\?[:=!<]|\{\d+(?:,\d*)?\}/

/**
 * A Google app password as Google shows it, four groups of four letters (`qwrt zxcv mnbv lkjh`): the one value
 * with blanks behind a password's name that is no prose. One group at least holds no vowel, as random letters
 * mostly do and words do not (`pass word goes here` stays).
 */
export const isAppPassword = (value: string) =>
  value.length === 19 &&
  /^[a-z]{4}(?: [a-z]{4}){3}$/.test(value) &&
  value.split(" ").some((group) => !/[aeiou]/.test(group))

const LETTER_OR_DIGIT_RE = /[\p{L}\p{N}]/u

export function isNeverSecret(raw: string): boolean {
  const quoted = isQuote(raw.charCodeAt(0)) || isQuote(raw.charCodeAt(raw.length - 1))
  const value = quoted ? raw.replace(/^["'`]|["'`]$/g, "") : raw
  if (value.length < 4 || value.includes(REDACTED) || /\s/.test(value)) return true
  if ((value.length <= 14 && NOT_SECRET_VALUES.has(value.toLowerCase())) || isStandIn(value)) return true
  // Punctuation alone (`,.:-¨@*¿?!`, `----`) is a separator or a parser's test: a keyboard's row of symbols is as
  // guessable as the defaults above, and a credential holds a letter or a digit.
  if (!LETTER_OR_DIGIT_RE.test(value)) return true
  // Random letters may hold a secret word by chance (`…fPwk…`): only a wordy run is a name.
  if (/^[A-Za-z]+$/.test(value)) return SECRET_WORDS_RE.test(value) && !isRandomLetters(value)
  const group = NEVER_SECRET_SHAPES.find(([start]) => start.test(value))
  if (group?.[1].some((shape) => shape.test(value))) return true
  if (REFERENCE_HINT_RE.test(value) && isReference(value)) return true
  return /[\\[({]/.test(value) && REGEX_HINT_RE.test(value)
}

export function isSecretHeaderValue(value: string): boolean {
  return (/[\d+/=._~-]/.test(value) || value.length >= 20) && !isNeverSecret(value)
}
