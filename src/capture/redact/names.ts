// Secret-named keys: how strongly a name says its value is a secret, in any spelling.
import {
  AMPERSAND,
  AT_SIGN,
  BACKSLASH,
  BACKTICK,
  BANG,
  CARRIAGE_RETURN,
  CASE_BIT,
  CLOSE_BRACKET,
  DIGIT_0,
  DIGIT_9,
  DOLLAR,
  DOT,
  DOUBLE_QUOTE,
  EQUALS,
  HYPHEN,
  LINE_FEED,
  LOWER_A,
  LOWER_E,
  LOWER_S,
  LOWER_Z,
  SINGLE_QUOTE,
  UNDERSCORE,
  UPPER_A,
  UPPER_Z,
} from "../../base/chars.ts"
import { wordPattern } from "../../base/words.ts"
import { isBlank, isQuote, SECRET_WORDS } from "./values.ts"

export const WEAK = 1

export const STRONG = 2

/**
 * A personal access token's name (`GITHUB_PAT`, `ado-pat`): `pat` after `_` or `-` and before no letter, so that
 * `file_path` and `url_pattern` are no hit. The lookahead stands in no repeated group (see vendors.ts).
 */
const PAT_WORD = "[_-]pat(?![a-z])"

/** A call that takes a password though its name holds no secret word: `DriverManager.getConnection(url, user, …)`. */
const CALL_WORD = "getConnection"

/**
 * Where a secret's name may be: at one of the secret words. A hit takes the rest of its identifier too, so a
 * long one (`SECRET_TOKEN_SECRET_…`) is one hit, not one every few bytes.
 */
export const SECRET_NAME_RE = new RegExp(`(?:${wordPattern(SECRET_WORDS)}|${PAT_WORD}|${CALL_WORD})[\\w.-]*`, "gi")

const NAME_MAX = 80

/** The secret words as parts of a name; `secrete` and `secreto` as detect-secrets' keyword list has them. */
const STRONG_PARTS = new Set(
  "password passwd passphrase pass pwd pw secret secrete secreto token credential credentials creds apikey pat".split(
    " ",
  ),
)

/** `*_KEY` is a secret when a qualifier says so (`api_key`, `secret_key`); a bare `key` when its value looks random. */
export const KEY_QUALIFIERS = new Set(
  [
    "api access secret private signing sign encryption encrypt crypto cipher master account storage app",
    "application client consumer license licence subscription auth service shared session admin root webhook",
    "deploy ssh gpg pgp aes hmac jwt rsa ecdsa dsa ed25519 server partner merchant developer write management",
    "live prod production otp totp mfa recovery cookie sas bot",
  ]
    .join(" ")
    .split(" "),
)

/**
 * Parts after the secret word that describe the secret instead of holding it: `TOKEN_URL`, `PASSWORD_FILE`; a
 * key's hash or fingerprint (`issuerKeyHash`) is made to be shown.
 */
const NOT_SECRET_SUFFIXES = new Set(
  [
    "id ids name names file files path paths dir directory folder url urls uri endpoint host hostname port type",
    "types kind len length size count ttl expiry expires expiration exp timeout age lifetime duration interval",
    "seconds secs sec minutes mins hours days ms pattern patterns regex regexp re format prefix suffix header",
    "headers field fields param params parameter env var variable version mode enabled enable disabled required",
    "policy limit limits hint label placeholder min max error errors message msg status description desc help",
    "title text ref reference arn index column col table schema input button form view page route handler",
    "provider manager store storage class factory builder validator generator strategy source location",
    "algorithm alg scheme encoding usage scope scopes audience issuer stdin prompt command cmd rotation rule",
    "rules list template strength score visible visibility toggle icon at date time timestamp cache config",
    "options opts settings chars charset alphabet username user login email event down up press pressed",
    "hash hashes digest checksum fingerprint thumbprint",
  ]
    .join(" ")
    .split(" "),
)

/** Parts before it that do the same: `public_key`, `max_tokens`, `next_page_token`, `showPassword`. */
const NOT_SECRET_PREFIXES = new Set(
  "public pub publishable max min num no is has use show hide allow require forgot page next continuation cancellation sync pagination resume primary foreign partition sort natural sequence schema bucket csrf xsrf authenticity".split(
    " ",
  ),
)

export function nameParts(name: string): string[] {
  return name
    .replace(/([a-z\d])([A-Z])/g, "$1 $2")
    .replace(/([A-Z]+)([A-Z][a-z])/g, "$1 $2")
    .toLowerCase()
    .split(/[^a-z\d]+/)
    .filter(Boolean)
}

