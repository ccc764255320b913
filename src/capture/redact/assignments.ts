// Assignments in every syntax: a secret-named key, its operator and its value, found in one linear scan.
import {
  AMPERSAND,
  BACKSLASH,
  CARRIAGE_RETURN,
  CASE_BIT,
  CLOSE_BRACE,
  CLOSE_BRACKET,
  CLOSE_PAREN,
  COLON,
  COMMA,
  DIGIT_0,
  DIGIT_9,
  GREATER_THAN,
  HASH,
  HYPHEN,
  LESS_THAN,
  LINE_FEED,
  LOWER_A,
  LOWER_V,
  LOWER_Z,
  OPEN_BRACE,
  OPEN_BRACKET,
  OPEN_PAREN,
  PIPE,
  SEMICOLON,
  SPACE,
} from "../../base/chars.ts"
import { type Block, blockHeaderEnd, keyIndent, readBlock } from "./blocks.ts"
import {
  type CodeMemo,
  closesAfter,
  compareArgumentAt,
  comparedBefore,
  comparisonAt,
  createCodeMemo,
  isCredentialCall,
  pairSecondAt,
  readCall,
  stringPrefixLength,
} from "./calls.ts"
import { applyCuts } from "./commands.ts"
import {
  isLineStart,
  isNameField,
  isTerraformVariable,
  isWordStart,
  type Name,
  operatorAt,
  readName,
  SECRET_NAME_RE,
  STRONG,
  type Strengths,
  spelled,
  WEAK,
} from "./names.ts"
import { encodesProse, isAppPassword, isBlank, isNeverSecret, isQuote, isRandomLetters, looksRandom } from "./values.ts"

/** A type between name and `=`: `token: string = `, `var apiToken string = `, `val key: String = `. */
const TYPE_ASSIGN_RE =
  /(?:[ \t]*\??:[ \t]*|[ \t]+)&?[A-Za-z_][\w.]*(?:<[^<>\n]{0,60}>)?(?:\[\])?\??[ \t]*(=)(?![=>~])[ \t]*/y

