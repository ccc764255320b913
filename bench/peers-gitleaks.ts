// gitleaks' rule tests, read from its sources: a small evaluator for the Go expressions that build them.
import type { Draw } from "../test/support/corpora/secrets.ts"
import type { PeerSample } from "../test/support/peers.ts"
import {
  findByRules,
  generate,
  git,
  guessSecret,
  IDENTIFIER_RULE_RE,
  PROMISED_RE,
  parseRegex,
  secretByRules,
  secretSpan,
  toJsRegex,
  Unparsed,
} from "./peers-secret.ts"

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
  /** The string constants the regex builders join (`identifierPrefix`, `secretSuffix`, …). */
  constants: Map<string, string>
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
  const constants = new Map<string, string>()
  const defs = tokenizeGo(/\nconst \(([\s\S]*?)\n\)/.exec(generate)?.[1] ?? "")
  for (let i = 0; i + 2 < defs.length; i++) {
    if (defs[i]?.type === "id" && defs[i + 1]?.value === "=" && defs[i + 2]?.type === "str")
      constants.set(defs[i]?.value ?? "", defs[i + 2]?.value ?? "")
  }
  return { templates, single: single?.value ?? "", patterns, constants }
}

/** gitleaks' GenerateSemiGenericRegex and GenerateUniqueTokenRegex, joined from the constants of its source. */
function ruleRegex(helpers: GoHelpers, kind: "semi" | "unique", args: Value[]): Str {
  const c = (name: string) => {
    const value = helpers.constants.get(name)
    if (value === undefined) throw new Unparsed(name)
    return value
  }
  const secret = args[kind === "semi" ? 1 : 0]
  const insensitive = args[kind === "semi" ? 2 : 1]
  if (!secret || isList(secret) || !insensitive || isList(insensitive)) throw new Unparsed(kind)
  const caseInsensitive = insensitive.s === "true"
  if (kind === "unique")
    return {
      s: `${caseInsensitive ? c("caseInsensitive") : ""}${c("secretPrefixUnique")}${secret.s}${c("secretSuffix")}`,
    }
  const ids = args[0]
  if (!ids || !isList(ids)) throw new Unparsed(kind)
  const identifiers = `${c("identifierPrefix")}${ids.map((id) => id.s).join("|")}${c("identifierSuffix")}`
  const lead = caseInsensitive
    ? `${c("caseInsensitive")}${identifiers}`
    : `${c("identifierCaseInsensitivePrefix")}${identifiers}${c("identifierCaseInsensitiveSuffix")}`
  return { s: `${lead}${c("operator")}${c("secretPrefix")}${secret.s}${c("secretSuffix")}` }
}

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
    if (token.value === "[" && this.peek()?.value === "]" && this.peek(1)?.value === "byte") {
      this.at += 2
      this.expect("(")
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
    if (token.value === "true" || token.value === "false") return { s: token.value }
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
    const short = name.replace(/^(?:utils|secrets|fmt|strings|regexp)\./, "")
    if (short === "MustCompile") return str(0)
    if (short === "GenerateSemiGenericRegex") return ruleRegex(this.helpers, "semi", args)
    if (short === "GenerateUniqueTokenRegex") return ruleRegex(this.helpers, "unique", args)
    if (short === "MergeRegexps") return { s: args.map((_, i) => str(i).s).join("|") }
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
    // The generated part of `base64.StdEncoding.EncodeToString([]byte(…))` is the whole encoding.
    if (name === "base64.StdEncoding.EncodeToString" || name === "base64.RawURLEncoding.EncodeToString") {
      const raw = Buffer.from(str(0).s).toString(name.includes("RawURL") ? "base64url" : "base64")
      return { s: raw, span: str(0).span ? [0, raw.length] : undefined }
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
  /** The rule's own regex and secret group, to find the secret in a literal sample. */
  regex?: string
  group: number
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
    let regex: string | undefined
    let group = 0
    for (ev.at = 0; ev.at < tokens.length; ev.at++) {
      const token = ev.peek()
      const op = ev.peek(1)?.value
      if (token?.type === "id" && (token.value === "Regex" || token.value === "SecretGroup") && op === ":") {
        ev.at += 2
        const start = ev.at
        try {
          const value = ev.expr()
          if (isList(value)) throw new Unparsed("Regex")
          if (token.value === "Regex") regex = value.s
        } catch (error) {
          if (!(error instanceof Unparsed)) throw error
          if (token.value === "SecretGroup") group = Number(ev.tokens[start]?.value ?? 0)
          ev.at = start
        }
        ev.at--
      } else if (token?.type === "id" && (op === ":=" || op === "=") && ev.peek(-1)?.value !== ".") {
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
      out.push({ rule, tps, fps, regex, group })
    }
  }
  return out
}

/** A rule file's package-level `var name = …` (cloudflare's key lists), for the rule functions that use them. */
function packageVars(source: string, helpers: GoHelpers, draw: Draw): Map<string, Value> {
  const globals = new Map<string, Value>()
  const head = source.split(/\nfunc /)[0] ?? ""
  const tokens = tokenizeGo(head)
  const ev = new GoEval(tokens, globals, helpers, draw)
  for (let i = 0; i + 2 < tokens.length; i++) {
    if (tokens[i]?.value !== "var" || tokens[i + 1]?.type !== "id" || tokens[i + 2]?.value !== "=") continue
    ev.at = i + 3
    try {
      globals.set(tokens[i + 1]?.value ?? "", ev.expr())
    } catch (error) {
      if (!(error instanceof Unparsed)) throw error
    }
  }
  return globals
}

export function gitleaksSamples(dir: string, draw: Draw): PeerSample[] {
  const helpers = readHelpers(dir)
  const out: PeerSample[] = []
  const files = git(dir, "ls-tree", "--name-only", "HEAD", "cmd/generate/config/rules/").split("\n")
  const rules = files
    .filter((name) => name.endsWith(".go") && !name.endsWith("_test.go"))
    .flatMap((file) => {
      const base = file.replace(/^.*\/|\.go$/g, "")
      const source = git(dir, "show", `HEAD:${file}`)
      return ruleFunctions(source, helpers, draw, packageVars(source, helpers, draw)).map((rule) => ({
        ...rule,
        base,
        re: rule.regex === undefined ? undefined : toJsRegex(rule.regex),
      }))
    })
  const regexes = rules.flatMap((rule) => (rule.re ? [{ re: rule.re, id: rule.rule }] : []))
  for (const rule of rules) {
    const src = `gitleaks:${rule.rule}`
    const generic = rule.base === "generic"
    const identifiers = IDENTIFIER_RULE_RE.test(rule.rule)
    for (const tp of rule.tps) {
      // What gitleaks reports is its rule's secret group (`LTAI` and the drawn part, not the drawn part alone):
      // that is what must go. Where its regex (read here as JavaScript) finds less than the drawn part, or
      // nothing, the drawn part; a literal sample without either, a guess.
      const span = tp.span ? tp.s.slice(...tp.span) : ""
      const at = rule.re ? secretSpan(rule.re, tp.s, rule.group) : undefined
      const reported = at ? tp.s.slice(...at) : ""
      // A report that is the name with the value (`_gitlab_session=…`, no group): the name is no secret.
      const named =
        span && reported.endsWith(span) && /^[A-Za-z_][\w.-]*\s*[=:]\s*["']?$/.test(reported.slice(0, -span.length))
      const found = named ? span : reported && span && reported.includes(span) ? reported : ""
      // A literal sample: what the rule reports, less a name before it or a user before a password.
      const literal = !span && rule.re ? secretByRules([{ re: rule.re, group: rule.group }], tp.s) : ""
      const secret = found || literal || span || guessSecret(tp.s)
      if (!secret) continue
      const family = identifiers
        ? "identifiers"
        : generic
          ? "generic assignments"
          : PROMISED_RE.test(rule.base)
            ? "promised families"
            : "other vendors"
      const located = found || literal ? "rule" : span ? "span" : "guess"
      out.push({ family, source: src, text: tp.s, secret, located })
    }
    if (!generic && !identifiers) {
      const alone = new Set(rule.tps.flatMap((tp) => (tp.span && tp.prefixed ? [tp.s.slice(...tp.span)] : [])))
      for (const secret of alone)
        out.push({ family: "vendor tokens alone", source: src, text: secret, secret, located: "span" })
    }
    // A negative of one rule's test; whether any of gitleaks' regexes matches it says if its shape is a secret's.
    for (const fp of rule.fps) {
      const peerRule = findByRules(regexes, fp.s)?.rule
      out.push({ family: "negatives", source: src, text: fp.s, secret: "", ...(peerRule ? { peerRule } : {}) })
    }
  }
  return out
}