export function partStrength(name: string, previous = ""): number {
  // A count or version after the word says nothing: `token2`, `sumoKey1`, `password_v2`.
  const part = name.replace(/\d+$/, "")
  if (STRONG_PARTS.has(part)) return STRONG
  // A login is a user name as often as a token: only a value that looks random (`SONAR_LOGIN=…`).
  if (part === "login") return WEAK
  if (part === "key") return KEY_QUALIFIERS.has(previous) ? STRONG : WEAK
  if (part === "auth") return WEAK
  // Run together: dbpassword, clientsecret, accesstoken, apikey, secretkey, acrpwd; not Django's `csrftoken`,
  // which the prefixes keep apart (`csrf_token`) too.
  if (/(?:password|passwd|secret|token|pwd)$/.test(part)) return /^[cx]srf/.test(part) ? 0 : STRONG
  if (!part.endsWith("key")) return 0
  const head = part.slice(0, -3)
  return [...KEY_QUALIFIERS].some((qualifier) => head.endsWith(qualifier)) ? STRONG : 0
}

/** How telling a name is: the last secret word in it decides, unless a part around it says it is about the secret. */
export function nameStrength(name: string): number {
  if (name === "_auth") return STRONG // .npmrc: base64 of user:password
  const parts = nameParts(name)
  for (let i = parts.length - 1; i >= 0; i--) {
    const strength = partStrength(parts[i] ?? "", parts[i - 1])
    if (!strength) continue
    if (parts.slice(i + 1).some((part) => NOT_SECRET_SUFFIXES.has(part))) return 0
    return parts.slice(0, i).some((part) => NOT_SECRET_PREFIXES.has(part)) ? 0 : strength
  }
  return 0
}

export interface Name {
  start: number
  end: number
  text: string
  strength: number
  /** The quote the name stands in (`"password":`, `define('DB_PASSWORD', …)`), escaped in JSON-in-a-string. */
  quote: string
  /** `<password>…</password>` */
  element: boolean
  /** The name is itself the value of a name field: `key="Password" value="…"`, `- name: DB_PASSWORD`. */
  keyField: boolean
  /** After `?` or `&`: a URL's query. */
  query: boolean
}

/** `A-Z a-z _ &`: what may start a type or a word after a name (`&str`); read as a code, not a one-letter string. */
export const isWordStart = (code: number) =>
  (code >= UPPER_A && code <= UPPER_Z) ||
  (code >= LOWER_A && code <= LOWER_Z) ||
  code === UNDERSCORE ||
  code === AMPERSAND

export const isNameChar = (code: number) =>
  (code >= DIGIT_0 && code <= DIGIT_9) ||
  (code >= UPPER_A && code <= UPPER_Z) ||
  (code >= LOWER_A && code <= LOWER_Z) ||
  code === UNDERSCORE ||
  code === DOT ||
  code === HYPHEN

/** A closing quote, an escaping backslash or `]` (`ENV["TOKEN"]`) between a name and its operator. */
const isCloser = (code: number) =>
  code === DOUBLE_QUOTE || code === SINGLE_QUOTE || code === BACKTICK || code === BACKSLASH || code === CLOSE_BRACKET

/** Fields whose value names something: `name=`, `key="`, `"name": "`, `- name: `, `for="`, `autocomplete="`. */
const NAME_FIELDS: readonly string[] =
  "name key id for type variable var env param parameter field property setting option arg autocomplete".split(" ")

/** What may stand between a line's start and a dotenv, shell, YAML or INI name. */
const LINE_LEAD_RE = /^[ \t]*(?:(?:export|set|setenv|declare[ \t]+-x|ENV|readonly|local)[ \t]+|-[ \t]+)?[$@]?$/

export function isLineStart(text: string, start: number): boolean {
  // Most names follow a quote, a bracket or an operator: no line's lead can end in those.
  let before = start - 1
  while (before >= 0 && isBlank(text.charCodeAt(before))) before--
  const code = text.charCodeAt(before)
  if (
    before >= 0 &&
    code !== LINE_FEED &&
    code !== CARRIAGE_RETURN &&
    code !== HYPHEN &&
    code !== DOLLAR &&
    code !== AT_SIGN &&
    !isNameChar(code)
  )
    return false
  let from = start
  while (from > 0 && start - from < 40 && text[from - 1] !== "\n" && text[from - 1] !== "\r") from--
  if (from > 0 && text[from - 1] !== "\n" && text[from - 1] !== "\r") return false
  return from === start || LINE_LEAD_RE.test(text.slice(from, start))
}

