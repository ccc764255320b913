/**
 * The peers' test samples, read from their mirrors at run time (bench/peers.ts): gitleaks' rule tests (a small
 * evaluator for the Go expressions that build them, and a generator for the regexes they draw secrets from),
 * secretlint's snapshot fixtures, detect-secrets' plugin tests (the Python literals of their parameter lists).
 */

import { execFileSync } from "node:child_process"
import { join } from "node:path"
import type { Draw } from "../test/support/secrets.ts"

export interface PeerSample {
  family:
    | "promised families"
    | "vendor tokens alone"
    | "generic assignments"
    | "other vendors"
    | "stand-ins"
    | "identifiers"
    | "negatives"
  /** `peer:rule`, for the misses listing. */
  source: string
  text: string
  /** The part that must go; empty for a negative. */
  secret: string
}

const git = (dir: string, ...args: string[]) =>
  execFileSync("git", ["--git-dir", dir, ...args], { encoding: "utf8", maxBuffer: 1 << 28 })

/** The vendors and contexts the README promises, as the peers name their rules, files and plugins. */
export const PROMISED_RE =
  /^(?:1password|age|anthropic|atlassian|aws(?:_key)?|azure|basic_?auth|cloudflare|curl|database-connection-string|databricks|digitalocean|discord|docker|doppler|facebook|figma|flyio|gcp|github(?:_token)?|gitlab(?:_token)?|grafana|groq|hashicorp(?:_vault|-vault)?|heroku|huggingface|jwt|kubernetes|no-k8s-kind-secret|linear|mailgun|mapbox|newrelic|notion|npm|openai|perplexity|planetscale|postman|private_?key|privatekey|pypi(?:_token)?|sendgrid|sentry|shopify|slack|sonar|sourcegraph|square(?:_oauth)?|stripe(?:_key)?|tailscale|telegram(?:_token)?|twilio|vercel)$/

// ── a random string for a regex (the subset the peers' sample regexes use) ──

interface Node {
  kind: "seq" | "alt" | "set" | "lit"
  items?: Node[]
  chars?: string
  min?: number
  max?: number
}

const CLASS_ESCAPES: Record<string, string> = {
  d: "0123456789",
  w: "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_",
  s: " ",
  n: "\n",
  t: "\t",
  r: "",
}

function range(from: string, to: string): string {
  let out = ""
  for (let c = from.charCodeAt(0); c <= to.charCodeAt(0); c++) out += String.fromCharCode(c)
  return out
}

export function parseRegex(source: string): Node {
  let at = 0
  const readClass = (): string => {
    let chars = ""
    const negated = source[at] === "^"
    if (negated) at++
    let first = true
    while (at < source.length && (source[at] !== "]" || first)) {
      first = false
      let char = source[at++] ?? ""
      if (char === "\\") {
        const next = source[at++] ?? ""
        if (CLASS_ESCAPES[next] !== undefined) {
          chars += CLASS_ESCAPES[next]
          continue
        }
        char = next
      }
      if (source[at] === "-" && source[at + 1] !== "]" && at + 1 < source.length) {
        at++
        let to = source[at++] ?? ""
        if (to === "\\") to = source[at++] ?? ""
        chars += range(char, to)
      } else chars += char
    }
    at++
    if (!negated) return chars
    const printable = range("!", "~")
    return [...printable].filter((c) => !chars.includes(c)).join("")
  }
  const quantify = (node: Node): Node => {
    const q = source[at]
    if (q === "*" || q === "+" || q === "?") {
      at++
      if (source[at] === "?") at++
      return { ...node, min: q === "+" ? 1 : 0, max: q === "?" ? 1 : 8 }
    }
    const braces = /^\{(\d+)(,(\d*))?\}/.exec(source.slice(at))
    if (!braces) return node
    at += braces[0].length
    const min = Number(braces[1])
    const max = braces[2] ? (braces[3] ? Number(braces[3]) : min + 8) : min
    return { ...node, min, max }
  }
  const readAlt = (): Node => {
    const branches: Node[] = [{ kind: "seq", items: [] }]
    while (at < source.length && source[at] !== ")") {
      const char = source[at++] ?? ""
      const seq = branches.at(-1)?.items as Node[]
      if (char === "|") {
        branches.push({ kind: "seq", items: [] })
        continue
      }
      if (char === "(") {
        const flags = /^\?[-imsU]*(?::|\))/.exec(source.slice(at)) ?? /^\?(?:P?<\w+>|:)/.exec(source.slice(at))
        if (flags) {
          at += flags[0].length
          if (flags[0].endsWith(")")) continue
        }
        const group = readAlt()
        at++
        seq.push(quantify(group))
      } else if (char === "[") seq.push(quantify({ kind: "set", chars: readClass() }))
      else if (char === "\\") {
        const next = source[at++] ?? ""
        if (next === "b" || next === "B" || next === "A" || next === "z") continue
        seq.push(quantify({ kind: "set", chars: CLASS_ESCAPES[next] ?? next }))
      } else if (char === "^" || char === "$") continue
      else if (char === ".") seq.push(quantify({ kind: "set", chars: CLASS_ESCAPES.w }))
      else seq.push(quantify({ kind: "lit", chars: char }))
    }
    return branches.length === 1 ? (branches[0] as Node) : { kind: "alt", items: branches }
  }
  return readAlt()
}