/** A call's arguments: `System.setProperty("API_TOKEN", "…")`, `define('DB_PASSWORD', '…')`. */
const COMMA_RE = /[ \t]*(,)[ \t]*(?=[@$rbfu]{0,2}["'`])/y

/** A shell default: `${DB_PASSWORD:-…}`, `${TOKEN:=…}`; `${TOKEN:?message}` holds none. */
const SHELL_DEFAULT_RE = /(:?[-=])/y

/**
 * Terraform's `variable "db_password" {` and, within a dozen lines of it, `default = "…"`: the block's default
 * is the variable's value.
 */
const TERRAFORM_DEFAULT_RE = /[ \t]*\{[ \t]*(?:[^{}\n]{0,200}\n){0,12}?[ \t]*(default)[ \t]*=[ \t]*/y

/** After a name field, its value field: `value="…"`, `"value": "…"`, `, value: …`. */
const PAIR_RE = /[ \t]*[,;]?[ \t]*["']?value["']?[ \t]*([:=])[ \t]*/iy

const PAIR_NEXT_LINE_RE = /[ \t]*,?[ \t]*\r?\n[ \t]*-?[ \t]*["']?value["']?[ \t]*(:)[ \t]*/iy

/**
 * What joins a name to its value, and where the value starts. Code's connectors (a comparison, a call's argument)
 * also say how strongly their position makes the literal a secret, and how many `)` must close the call after it.
 */
interface Connector {
  op: string
  at: number
  strength?: number
  closes?: number
}

/** Connectors of code, whose value is a literal or nothing: `password == "…"`, `setPassword("…")`, `login(u, "…")`. */
const CODE_OPS: ReadonlySet<string> = new Set(["==", "(", "arg"])

function stickyAt(re: RegExp, text: string, at: number): { op: string; at: number } | undefined {
  re.lastIndex = at
  const match = re.exec(text)
  return match ? { op: match[1] ?? "", at: re.lastIndex } : undefined
}

/**
 * An operator after any alignment, read character by character (regexes here cost more than the rest of a
 * hit): `=`, `:`, `:=`, `::=`, `?=`, `.=`, `??=`, `||=`, `=>`, `<-`; or a type and `=` (`token: string =`).
 */
function readOperator(text: string, from: number): { op: string; at: number } | undefined {
  let at = from
  while (at - from < 80 && isBlank(text.charCodeAt(at))) at++
  const op = operatorAt(text, at)
  if (!op && isWordStart(text.charCodeAt(at))) return stickyAt(TYPE_ASSIGN_RE, text, from)
  if (!op) {
    const literal = comparisonAt(text, at)
    return literal >= 0 ? { op: "==", at: literal } : undefined
  }
  if (op === ":" || op === "?:") {
    let type = at + op.length
    while (isBlank(text.charCodeAt(type))) type++
    const typed = isWordStart(text.charCodeAt(type)) ? stickyAt(TYPE_ASSIGN_RE, text, from) : undefined
    if (typed) return typed
  }
  at += op.length
  const valueAt = at
  while (at - valueAt < 80 && isBlank(text.charCodeAt(at))) at++
  return { op: op === "?:" ? ":" : op, at }
}

/**
 * After an unquoted name in code: a call (`setPassword(`, `HTTPBasicAuth(`, Rust's `Credentials::new(`) or a
 * compare function's first argument (`strcmp(password, `). `false` if neither follows: the name is read on.
 */
function readCodeConnector(text: string, name: Name, at: number, memo: CodeMemo): Connector | undefined | false {
  const next = text.charCodeAt(at)
  if (next === COLON && text.charCodeAt(at + 1) === COLON) {
    // Rust's constructors: Credentials::new(…), String::from(…)
    const open = text.startsWith("new(", at + 2) ? at + 5 : text.startsWith("from(", at + 2) ? at + 6 : -1
    return open < 0 ? false : readCall(text, memo.shape(name.text), open)
  }
  if (next === OPEN_PAREN) return readCall(text, memo.shape(name.text), at)
  if (next !== COMMA) return false
  const literal = compareArgumentAt(text, name, at)
  return literal >= 0 ? { op: "==", at: literal } : undefined
}

/** What joins the name to its value, and where the value starts. */
function readConnector(text: string, name: Name, memo: CodeMemo, from = 0): Connector | undefined {
  let at = name.end
  if (name.quote) {
    at += name.quote.length
    if (text[at] === "]") at++ // ENV["API_TOKEN"] = …
    if (text[at] === ")") {
      // headers.get("X-Api-Key") == "…": only a comparison follows a lookup's result
      const found = readOperator(text, at + 1)
      return found?.op === "==" ? found : undefined
    }
  }
  if (name.keyField) {
    if (text[at] === ">") return { op: ">", at: at + 1 } // <entry key="db.password">…</entry>
    return mayPair(text, at) ? (stickyAt(PAIR_RE, text, at) ?? stickyAt(PAIR_NEXT_LINE_RE, text, at)) : undefined
  }
  if (name.element) return text[at] === ">" ? { op: ">", at: at + 1 } : undefined
  if (text.startsWith("${", name.start - 2)) return stickyAt(SHELL_DEFAULT_RE, text, at)
  // A flag takes `=`, or blanks and its argument (`--password value`), or in an argument list the next element
  // (`["--token", "…"]`); no type annotation.
  if (name.text.startsWith("-") && text[at] !== "=") {
    return name.quote && text[at] === "," ? stickyAt(COMMA_RE, text, at) : readFlagGap(text, at)
  }
  if (name.quote === '"' && isTerraformVariable(text, name.start)) return stickyAt(TERRAFORM_DEFAULT_RE, text, at)
  const compared = name.quote ? -1 : comparedBefore(text, name.start, from)
  if (compared >= 0) return { op: "==", at: compared }
  const code = name.quote ? false : readCodeConnector(text, name, at, memo)
  if (code !== false) return code
  const found = readOperator(text, at)
  // A credential pair: `auth=("admin", "…")`, `'auth' => ['admin', '…']`; its second is the password. A list
  // elsewhere (`auth: ["password", "publickey"]`) is one of methods as often.
  const pair = found && (text[found.at] === "(" || (found.op === "=>" && text[found.at] === "["))
  if (found && pair && memo.isPair(name.text)) {
    const second = pairSecondAt(text, found.at)
    return second >= 0 ? { op: "arg", at: second, strength: STRONG } : found
  }
  if (found) return found
  // Only as a call's first argument: in JSON, `"format": "password", "minLength": …` is no call.
  if (name.quote && /\([ \t]*$/.test(text.slice(Math.max(0, name.start - 8), name.start - name.quote.length))) {
    return stickyAt(COMMA_RE, text, at)
  }
  return undefined
}

function readFlagGap(text: string, from: number): { op: string; at: number } | undefined {
  let at = from
  while (at - from < 80 && isBlank(text.charCodeAt(at))) at++
  const next = text.charCodeAt(at)
  return at > from && next > SPACE && next !== HYPHEN ? { op: " ", at } : undefined // a hyphen: the next flag
}

/** Whether a value field (`value=`, `"value":`, on this line or the next) may follow: checked before its regexes. */
function mayPair(text: string, from: number): boolean {
  let at = from
  while (at - from < 84 && (isBlank(text.charCodeAt(at)) || ",;\"'-\n\r".includes(text[at] ?? "_"))) at++
  return (text.charCodeAt(at) | CASE_BIT) === LOWER_V
}

interface Value {
  start: number
  end: number
  quoted: boolean
  /** The character that ended an unquoted value. */
  stop: string
}

/** Whitespace, quotes: where every unquoted value ends. */
const endsAnyValue = (code: number) => code <= SPACE || isQuote(code)

/** `,;&<>(){}[]\`: where a value amid other text ends too. */
function endsInlineValue(code: number): boolean {
  switch (code) {
    case COMMA:
    case SEMICOLON:
    case AMPERSAND:
    case LESS_THAN:
    case GREATER_THAN:
    case OPEN_PAREN:
    case CLOSE_PAREN:
    case OPEN_BRACE:
    case CLOSE_BRACE:
    case OPEN_BRACKET:
    case CLOSE_BRACKET:
    case BACKSLASH:
      return true
    default:
      return false
  }
}

/**
 * Where an unquoted value ends: a line's own value runs to whitespace, one amid other text also at punctuation.
 * An `=` is part of it (`…dhoc5g3yghsm0==qm2b…`, base64 padding): the scan goes on past every value it read
 * amid other text, so a run of `key=key=…` is read once, not once per hit.
 */
function unquotedEnd(text: string, from: number, ownLine: boolean, query: boolean): number {
  let end = from
  for (; end < text.length; end++) {
    const code = text.charCodeAt(end)
    if (endsAnyValue(code)) break
    if (ownLine) continue
    if (endsInlineValue(code) || (query && code === HASH)) break
  }
  return end
}

/** A closing quote on the same line; `unclosed` remembers per quote where none is, so no line is read twice. */
function closingQuote(text: string, from: number, quote: string, unclosed: Map<string, number>): number {
  if (from <= (unclosed.get(quote) ?? -1)) return -1
  const first = quote.charCodeAt(0)
  for (let i = from; i < text.length; i++) {
    const code = text.charCodeAt(i)
    if (code === LINE_FEED || code === CARRIAGE_RETURN) {
      unclosed.set(quote, i)
      return -1
    }
    if (code === first && (quote.length === 1 || text.startsWith(quote, i))) return i
    if (code === BACKSLASH) i++ // a backslash escapes what follows
  }
  unclosed.set(quote, text.length)
  return -1
}

function readValue(text: string, at: number, ownLine: boolean, query: boolean, unclosed: Map<string, number>) {
  const start = at + stringPrefixLength(text, at)
  const quote = text.startsWith('\\"', start) ? '\\"' : isQuote(text.charCodeAt(start)) ? (text[start] ?? "") : ""
  if (quote) {
    const close = closingQuote(text, start + quote.length, quote, unclosed)
    if (close < 0) return undefined
    return { start: start + quote.length, end: close, quoted: true, stop: quote } satisfies Value
  }
  let end = unquotedEnd(text, start, ownLine, query)
  let stop = text[end] ?? ""
  const last = text.charCodeAt(end - 1)
  if (ownLine && (last === COMMA || last === SEMICOLON)) stop = text[--end] ?? "" // a trailing , or ;
  return end > start ? ({ start, end, quoted: false, stop } satisfies Value) : undefined
}

/** `<password>` at a line's end, the value alone on the next line, `</password>` on the one after. */
const ELEMENT_NEXT_LINE_RE = /[ \t]*\r?\n[ \t]*([^\s<>]{1,1024})[ \t]*\r?\n[ \t]*<\//y

function readElementValue(text: string, at: number): Value | undefined {
  ELEMENT_NEXT_LINE_RE.lastIndex = at
  const next = ELEMENT_NEXT_LINE_RE.exec(text)
  if (next?.[1]) {
    const start = text.indexOf(next[1], at)
    return { start, end: start + next[1].length, quoted: true, stop: "<" }
  }
  let end = at
  while (end < text.length && end - at <= 1024 && !/[<\n\r]/.test(text[end] ?? "")) end++
  return text.startsWith("</", end) && end > at ? { start: at, end, quoted: true, stop: "<" } : undefined
}

/** Code rather than a literal: a call or an index (`env('KEY',`, `os.environ[`), or a chain of plain members. */
const CALL_RE = /^[A-Za-z_$][\w$]*(?:(?:\.|::|->|\?\.)[A-Za-z_$][\w$]*)*[(<[]/

/** One member of such a chain: snake_case, camelCase, PascalCase or UPPER_CASE, never `qoTYbyrXb`. */
const MEMBER = "(?:[a-z_$][a-z\\d_$]*|[A-Z][a-z\\d_$]*|[A-Z][A-Z\\d_$]*)(?:[A-Z][a-z\\d_$]+)*"

const MEMBER_CHAIN_RE = new RegExp(`^${MEMBER}(?:(?:\\.|::|->|\\?\\.)${MEMBER})+[!?]?$`)

const isCode = (value: string, stop: string) =>
  stop === "(" || stop === "[" || CALL_RE.test(value) || MEMBER_CHAIN_RE.test(value)

/** `KeyMeshing = "id-Gost28147-89-None-KeyMeshing"`: a value that spells out its own name is a label. */
function repeatsName(value: string, name: string): boolean {
  let tail = ""
  for (let i = value.length - 1; i >= 0 && tail.length < 12; i--) {
    const lower = value.charCodeAt(i) | CASE_BIT
    if ((lower >= LOWER_A && lower <= LOWER_Z) || (lower >= DIGIT_0 && lower <= DIGIT_9))
      tail = String.fromCharCode(lower) + tail
  }
  if (tail.length < 4) return false
  const bare = spelled(name)
  // Either the name holds the value's end (`SN_id_…_KeyMeshing = "KeyMeshing"`) or the value ends in the name.
  return bare.includes(tail) || (bare.length >= 6 && spelled(value).endsWith(bare))
}

/** Whether a value is a label, reference or setting, given the name it stands after. */
const isNotSecretFor = (value: string, name: string) => isNeverSecret(value) || repeatsName(value, name)

function isSecretValue(
  text: string,
  value: string,
  name: Name,
  found: Value,
  op: string,
  notSecret: (value: string, name: string) => boolean,
): boolean {
  // Code compares or passes a literal; `password == confirm`, `setPassword(input)` hold none.
  if (!found.quoted && CODE_OPS.has(op)) return false
  // A kilobyte of one unbroken run after a secret's name is no setting; and the checks below stay cheap.
  if (value.length > 1024) return true
  // A value that ends in `:` is another key or a label (`Never pass :data:` in reStructuredText); one cut off
  // by a template's interpolation (`ghp_${…}`, `#{…}`) is not all there is.
  if (value.length < 4 || value.endsWith(":")) return false
  if (found.stop === "{" && /[$#%]$/.test(value)) return false
  const strength = name.query ? STRONG : name.strength
  if (strength === STRONG && found.quoted && isAppPassword(value)) return true
  // A key of unknown kind (`ANY_KEY`) holding base64 of words is an encoded label.
  if (strength === WEAK && (value.length < 8 || !looksRandom(value) || encodesProse(value))) return false
  if (notSecret(value, name.text)) return false
  if (strength === WEAK) return true
  if (found.quoted) return true
  if (isCode(value, found.stop)) return false
  if (!/^[A-Za-z_]+$/.test(value) || isRandomLetters(value)) return true
  // A bare word is a literal in dotenv, properties, connection strings and URL queries (`DB_PASS=hunter`,
  // `pass=hunter;`, `?api-key=rawr`), but a variable in code (`password = userInput`) and as often a setting
  // as a password in YAML (`id-token: write`).
  const upper = /^[-$@]*[A-Z][A-Z\d_]*$/.test(name.text)
  const dotenv = op === "=" && found.start === name.end + 1 && isLineStart(text, name.start)
  return (
    (upper || dotenv || name.query || found.stop === ";") &&
    /^(?:[A-Za-z][a-z_]*|[A-Z_]+)$/.test(value) &&
    !/[,)]/.test(found.stop)
  )
}

/**
 * A block scalar after a name (`password: |`, `client_secret: >-`) whose header is at `at`: its lines, and their
 * contents run together as the one value they hold. Undefined if no header is there or the name starts no line.
 */
function readBlockValue(text: string, name: Name, at: number): { block: Block; value: string } | undefined {
  // The line's start first: a header's comment is read to the line's end, once per line that starts a block.
  if (!isLineStart(text, name.start - name.quote.length)) return undefined
  const header = blockHeaderEnd(text, at)
  if (header < 0) return undefined
  const block = readBlock(text, header, keyIndent(text, name.start))
  let value = ""
  for (let i = 0; i + 1 < block.spans.length && value.length <= 1024; i += 2) {
    value += text.slice(block.spans[i], block.spans[i + 1])
  }
  return { block, value }
}

/**
 * Assignments in every common syntax (dotenv, shell, INI, YAML, TOML, JSON, XML, properties, HCL, source code,
 * command-line flags), and literals code compares or passes where a secret goes: the name stays readable, only
 * the value becomes REDACTED. Starts at each hit and reads the name around it; every read is bounded or moves the
 * cursor past what it read, so the scan is linear however the text repeats itself.
 */
export function redactAssignments(text: string): string {
  const cuts: Array<[number, number]> = []
  const unclosed = new Map<string, number>()
  const strengths: Strengths = { last: "", lastStrength: 0, known: new Map() }
  // Text that repeats itself repeats its names and values too: each pair is judged once.
  const judged = new Map<string, Map<string, boolean>>()
  const notSecret = (value: string, nameText: string) => {
    const byValue = judged.get(nameText) ?? judged.set(nameText, new Map()).get(nameText)
    const known = byValue?.get(value)
    if (known !== undefined) return known
    const verdict = isNotSecretFor(value, nameText)
    byValue?.set(value, verdict)
    return verdict
  }
  const code = createCodeMemo()
  // A fresh copy, and `test`: where a hit comes every few bytes, matchAll's iterator and exec's match arrays
  // cost more than the rest; the hit's end is all the scan needs.
  const words = new RegExp(SECRET_NAME_RE)
  let cursor = 0
  // Where the last block scalar read ended: a block inside it is not read again, so each line is read once.
  let blockEnd = 0
  while (words.test(text)) {
    const name = readName(text, cursor, words.lastIndex, strengths, isCredentialCall)
    if (typeof name === "number") {
      // Past the whole identifier: a long one (`SECRET_TOKEN_SECRET_…`) would otherwise yield a hit every few bytes.
      cursor = name
      words.lastIndex = Math.max(words.lastIndex, name)
      continue
    }
    const connector = readConnector(text, name, code, cursor)
    cursor = name.end
    if (!connector) continue
    const strength = connector.strength ?? (connector.op === "==" ? code.strength(name.text) : name.strength)
    if (!strength) continue
    const named = strength === name.strength ? name : { ...name, strength }
    const indicator = text.charCodeAt(connector.at) // | or >
    const blockAt =
      connector.op === ":" && (indicator === PIPE || indicator === GREATER_THAN) && name.start >= blockEnd
        ? readBlockValue(text, name, connector.at)
        : undefined
    if (blockAt) {
      blockEnd = blockAt.block.end
      const { spans, end } = blockAt.block
      const found: Value = { start: spans[0] ?? end, end: spans.at(-1) ?? end, quoted: true, stop: "|" }
      if (blockAt.value.length >= 4 && isSecretValue(text, blockAt.value, named, found, ":", notSecret)) {
        for (let i = 0; i + 1 < spans.length; i += 2) cuts.push([spans[i] ?? 0, spans[i + 1] ?? 0])
        cursor = end
        words.lastIndex = Math.max(words.lastIndex, cursor)
      }
      continue
    }
    const ownLine = !CODE_OPS.has(connector.op) && connector.op !== " " && !name.quote && isLineStart(text, name.start)
    const value =
      connector.op === ">"
        ? readElementValue(text, connector.at)
        : readValue(text, connector.at, ownLine, name.query, unclosed)
    if (!value) continue
    // A setter or builder takes the one literal: `setPassword("…")`, not `set_password("svc", "user", …)`.
    if (connector.closes && !closesAfter(text, value.end + value.stop.length, connector.closes)) continue
    // A value that is no secret is read again only where it can hold a name: a line's own value (`SECRET_KEY =
    // env('SECRET_KEY', '…')`), or the quoted word after a name field (`<add key="Password" value=…>`). One of
    // fewer than 4 characters is none, known before it is cut out of the text; after a key of unknown kind, one of
    // fewer than 8 (no random part is shorter).
    const least = strength === WEAK && !name.query ? 8 : 4
    const literal = value.end - value.start < least ? "" : text.slice(value.start, value.end)
    // The cursor only moves on: a literal compared from before the name (`"…" == password`) ends before it.
    if (literal && isSecretValue(text, literal, named, value, connector.op, notSecret)) {
      cursor = Math.max(cursor, cuts.push([value.start, value.end]) && value.end)
    } else if (value.stop === "(") {
      cursor = Math.max(cursor, value.start) // a call's name may be one too: `auth = HTTPBasicAuth("admin", "…")`
    } else if (!ownLine) cursor = Math.max(cursor, value.quoted && isNameField(name.text) ? value.start : value.end)
    words.lastIndex = Math.max(words.lastIndex, cursor)
  }
  return applyCuts(text, cuts)
}