const FIELDS_BY_LENGTH: ReadonlyArray<readonly string[]> = Array.from({ length: 16 }, (_, length) =>
  NAME_FIELDS.filter((field) => field.length === length),
)

/** Whether a name is a name field itself (`key`, `Key`): its quoted value may name a secret whose value follows. */
export function isNameField(name: string): boolean {
  if (name.length > 12) return false
  const fields = FIELDS_BY_LENGTH[name.length] ?? []
  for (const field of fields) if (isWordAt(name, 0, field)) return true
  return false
}

/** Where `=` or `:` stands before the name (past its quote and blanks), or -1: then it may be a field's value. */
function fieldOperatorBefore(text: string, start: number): number {
  let at = start - 1
  if (isCloser(text.charCodeAt(at))) at--
  while (at > 0 && start - at < 8 && isBlank(text.charCodeAt(at))) at--
  return text[at] === "=" || text[at] === ":" ? at : -1
}

const followsField = (text: string, start: number) => fieldOperatorBefore(text, start) >= 0

/** Whether the name is the value of a name field (`key="Password"`): read back past the operator to the field. */
function isNameFieldValue(text: string, start: number): boolean {
  let end = fieldOperatorBefore(text, start)
  if (end < 0) return false
  while (end > 0 && isBlank(text.charCodeAt(end - 1))) end--
  if (text[end - 1] === '"' || text[end - 1] === "'") end--
  let from = end
  while (from > 0 && end - from < 16 && ((text.charCodeAt(from - 1) | CASE_BIT) - LOWER_A) >>> 0 < 26) from--
  if (from > 0 && isNameChar(text.charCodeAt(from - 1)) && text[from - 1] !== "-") return false
  if (text[from - 1] === "$") return false // PowerShell's $env:API_KEY = … is an assignment, not a field
  // Compared in place: a substring, lower-cased and looked up, costs more than the rest of the name read.
  const fields = FIELDS_BY_LENGTH[end - from] ?? []
  for (const field of fields) if (isWordAt(text, from, field)) return true
  return false
}

/** Whether `word` (lower case) stands at `at`, in any case. */
function isWordAt(text: string, at: number, word: string): boolean {
  for (let i = 0; i < word.length; i++) if ((text.charCodeAt(at + i) | CASE_BIT) !== word.charCodeAt(i)) return false
  return true
}

/**
 * Whether anything that could join this name to a value follows it: an operator or `>` after an optional
 * closing quote and blanks, a comparison or a call, a line break after a name field, or a word after a flag, a
 * name field or Go's `var`/`const`. Most hits in ordinary text (`keyboard`, prose) stop here, after a few reads.
 */
function mayAssign(text: string, start: number, end: number): boolean {
  let at = end
  for (let n = 0; n < 3 && isCloser(text.charCodeAt(at)); n++) at++
  while (at - end < 84 && isBlank(text.charCodeAt(at))) at++
  const c = text[at] ?? ""
  // `(`: a call (setPassword("…"), HTTPBasicAuth(…)); `!=`: a comparison. calls.ts reads both.
  if (c === "=" || c === ":" || c === "," || c === ";" || c === ">" || c === "(") return true
  if (c === "!") return text[at + 1] === "="
  // A lookup's result compared: `headers.get("X-Api-Key") == "…"`.
  if (c === ")" && isComparisonAfter(text, at + 1)) return true
  if (c === "?" || c === "|" || c === "." || c === "<") return operatorAt(text, at) !== ""
  if (c === "\n" || c === "\r") return followsField(text, start)
  if (c === "{") return isTerraformVariable(text, start) // variable "db_password" { … default = …
  if (text[start] === "-") return c !== "" && c !== "-" && at > end // a flag's argument
  if (isComparedFromBefore(text, start)) return true
  if (!isWordStart(text.charCodeAt(at))) return false
  if ((c === "v" || c === "V") && followsField(text, start)) return true
  return text.startsWith("var ", start - 4) || text.startsWith("const ", start - 6)
}

/** Whether `==`, `===`, `!=` or `!==` follows, after blanks. */
function isComparisonAfter(text: string, from: number): boolean {
  let at = from
  while (at - from < 8 && isBlank(text.charCodeAt(at))) at++
  return (text[at] === "=" || text[at] === "!") && text[at + 1] === "="
}