export function generate(node: Node, draw: Draw): string {
  const times =
    node.min === undefined ? 1 : node.min + (Number(draw(1, "0123456789")) % ((node.max ?? node.min) - node.min + 1))
  let out = ""
  for (let n = 0; n < times; n++) {
    if (node.kind === "lit") out += node.chars
    else if (node.kind === "set") out += node.chars ? draw(1, node.chars) : ""
    else if (node.kind === "seq") for (const item of node.items ?? []) out += generate(item, draw)
    else {
      const items = node.items ?? []
      out += generate(items[Number(draw(2, "0123456789")) % items.length] as Node, draw)
    }
  }
  return out
}

// ── gitleaks: the Go expressions of its rule tests ──

type Token = { type: "str" | "id" | "num" | "op"; value: string }

export function tokenizeGo(source: string): Token[] {
  const tokens: Token[] = []
  const re =
    /\/\/[^\n]*|\/\*[\s\S]*?\*\/|`([^`]*)`|"((?:[^"\\\n]|\\.)*)"|'(?:[^'\\]|\\.)+'|([A-Za-z_]\w*)|(\d+)|(:=|\.\.\.|[^\s\w])|\s+/g
  for (const match of source.matchAll(re)) {
    if (match[1] !== undefined) tokens.push({ type: "str", value: match[1] })
    else if (match[2] !== undefined)
      tokens.push({ type: "str", value: JSON.parse(`"${match[2].replace(/\\`/g, "`")}"`) })
    else if (match[3]) tokens.push({ type: "id", value: match[3] })
    else if (match[4]) tokens.push({ type: "num", value: match[4] })
    else if (match[5]) tokens.push({ type: "op", value: match[5] })
  }
  return tokens
}

/** A string that may carry the span of a generated secret in it. */
interface Str {
  s: string
  span?: [number, number]
  /** The secret starts with a literal (`SG.`, `ghp_`): a format that can be told standing alone. */
  prefixed?: boolean
}
type Value = Str | Str[]

const isList = (value: Value): value is Str[] => Array.isArray(value)

/** The helpers of gitleaks' generator, read from its own sources: sample templates and regex builders. */
export interface GoHelpers {
  templates: string[]
  single: string
  patterns: Map<string, string>
}

