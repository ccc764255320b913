// Secrets handed to code, not assigned: comparisons, setters and builders, constructors, credentials by position.
import {
  AT_SIGN,
  CASE_BIT,
  CLOSE_BRACE,
  CLOSE_BRACKET,
  CLOSE_PAREN,
  COMMA,
  DOLLAR,
  EQUALS,
  LOWER_B,
  LOWER_F,
  LOWER_R,
  LOWER_U,
  OPEN_BRACE,
  OPEN_BRACKET,
  OPEN_PAREN,
  SPACE,
  UNDERSCORE,
  UPPER_A,
  UPPER_L,
  UPPER_Z,
} from "../../base/chars.ts"
import { isNameChar, KEY_QUALIFIERS, type Name, nameParts, nameStrength, partStrength, STRONG, WEAK } from "./names.ts"
import { isBlank, isQuote } from "./values.ts"

/** Parts before `token` that make it a credential's (`accessToken`, `bot_token`), not a lexer's (`nextToken`). */
const TOKEN_QUALIFIERS = new Set([
  ...KEY_QUALIFIERS,
  ..."access refresh bearer id oauth oauth2 personal user github gitlab slack discord telegram npm pypi".split(" "),
])

/** What a builder's method may start with (`.dbPassword(`, `.storePassword(`): a noun, where a getter has a verb. */
const BUILDER_NOUNS = new Set([
  ...TOKEN_QUALIFIERS,
  ..."db database store keystore truststore trust proxy smtp mail email ftp sftp ldap redis mysql postgres".split(" "),
  ..."wifi vnc sudo keychain registry repo repository remote sasl kafka broker aws gcp azure google".split(" "),
])

/** Methods that compare their receiver with their argument: `password.equals("…")`. */
const COMPARE_METHODS = new Set(["equals", "equalsIgnoreCase", "Equals", "contentEquals"])

/** Functions that compare or copy their first argument with their second: `strcmp(password, "…")`, `hash_equals`. */
const COMPARE_FUNCTIONS = new Set(
  [
    "strcmp strncmp strcasecmp strncasecmp stricmp _stricmp strcmpi wcscmp memcmp strcpy strncpy strlcpy wcscpy",
    "compare_digest constant_time_compare safe_str_cmp hash_equals equals Equals",
  ]
    .join(" ")
    .split(" "),
)

/**
 * Which argument holds the password, from each API's documented signature. A number is its position; `last`
 * is the last argument of a call of `min` to `max` arguments (`DriverManager.getConnection(url, user, password)`
 * and `DataSource.getConnection(user, password)`; `setSecret(value)` and `setSecret(name, value)`).
 */
type Position = number | { last: true; min: number; max: number }

const CREDENTIAL_CALLS: ReadonlyMap<string, Position> = new Map<string, Position>([
  // Python: requests, httpx, aiohttp; smtplib, ftplib, imaplib; keyring; urllib's password managers
  ["HTTPBasicAuth", 1],
  ["HTTPDigestAuth", 1],
  ["HTTPProxyAuth", 1],
  ["BasicAuth", 1],
  ["DigestAuth", 1],
  ["login", 1],
  ["Login", 1],
  ["set_password", 2],
  ["add_password", 3],
  // Go: net/http, net/smtp, the AWS SDK
  ["SetBasicAuth", 1],
  ["PlainAuth", 2],
  ["CRAMMD5Auth", 1],
  ["NewStaticCredentials", 1],
  ["NewStaticCredentialsProvider", 1],
  // Java, Kotlin: java.net, java.sql, Apache HttpClient, Spring, OkHttp, the AWS SDK, MongoDB's MongoCredential
  ["PasswordAuthentication", 1],
  ["UsernamePasswordCredentials", 1],
  ["UsernamePasswordAuthenticationToken", 1],
  ["setBasicAuth", 1],
  ["basicAuthentication", 1],
  ["basicAuth", 1],
  ["withBasicAuth", 1],
  ["Credentials.basic", 1],
  ["BasicAWSCredentials", 1],
  ["BasicSessionCredentials", 1],
  ["AwsBasicCredentials", 1],
  ["AwsSessionCredentials", 1],
  ["getConnection", { last: true, min: 2, max: 3 }],
  ["createCredential", 2],
  ["createScramSha1Credential", 2],
  ["createScramSha256Credential", 2],
  ["createPlainCredential", 2],
  // C#, Azure SDKs; Ruby's Net::HTTP, Rust's reqwest and lettre; superagent and supertest
  ["NetworkCredential", 1],
  ["StorageSharedKeyCredential", 1],
  ["AzureNamedKeyCredential", 1],
  ["ClientSecretCredential", 2],
  ["setSecret", { last: true, min: 1, max: 2 }],
  ["set_secret", { last: true, min: 1, max: 2 }],
  ["basic_auth", 1],
  ["Credentials", 1],
  ["auth", 1],
])