/** `"…" == password`, `"…".equals(password)`: whether a comparison may stand before the name (calls.ts reads it). */
function isComparedFromBefore(text: string, start: number): boolean {
  let at = start - 1
  while (at > 0 && start - at < 6 && isBlank(text.charCodeAt(at))) at--
  const before = text.charCodeAt(at - 1)
  // `equals(`, `equalsIgnoreCase(`; `==`, `!=`
  if (text[at] === "(") return before === LOWER_S || before === LOWER_E
  return text[at] === "=" && (before === EQUALS || before === BANG)
}

/** Whether the name (its quote at `start - 1`) is a Terraform variable's: `variable "db_password" {`. */
export const isTerraformVariable = (text: string, start: number) =>
  text[start - 1] === '"' && /\bvariable[ \t]+$/.test(text.slice(Math.max(0, start - 13), start - 1))

/** How telling each name read so far is; the last one is checked in place first, as repeats come in a row. */
export interface Strengths {
  last: string
  lastStrength: number
  known: Map<string, number>
}

/** A name or value lower-cased, letters and digits only: how repeatsName compares them. */
export const spelled = (text: string) => text.toLowerCase().replace(/[^a-z\d]/g, "")

function strengthAt(text: string, start: number, end: number, memo: Strengths): number {
  if (memo.last.length === end - start && text.startsWith(memo.last, start)) return memo.lastStrength
  memo.last = text.slice(start, end)
  memo.lastStrength = memo.known.get(memo.last) ?? nameStrength(memo.last)
  memo.known.set(memo.last, memo.lastStrength)
  return memo.lastStrength
}

/**
 * The name that a hit of SECRET_NAME_RE ends (at `runEnd`, the end of its identifier), read back no further
 * than `from`; or where to go on: past a long identifier, or past this one. `isCall` says whether a name that
 * holds no secret is a call that takes one all the same.
 */
export function readName(
  text: string,
  from: number,
  runEnd: number,
  strengths: Strengths,
  isCall: (text: string, start: number, end: number) => boolean = () => false,
): Name | number {
  let start = runEnd
  while (start > from && runEnd - start <= 2 * NAME_MAX && isNameChar(text.charCodeAt(start - 1))) start--
  let end = runEnd
  if (end - start > 2 * NAME_MAX) return end
  while (end > start && (text[end - 1] === "." || text[end - 1] === "-")) end--
  if (!mayAssign(text, start, end)) return end
  const strength = strengthAt(text, start, end, strengths)
  // A credential call takes a password whatever its receiver says (`DriverManager.getConnection(`, `page.login(`).
  if (!strength && !(text[end] === "(" && isCall(text, start, end))) return end
  const before = text.charCodeAt(start - 1)
  let quote = before === DOUBLE_QUOTE || before === SINGLE_QUOTE || before === BACKTICK ? (text[start - 1] ?? "") : ""
  if (quote === '"' && text[start - 2] === "\\") quote = '\\"'
  // Only a quote that closes after the name makes it a quoted name: `"API_KEY=…` inside a string is not one.
  if (quote && !text.startsWith(quote, end)) quote = ""
  // Nor is a name that a quote opens before or an `=` follows the value of a name field: `env: "API_KEY=…"`,
  // `--env=API_KEY=…` are assignments inside the field's value.
  const inValue = (quote === "" && isQuote(before)) || text[end] === "="
  return {
    start,
    end,
    text: strengths.last,
    strength,
    quote,
    element: text[start - 1] === "<",
    keyField: !inValue && isNameFieldValue(text, start),
    query: text[start - 1] === "?" || text[start - 1] === "&",
  }
}

/** The operator at `at`: `=`, `:`, `:=`, `::=`, `:::=`, `?=`, `?:`, `.=`, `??=`, `||=`, `=>`, `<-`; never `==`, `=~`, `::`. */
export function operatorAt(text: string, at: number): string {
  const next = text[at + 1]
  switch (text[at]) {
    case "=":
      return next === ">" ? "=>" : next === "=" || next === "~" ? "" : "="
    case ":":
      if (next === "=") return ":="
      if (next !== ":") return ":"
      return text.startsWith("::=", at) ? "::=" : text.startsWith(":::=", at) ? ":::=" : ""
    case "?":
      return next === "=" ? "?=" : next === ":" ? "?:" : text.startsWith("??=", at) ? "??=" : ""
    case "|":
      return text.startsWith("||=", at) ? "||=" : ""
    case ".":
      return next === "=" ? ".=" : ""
    case "<":
      return next === "-" ? "<-" : ""
    default:
      return ""
  }
}