export function readHelpers(dir: string): GoHelpers {
  const generate = git(dir, "show", "HEAD:cmd/generate/config/utils/generate.go")
  const block =
    /func GenerateSampleSecrets[\s\S]*?samples := map\[string\]string\{([\s\S]*?)\n\t\}/.exec(generate)?.[1] ?? ""
  const templates: string[] = []
  const tokens = tokenizeGo(block)
  for (let i = 0; i + 2 < tokens.length; i++) {
    if (tokens[i]?.type === "str" && tokens[i + 1]?.value === ":" && tokens[i + 2]?.type === "str") {
      templates.push(tokens[i + 2]?.value ?? "")
      i += 2
    }
  }
  const single = tokenizeGo(/func GenerateSampleSecret\([\s\S]*?\n\}/.exec(generate)?.[0] ?? "").find(
    (t) => t.type === "str",
  )
  const patterns = new Map<string, string>()
  const source = git(dir, "show", "HEAD:cmd/generate/config/utils/patterns.go")
  for (const match of source.matchAll(/func (\w+)\([^)]*\) string \{\s*return (?:fmt\.Sprintf\()?`([^`]*)`/g)) {
    patterns.set(match[1] ?? "", match[2] ?? "")
  }
  return { templates, single: single?.value ?? "", patterns }
}

class Unparsed extends Error {}

/** Evaluates the expressions of one rule function; unknown calls make the element they are in unparsed. */
class GoEval {
  at = 0
  readonly tokens: Token[]
  readonly env: Map<string, Value>
  readonly helpers: GoHelpers
  readonly draw: Draw
  constructor(tokens: Token[], env: Map<string, Value>, helpers: GoHelpers, draw: Draw) {
    this.tokens = tokens
    this.env = env
    this.helpers = helpers
    this.draw = draw
  }
  peek = (n = 0) => this.tokens[this.at + n]
  next = () => this.tokens[this.at++]
  expect(value: string) {
    if (this.next()?.value !== value) throw new Unparsed(value)
  }
  /** Skips to the end of a bracketed run from the current position (after a failure). */
  skipTo(stops: string) {
    let depth = 0
    while (this.at < this.tokens.length) {
      const value = this.peek()?.value ?? ""
      if (depth === 0 && stops.includes(value)) return
      if ("([{".includes(value)) depth++
      if (")]}".includes(value)) depth--
      if (depth < 0) return
      this.at++
    }
  }
  expr(): Value {
    let left = this.primary()
    while (this.peek()?.value === "+") {
      this.next()
      const right = this.primary()
      if (isList(left) || isList(right)) throw new Unparsed("+")
      left = concat(left, right)
    }
    return left
  }
  list(close: string): Str[] {
    const out: Str[] = []
    while (this.peek() && this.peek()?.value !== close) {
      const start = this.at
      try {
        const value = this.expr()
        if (this.peek()?.value === ":") {
          this.next()
          const mapped = this.expr()
          out.push(...(isList(mapped) ? mapped : [mapped]))
        } else if (this.peek()?.value === "...") {
          this.next()
          out.push(...(isList(value) ? value : [value]))
        } else out.push(...(isList(value) ? value : [value]))
      } catch (error) {
        if (!(error instanceof Unparsed)) throw error
        this.at = start
        this.skipTo(`,${close}`)
      }
      if (this.peek()?.value === ",") this.next()
    }
    this.next()
    return out
  }
  args(): Value[] {
    const args: Value[] = []
    while (this.peek() && this.peek()?.value !== ")") {
      let value = this.expr()
      if (this.peek()?.value === "...") this.next()
      args.push(value)
      if (this.peek()?.value === ",") this.next()
      value = value as Value
    }
    this.expect(")")
    return args
  }
  primary(): Value {
    const token = this.next()
    if (!token) throw new Unparsed("end")
    if (token.type === "str") return { s: token.value }
    if (token.value === "(") {
      const inner = this.expr()
      this.expect(")")
      return inner
    }
    if (token.value === "[" || token.value === "map") {
      while (this.peek() && this.peek()?.value !== "{") this.next()
      this.next()
      return this.list("}")
    }
    if (token.type !== "id") throw new Unparsed(token.value)
    let name = token.value
    while (this.peek()?.value === "." && this.peek(1)?.type === "id") {
      this.next()
      name += `.${this.next()?.value}`
    }
    if (this.peek()?.value !== "(") {
      const known = this.env.get(name)
      if (!known) throw new Unparsed(name)
      return known
    }
    this.next()
    return this.call(name, name === "append" ? this.appendArgs() : this.args())
  }
  /** Each argument on its own: one that cannot be evaluated (`r`, `nil`) is an empty list. */
  tolerantArgs(): Str[][] {
    const args: Str[][] = []
    while (this.peek() && this.peek()?.value !== ")") {
      const start = this.at
      try {
        const value = this.expr()
        args.push(isList(value) ? value : [value])
      } catch (error) {
        if (!(error instanceof Unparsed)) throw error
        this.at = start
        this.skipTo(",)")
        args.push([])
      }
      if (this.peek()?.value === ",") this.next()
    }
    return args
  }
  appendArgs(): Value[] {
    const base = this.expr()
    if (this.peek()?.value === ",") this.next()
    return [base, this.list(")")]
  }
  call(name: string, args: Value[]): Value {
    const str = (i: number) => {
      const value = args[i]
      if (!value || isList(value)) throw new Unparsed(name)
      return value
    }
    const short = name.replace(/^(?:utils|secrets|fmt|strings)\./, "")
    if (short === "append") return [...(args[0] as Str[]), ...(args[1] as Str[])]
    if (short === "GenerateSampleSecrets") return this.samples(str(0).s, str(1))
    if (short === "GenerateSampleSecret") {
      const s = this.helpers.single.replace("%s", str(0).s)
      const at = s.indexOf("%s")
      return { s: s.replace("%s", str(1).s), span: [at, at + str(1).s.length] }
    }
    if (short === "NewSecret" || name === "newPlausibleSecret") {
      const regex = str(0).s.replace(/^\(\?i\)/, "")
      const s = generate(parseRegex(regex), this.draw)
      return { s, span: [0, s.length], prefixed: /^(?:[A-Za-z0-9_]|\\[.-]){2}/.test(regex) }
    }
    const pattern = this.helpers.patterns.get(short)
    if (pattern !== undefined) return { s: pattern.replace("%s", args[0] ? str(0).s : "") }
    if (short === "Sprintf") {
      let i = 1
      return { s: str(0).s.replace(/%[sdv]/g, () => str(i++).s) }
    }
    if (short === "Repeat") return { s: str(0).s.repeat(Number(str(1).s)) }
    if (short === "ToUpper") return { s: str(0).s.toUpperCase() }
    throw new Unparsed(name)
  }
  samples(identifier: string, secret: Str): Str[] {
    return this.helpers.templates.map((template) => {
      const s = template.replaceAll("{i}", identifier).replaceAll("{I}", identifier.toUpperCase())
      const at = s.indexOf("{s}")
      const inner = secret.span ?? [0, secret.s.length]
      const span: [number, number] | undefined = at < 0 ? undefined : [at + inner[0], at + inner[1]]
      return { s: s.replace("{s}", secret.s), span, prefixed: secret.prefixed }
    })
  }
}

/** `"SG." + secret` is one token: a literal glued to a generated part joins its span. */
function concat(left: Str, right: Str): Str {
  const s = left.s + right.s
  const glue = (text: string) => /^[\w.~+/-]*$/.test(text)
  if (right.span) {
    const start = left.span ?? (glue(left.s) ? [0, 0] : [left.s.length, left.s.length])
    const prefixed = right.prefixed || (start[0] === 0 && left.s.length >= 2 && !left.span) || left.prefixed
    return { s, span: [start[0], left.s.length + right.span[1]], prefixed }
  }
  if (left.span && left.span[1] === left.s.length && glue(right.s)) {
    return { s, span: [left.span[0], s.length], prefixed: left.prefixed }
  }
  return { s, span: left.span, prefixed: left.prefixed }
}

interface RuleTests {
  rule: string
  tps: Str[]
  fps: Str[]
}

export function ruleFunctions(
  source: string,
  helpers: GoHelpers,
  draw: Draw,
  globals: Map<string, Value>,
): RuleTests[] {
  const out: RuleTests[] = []
  for (const fn of source.split(/\nfunc /).slice(1)) {
    const tokens = tokenizeGo(fn)
    const env = new Map(globals)
    const ev = new GoEval(tokens, env, helpers, draw)
    let tps: Str[] = []
    let fps: Str[] = []
    for (ev.at = 0; ev.at < tokens.length; ev.at++) {
      const token = ev.peek()
      const op = ev.peek(1)?.value
      if (token?.type === "id" && (op === ":=" || op === "=") && ev.peek(-1)?.value !== ".") {
        ev.at += 2
        const start = ev.at
        try {
          env.set(token.value, ev.expr())
        } catch (error) {
          if (!(error instanceof Unparsed)) throw error
          ev.at = start
        }
        ev.at--
      } else if (token?.value === "Validate" || token?.value === "ValidateWithPaths") {
        ev.at += 2
        const args = ev.tolerantArgs()
        tps = args[1] ?? []
        fps = args[2] ?? []
      }
    }
    if (tps.length || fps.length) {
      const rule = /RuleID:\s*"([^"]+)"/.exec(fn)?.[1] ?? fn.slice(0, 30)
      out.push({ rule, tps, fps })
    }
  }
  return out
}

/** A likely secret in a literal sample that says nothing of where it is: its longest key-like word. */
export function guessSecret(text: string): string {
  const url = /:\/\/[^\s:/@]*:([^\s@/]+)@/.exec(text)
  if (url?.[1]) return url[1]
  let best = ""
  let bestScore = -1
  for (const raw of text.split(/[\s"'`,;(){}[\]<>|?&]+/)) {
    // `name=value` gives its value; base64 padding (`…cmQ=`) is no operator.
    const assigned = /^[A-Za-z_$][\w.$-]*(?:=|:=?|=>)(.+)$/.exec(raw)?.[1]
    const word = (assigned ?? raw).replace(/[.:]+$/, "")
    if (/^\d{4}-\d\d-\d\d/.test(word)) continue
    const score = word.length + (/\d/.test(word) && /[A-Za-z]/.test(word) ? 40 : 0)
    if (word.length >= 6 && score > bestScore && !raw.includes("://")) {
      best = word
      bestScore = score
    }
  }
  return best
}