/** The methods of CREDENTIAL_CALLS, as a name ends in them. */
const CREDENTIAL_METHODS: ReadonlySet<string> = new Set(
  [...CREDENTIAL_CALLS.keys()].map((callee) => callee.slice(callee.lastIndexOf(".") + 1)),
)

/** Whether the name from `start` to `end` calls one of CREDENTIAL_CALLS (`DriverManager.getConnection`). */
export function isCredentialCall(text: string, start: number, end: number): boolean {
  let from = end
  while (from > start && text[from - 1] !== ".") from--
  return CREDENTIAL_METHODS.has(text.slice(from, end))
}

/** Methods that make an instance of their receiver: `AwsBasicCredentials.create(…)`, `Credentials::new(…)`. */
const CONSTRUCTOR_METHODS = new Set(["new", "create", "of", "from"])

/** How far an argument list is read for one hit: a bound, so a hit every few bytes stays linear. */
const ARGUMENTS_MAX = 160

/** Wrappers around a literal argument: `Some("…")` (Rust), `[]byte("…")` (Go), `String::from("…")`. */
const WRAPPER_RE = /(?:Some|String::from|Secret(?:String)?::(?:new|from)|SecretString|\[\]byte|new String)\(/y

/** A call's receiver and method: `dataSource` and `setPassword`; a bare call has no receiver. */
function splitCall(name: string): { receiver: string; method: string } {
  const dot = name.lastIndexOf(".")
  return { receiver: dot < 0 ? "" : name.slice(0, dot), method: name.slice(dot + 1) }
}

/**
 * How strongly a name in code says its literal is a secret: as for an assignment, except that a `token` no
 * credential's word qualifies (`token`, `nextToken`, `token.value`) is as often a lexer's as a credential's: its
 * literal counts only where it looks random (`token === "while"` stays).
 */
function codeStrength(name: string): number {
  const strength = nameStrength(name)
  if (strength !== STRONG) return strength
  const parts = nameParts(name)
  for (let i = parts.length - 1; i >= 0; i--) {
    const part = (parts[i] ?? "").replace(/\d+$/, "")
    if (!partStrength(part, parts[i - 1])) continue
    return part === "token" && !TOKEN_QUALIFIERS.has(parts[i - 1] ?? "") ? WEAK : STRONG
  }
  return strength
}

/** One or two letters before a quote that make a string literal of it: r"…", b'…', f"…", rb"…", @"…", $"…", L"…". */
function isStringPrefix(code: number): boolean {
  switch (code | CASE_BIT) {
    case LOWER_R:
    case LOWER_B:
    case LOWER_F:
    case LOWER_U:
      return true
    default:
      return code === UPPER_L || code === AT_SIGN || code === DOLLAR
  }
}

export function stringPrefixLength(text: string, at: number): number {
  if (!isStringPrefix(text.charCodeAt(at)) || text.charCodeAt(at + 1) <= SPACE) return 0
  if (isQuote(text.charCodeAt(at + 1))) return 1
  return isStringPrefix(text.charCodeAt(at + 1)) && isQuote(text.charCodeAt(at + 2)) ? 2 : 0
}

const isLiteralAt = (text: string, at: number) => isQuote(text.charCodeAt(at)) || stringPrefixLength(text, at) > 0

/** Where a literal starts at or after `at` (blanks and line breaks skipped, a wrapper opened), if one does. */
function literalAt(text: string, at: number): { at: number; wrapped: boolean } | undefined {
  let i = at
  while (i - at < 40 && (isBlank(text.charCodeAt(i)) || text[i] === "\n" || text[i] === "\r")) i++
  if (isLiteralAt(text, i)) return { at: i, wrapped: false }
  WRAPPER_RE.lastIndex = i
  if (!WRAPPER_RE.test(text)) return undefined
  let inner = WRAPPER_RE.lastIndex
  while (isBlank(text.charCodeAt(inner))) inner++
  return isLiteralAt(text, inner) ? { at: inner, wrapped: true } : undefined
}

/** `==`, `===`, `!=`, `!==` and a literal after it: where the literal starts, or -1. */
export function comparisonAt(text: string, at: number): number {
  const first = text[at]
  if ((first !== "=" && first !== "!") || text[at + 1] !== "=") return -1
  let i = at + (text[at + 2] === "=" ? 3 : 2)
  while (i - at < 12 && isBlank(text.charCodeAt(i))) i++
  return isLiteralAt(text, i) ? i : -1
}

/**
 * Where each top-level argument of the list opened at `open` (`(` or `[`) starts, up to `want` of them, and
 * whether the list closed within ARGUMENTS_MAX characters. Quotes and brackets nested two deep are skipped; a
 * line break inside is fine.
 */
function argumentStarts(text: string, open: number, want = Infinity): { starts: number[]; closed: boolean } {
  const starts = [open + 1]
  let depth = 0
  for (let i = open + 1; i < text.length && i - open < ARGUMENTS_MAX && starts.length <= want; i++) {
    const code = text.charCodeAt(i)
    if (isQuote(code)) {
      let close = i + 1
      while (close - open < ARGUMENTS_MAX && close < text.length && text.charCodeAt(close) !== code) close++
      if (text.charCodeAt(close) !== code) break
      i = close
    } else if (code === OPEN_PAREN || code === OPEN_BRACKET || code === OPEN_BRACE) {
      // `HTTPBasicAuth(os.environ["USER"], …)`; deeper than that is no credential call.
      if (++depth > 2) break
    } else if (code === CLOSE_PAREN || code === CLOSE_BRACKET || code === CLOSE_BRACE) {
      if (depth === 0) return { starts: i === open + 1 ? [] : starts, closed: true }
      depth--
    } else if (code === COMMA && depth === 0) starts.push(i + 1)
  }
  return { starts, closed: false }
}

/** The literal at a credential's position in the call opened at `open`, if it is a literal there. */
function positionalAt(text: string, open: number, position: Position): number {
  const { starts, closed } = argumentStarts(text, open, typeof position === "number" ? position : Infinity)
  const index =
    typeof position === "number"
      ? position
      : closed && starts.length >= position.min && starts.length <= position.max
        ? starts.length - 1
        : -1
  const start = index >= 0 ? starts[index] : undefined
  if (start === undefined) return -1
  return literalAt(text, start)?.at ?? -1
}

/** The credential call a name makes, if it is one: `HTTPBasicAuth`, `req.SetBasicAuth`, `Credentials.basic`. */
function credentialPosition(receiver: string, method: string): Position | undefined {
  const owner = receiver.slice(receiver.lastIndexOf(".") + 1)
  if (CONSTRUCTOR_METHODS.has(method) && owner) return CREDENTIAL_CALLS.get(owner)
  return CREDENTIAL_CALLS.get(owner ? `${owner}.${method}` : method) ?? CREDENTIAL_CALLS.get(method)
}

/** A setter (`setPassword`, `SetPassword`, `withApiKey`, `set_password`): the name it sets, or "" if it is none. */
function setterName(method: string): string {
  const lower = method.slice(0, 4).toLowerCase()
  const verb = lower.startsWith("set") ? 3 : lower === "with" ? 4 : 0
  if (!verb) return ""
  const next = method.charCodeAt(verb)
  if (next === UNDERSCORE) return method.slice(verb + 1) // set_password
  return next >= UPPER_A && next <= UPPER_Z ? method.slice(verb) : ""
}

/** A builder's or constructor's method named for what it takes (`.password(`, `.apiKey(`), not a verb (`getPassword`). */
function isBuilderName(method: string): boolean {
  const parts = nameParts(method)
  const first = parts[0] ?? ""
  // `credentials('deploy-key')` looks a credential up by its id (Jenkins); `.key("session:ab12cd34")` is a map's or
  // a cache's key as often as a secret.
  if (/^(?:credentials?|creds?)$/.test(parts[parts.length - 1] ?? "")) return false
  if (parts.length === 1 && first === "key") return false
  return partStrength(first) > 0 || BUILDER_NOUNS.has(first)
}

interface CallConnector {
  op: string
  /** Where the literal starts. */
  at: number
  strength: number
  /** How many `)` must close the call after the literal: a setter takes one argument. */
  closes: number
}

/** What a call's name says about its arguments, judged once per name: see readCall. */
interface CallShape {
  position: Position | undefined
  /** `equals` and `assign`: which of them, and how strongly the receiver's name makes its argument a secret. */
  method: "compare" | "assign" | ""
  receiver: number
  /** A setter's, builder's or constructor's strength: what its one literal must be; 0 if it is none. */
  strength: number
}

function callShape(name: string, strengthOf: (name: string) => number): CallShape {
  const { receiver, method } = splitCall(name)
  const position = credentialPosition(receiver, method)
  const kind = !receiver ? "" : COMPARE_METHODS.has(method) ? "compare" : method === "assign" ? "assign" : ""
  const setter = setterName(method)
  const strength = setter ? strengthOf(setter) : isBuilderName(method) ? strengthOf(method) : 0
  return { position, method: kind, receiver: kind ? strengthOf(receiver) : 0, strength }
}

/**
 * What a call after a secret's name passes (`open` is its `(`): the password at its position in a credential
 * call, the literal a comparison method compares, the first an `assign` takes, the one literal a setter,
 * builder or constructor takes. Getters and lookups take a name (`getPassword("alice")`, `get_secret("db/creds")`)
 * and are none of these.
 */
export function readCall(text: string, shape: CallShape, open: number): CallConnector | undefined {
  if (shape.position !== undefined) {
    const at = positionalAt(text, open, shape.position)
    if (at >= 0) return { op: "arg", at, strength: STRONG, closes: 0 }
  }
  if (!shape.receiver && !shape.strength) return undefined
  const literal = literalAt(text, open + 1)
  if (!literal) return undefined
  if (shape.method)
    return { op: shape.method === "compare" ? "==" : "arg", at: literal.at, strength: shape.receiver, closes: 0 }
  return { op: "(", at: literal.at, strength: shape.strength, closes: literal.wrapped ? 2 : 1 }
}

/**
 * Whether a call closes after the literal that ended at `at`: conversions (`.toCharArray()`, `.to_string()`,
 * `.getBytes(UTF_8)`) and blanks, then `closes` times `)`.
 */
export function closesAfter(text: string, at: number, closes: number): boolean {
  let i = at
  for (let n = 0; n < 3 && text[i] === "."; n++) {
    let end = i + 1
    while (end - i < 24 && isNameChar(text.charCodeAt(end)) && text[end] !== ".") end++
    if (text[end] !== "(") return false
    let close = end
    while (close - end < 40 && close < text.length && text[close] !== ")") close++
    if (text[close] !== ")") return false
    i = close + 1
  }
  for (let n = 0; n < closes; n++) {
    const from = i
    while (i - from < 8 && isBlank(text.charCodeAt(i))) i++
    if (text[i++] !== ")") return false
  }
  return true
}

/** A compare or copy function's first argument (`strcmp(password, "…")`): where its second, a literal, starts. */
export function compareArgumentAt(text: string, name: Name, comma: number): number {
  let at = name.start - 1
  while (at > 0 && name.start - at < 8 && (isBlank(text.charCodeAt(at)) || "&*$".includes(text[at] ?? "_"))) at--
  if (text[at] !== "(") return -1
  let from = at
  while (from > 0 && at - from < 24 && isNameChar(text.charCodeAt(from - 1)) && text[from - 1] !== ".") from--
  if (!COMPARE_FUNCTIONS.has(text.slice(from, at))) return -1
  const literal = literalAt(text, comma + 1)
  return literal && !literal.wrapped ? literal.at : -1
}

/** Names of a credential pair (`auth=("admin", "…")`, `'auth' => ['u', 'p']`, `CREDENTIALS = (…)`). */
function isPairName(name: string): boolean {
  const parts = nameParts(name)
  const last = parts[parts.length - 1] ?? ""
  return last === "auth" || last === "credentials" || last === "credential" || last === "creds" || last === "login"
}

/** A pair of two arguments, `(` or `[` at `open`: where its second, a literal, starts, or -1. */
export function pairSecondAt(text: string, open: number): number {
  const { starts, closed } = argumentStarts(text, open, 2)
  const second = starts[1]
  if (!closed || starts.length !== 2 || second === undefined) return -1
  const literal = literalAt(text, second)
  return literal && !literal.wrapped ? literal.at : -1
}

/** Where a literal compared with the name from before it starts (`"…" == password`, `"…".equals(password)`), or -1. */
export function comparedBefore(text: string, start: number, from: number): number {
  let at = start - 1
  while (at > from && start - at < 6 && isBlank(text.charCodeAt(at))) at--
  const code = text.charCodeAt(at)
  if (code !== OPEN_PAREN && code !== EQUALS) return -1
  if (text[at] === "(") {
    let word = at
    while (word > from && at - word < 20 && isNameChar(text.charCodeAt(word - 1)) && text[word - 1] !== ".") word--
    if (text[word - 1] !== "." || !COMPARE_METHODS.has(text.slice(word, at))) return -1
    at = word - 2
  } else {
    let ops = at
    while (ops > from && at - ops < 3 && text[ops] === "=") ops--
    if (at - ops < 1 || (at - ops < 2 && text[ops] !== "!")) return -1
    at = text[ops] === "!" ? ops - 1 : ops
    const op = at
    while (at > from && op - at < 8 && isBlank(text.charCodeAt(at))) at--
  }
  const quote = text.charCodeAt(at)
  if (!isQuote(quote)) return -1
  let open = at - 1
  while (open > from && at - open < 256 && text.charCodeAt(open) !== quote && text[open] !== "\n") open--
  return open >= from && text.charCodeAt(open) === quote && text[open - 1] !== "\\" ? open : -1
}

/** How strongly names in code make their literals secrets, and what calls take: each name judged once per text. */
export interface CodeMemo {
  strength: (name: string) => number
  shape: (name: string) => CallShape
  isPair: (name: string) => boolean
}

export function createCodeMemo(): CodeMemo {
  const strengths = new Map<string, number>()
  const shapes = new Map<string, CallShape>()
  const pairs = new Map<string, boolean>()
  const strength = (name: string) => {
    const known = strengths.get(name) ?? codeStrength(name)
    strengths.set(name, known)
    return known
  }
  const shape = (name: string) => {
    const known = shapes.get(name) ?? callShape(name, strength)
    shapes.set(name, known)
    return known
  }
  const isPair = (name: string) => {
    const known = pairs.get(name) ?? isPairName(name)
    pairs.set(name, known)
    return known
  }
  return { strength, shape, isPair }
}