function gitleaksSamples(dir: string, draw: Draw): PeerSample[] {
  const helpers = readHelpers(dir)
  const out: PeerSample[] = []
  const files = git(dir, "ls-tree", "--name-only", "HEAD", "cmd/generate/config/rules/").split("\n")
  for (const file of files.filter((name) => name.endsWith(".go") && !name.endsWith("_test.go"))) {
    const source = git(dir, "show", `HEAD:${file}`)
    const base = file.replace(/^.*\/|\.go$/g, "")
    const promised = PROMISED_RE.test(base)
    const generic = base === "generic"
    for (const rule of ruleFunctions(source, helpers, draw, new Map())) {
      const src = `gitleaks:${rule.rule}`
      for (const tp of rule.tps) {
        const secret = tp.span ? tp.s.slice(...tp.span) : guessSecret(tp.s)
        if (!secret) continue
        const family = generic ? "generic assignments" : promised ? "promised families" : "other vendors"
        out.push({ family, source: src, text: tp.s, secret })
      }
      if (!generic) {
        const alone = new Set(rule.tps.flatMap((tp) => (tp.span && tp.prefixed ? [tp.s.slice(...tp.span)] : [])))
        for (const secret of alone) out.push({ family: "vendor tokens alone", source: src, text: secret, secret })
      }
      for (const fp of rule.fps) out.push({ family: "negatives", source: src, text: fp.s, secret: "" })
    }
  }
  return out
}

// ── secretlint: snapshot fixtures and what each reported ──

function secretlintSamples(dir: string): PeerSample[] {
  const out: PeerSample[] = []
  const files = git(dir, "ls-tree", "-r", "--name-only", "HEAD", "packages/@secretlint/").split("\n")
  const configured = new Set(
    files.filter((f) => /\/(?:options\.ts|\.secretlintrc\.json)$/.test(f)).map((f) => f.replace(/\/[^/]+$/, "")),
  )
  for (const file of files) {
    const match = /^packages\/@secretlint\/secretlint-rule-([\w-]+)\/test\/snapshots\/([^/]+)\/output\.json$/.exec(file)
    if (!match || /^(?:example|filter-comments|no-dotenv|no-homedir|pattern|internal-test|preset)/.test(match[1] ?? ""))
      continue
    const result = JSON.parse(git(dir, "show", `HEAD:${file}`)) as {
      filePath: string
      sourceContent?: string
      messages: Array<{ range: [number, number] }>
    }
    const text = result.sourceContent
    if (!text || /\.p12$/.test(result.filePath) || text.includes("\u0000") || text.length > 64 * 1024) continue
    const pkg = match[1] ?? ""
    const src = `secretlint:${pkg}/${match[2]}`
    if (result.messages.length === 0) {
      if (configured.has(file.replace(/\/output\.json$/, ""))) continue
      for (const line of text.split("\n"))
        if (line.trim()) out.push({ family: "negatives", source: src, text: line, secret: "" })
      continue
    }
    const identifiers = /account id|tenant_id|client_id/i.test(match[2] ?? "")
    const family = identifiers ? "identifiers" : PROMISED_RE.test(pkg) ? "promised families" : "other vendors"
    for (const message of result.messages) {
      const found = text.slice(...message.range)
      // Some rules report the name with the value (`KEY: "…"`): the value is the secret.
      const secret = /^[\w".-]+\s*(?:[:=]|=>)/.test(found) ? guessSecret(found) : found
      if (secret.length < 4) continue
      out.push({ family, source: src, text, secret })
      if (!identifiers && (text.trim() === secret.trim() || text.trim().split("\n").length === 1)) {
        out.push({ family: "vendor tokens alone", source: src, text: secret, secret })
      }
    }
  }
  return out
}

// ── detect-secrets: the Python literals of its plugin tests ──

type Py = string | boolean | null | number | Py[]

/** Python literals and the little they do with them: concatenation, `.format`, `*` with a count. */
class PyEval {
  at = 0
  readonly source: string
  readonly env: Map<string, Py>
  constructor(source: string, env: Map<string, Py>) {
    this.source = source
    this.env = env
  }
  ws() {
    for (;;) {
      const match = /^(?:\s+|#[^\n]*)/.exec(this.source.slice(this.at, this.at + 400))
      if (!match) return
      this.at += match[0].length
    }
  }
  expr(): Py {
    let left = this.term()
    for (;;) {
      this.ws()
      const op = this.source[this.at]
      if (op !== "+" && op !== "*") return left
      this.at++
      const right = this.term()
      if (op === "+" && typeof left === "string" && typeof right === "string") left = left + right
      else if (op === "*" && typeof left === "string" && typeof right === "number") left = left.repeat(right)
      else throw new Unparsed(op)
    }
  }
  term(): Py {
    let value = this.atom()
    for (;;) {
      this.ws()
      if (typeof value === "string" && this.source.startsWith(".format(", this.at)) {
        this.at += ".format(".length
        const args = this.seq(")")
        let i = 0
        value = value.replace(/\{\{|\}\}|\{(\d*)\}/g, (m, index: string | undefined) =>
          m === "{{" ? "{" : m === "}}" ? "}" : String(args[index ? Number(index) : i++]),
        )
      } else if (typeof value === "string" && /^['"]/.test(this.source[this.at] ?? "")) {
        value += this.atom() as string
      } else return value
    }
  }
  seq(close: string): Py[] {
    const items: Py[] = []
    for (;;) {
      this.ws()
      if (this.source[this.at] === close) {
        this.at++
        return items
      }
      items.push(this.expr())
      this.ws()
      if (this.source[this.at] === ",") this.at++
    }
  }
  atom(): Py {
    this.ws()
    const rest = this.source.slice(this.at, this.at + 20000)
    const string = /^([rbuRBU]{0,2})('''[\s\S]*?'''|"""[\s\S]*?"""|'(?:[^'\\\n]|\\.)*'|"(?:[^"\\\n]|\\.)*")/.exec(rest)
    if (string) {
      this.at += string[0].length
      const body = (string[2] ?? "").replace(/^('''|"""|'|")|('''|"""|'|")$/g, "")
      return /r/i.test(string[1] ?? "") ? body : unescapePy(body)
    }
    const word = /^(?:True|False|None|\d+|[A-Za-z_]\w*)/.exec(rest)?.[0]
    if (word) {
      this.at += word.length
      if (word === "True" || word === "False") return word === "True"
      if (word === "None") return null
      if (/^\d/.test(word)) return Number(word)
      if (this.source[this.at] === "(" || !this.env.has(word)) throw new Unparsed(word)
      return this.env.get(word) as Py
    }
    const open = this.source[this.at]
    if (open === "(" || open === "[") {
      this.at++
      const items = this.seq(open === "(" ? ")" : "]")
      return open === "(" && items.length === 1 && !/,\s*\)$/.test(this.source.slice(0, this.at))
        ? (items[0] as Py)
        : items
    }
    throw new Unparsed(open ?? "end")
  }
}

function unescapePy(body: string): string {
  return body.replace(/\\(x[0-9a-fA-F]{2}|[nrt\\'"]|\n)/g, (_m, code: string) => {
    if (code.startsWith("x")) return String.fromCharCode(Number.parseInt(code.slice(1), 16))
    return ({ n: "\n", r: "\r", t: "\t", "\n": "" } as Record<string, string>)[code] ?? code
  })
}

/** Module-level NAME = literal, then each parametrize list and each *_TEST_CASES list: (line, flag or secret). */
function pythonCases(source: string): Array<{ line: string; flag: boolean; secret?: string }> {
  const env = new Map<string, Py>()
  const cases: Array<{ line: string; flag: boolean; secret?: string }> = []
  const take = (entry: Py, names: string[]) => {
    const items = Array.isArray(entry) ? entry : [entry]
    const lineAt = names.findIndex((name) => /line|payload|token|content|secret$|string/.test(name))
    const line = items[Math.max(lineAt, 0)]
    if (typeof line !== "string") return
    const flagAt = names.findIndex((name) => /should|expected|flag|is_secret|result/.test(name))
    const flag = flagAt < 0 ? true : items[flagAt]
    if (typeof flag === "string") cases.push({ line, flag: true, secret: flag })
    else cases.push({ line, flag: flag === true })
  }
  for (const match of source.matchAll(/^([A-Z_][A-Z0-9_]*) = /gm)) {
    const ev = new PyEval(source, env)
    ev.at = (match.index ?? 0) + match[0].length
    try {
      const value = ev.expr()
      env.set(match[1] ?? "", value)
      if (/_TEST_CASES$/.test(match[1] ?? "") && Array.isArray(value))
        for (const entry of value) take(entry, ["line", "expected"])
    } catch (error) {
      if (!(error instanceof Unparsed)) throw error
    }
  }
  for (const match of source.matchAll(/@pytest\.mark\.parametrize\(\s*'([^']+)',\s*/g)) {
    const names = (match[1] ?? "").split(",").map((name) => name.trim())
    const ev = new PyEval(source, env)
    ev.at = (match.index ?? 0) + match[0].length
    const open = source[ev.at]
    if (open !== "[" && open !== "(") continue
    ev.at++
    // Element by element: one that calls a function is skipped, the rest still count.
    for (;;) {
      ev.ws()
      if (source[ev.at] === "]" || source[ev.at] === ")" || ev.at >= source.length) break
      const start = ev.at
      try {
        take(ev.expr(), names)
      } catch (error) {
        if (!(error instanceof Unparsed)) throw error
        ev.at = skipPyElement(source, start)
      }
      ev.ws()
      if (source[ev.at] === ",") ev.at++
    }
  }
  return cases
}

function skipPyElement(source: string, from: number): number {
  let depth = 0
  for (let i = from; i < source.length; i++) {
    const c = source[i]
    if (c === "'" || c === '"') {
      const close = source.indexOf(c, i + 1)
      i = close < 0 ? source.length : close
    } else if (c === "(" || c === "[" || c === "{") depth++
    else if (c === ")" || c === "]" || c === "}") {
      if (depth === 0) return i
      depth--
    } else if (c === "," && depth === 0) return i
  }
  return source.length
}

function detectSecretsSamples(dir: string): PeerSample[] {
  const out: PeerSample[] = []
  const files = git(dir, "ls-tree", "--name-only", "HEAD", "tests/plugins/").split("\n")
  for (const file of files.filter((name) => name.endsWith("_test.py") && !name.endsWith("base_test.py"))) {
    const plugin = file.replace(/^.*\/|_test\.py$/g, "")
    const src = `detect-secrets:${plugin}`
    const generic = plugin === "keyword"
    for (const { line, flag, secret } of pythonCases(git(dir, "show", `HEAD:${file}`))) {
      if (line.length > 4096) continue
      if (!flag) {
        out.push({ family: "negatives", source: src, text: line, secret: "" })
        continue
      }
      const found = secret ?? guessSecret(line)
      if (!found) continue
      const family = generic
        ? "generic assignments"
        : plugin === "ip_public"
          ? "identifiers"
          : PROMISED_RE.test(plugin)
            ? "promised families"
            : "other vendors"
      out.push({ family, source: src, text: line, secret: found })
      if (!generic && family !== "identifiers" && line.trim() === found)
        out.push({ family: "vendor tokens alone", source: src, text: line, secret: found })
    }
  }
  return out
}

/**
 * The stand-ins the issue asks to keep, whatever the peer says: runs of x, `EXAMPLE`, `<…>`, `$VAR`, `${…}`.
 * A positive whose secret is one of them is counted apart, outside the targets.
 */
export const STAND_IN_RE = /x{4,}|X{4,}|\*{4,}|example|^<[^<>]+>$|^\$\{|^\$[A-Za-z_]/i

/**
 * Every sample of the three peers. A negative that the same peer also lists as a positive (detect-secrets
 * flags a line in one language and not in another) is no negative: it is dropped from the negatives.
 */
export function peerSamples(root: string, mirrors: Record<string, string>, draw: Draw): PeerSample[] {
  const found = [
    ...gitleaksSamples(join(root, mirrors.gitleaks ?? ""), draw),
    ...secretlintSamples(join(root, mirrors.secretlint ?? "")),
    ...detectSecretsSamples(join(root, mirrors.detectSecrets ?? "")),
  ]
  const all = found
    .filter((sample) => sample.text.trim())
    .map((sample) =>
      sample.family !== "negatives" && STAND_IN_RE.test(sample.secret)
        ? { ...sample, family: "stand-ins" as const }
        : sample,
    )
  const positives = new Set(all.filter((s) => s.family !== "negatives").map((s) => s.text))
  const seen = new Set<string>()
  return all.filter((sample) => {
    if (sample.family === "negatives" && positives.has(sample.text)) return false
    const key = `${sample.family}\u0000${sample.text}\u0000${sample.secret}`
    if (seen.has(key)) return false
    seen.add(key)
    return true
  })
}
