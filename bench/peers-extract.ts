/**
 * The peers' test samples, read from their mirrors at run time (bench/peers.ts): gitleaks' rule tests
 * (bench/peers-gitleaks.ts), secretlint's snapshot fixtures and what each reported, detect-secrets' plugin tests
 * (the Python literals of their parameter lists) with each plugin's own regexes to say where the secret is.
 */

import { join } from "node:path"
import type { Draw } from "../test/support/corpora/secrets.ts"
import type { PeerSample } from "../test/support/peers.ts"
import { gitleaksSamples } from "./peers-gitleaks.ts"
import {
  findByRules,
  git,
  guessSecret,
  IDENTIFIER_RULE_RE,
  PROMISED_RE,
  STAND_IN_RE,
  secretByRules,
  toJsRegex,
  Unparsed,
} from "./peers-secret.ts"

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
      messages: Array<{ range: [number, number]; data?: Record<string, string> }>
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
    const identifiers = IDENTIFIER_RULE_RE.test(match[2] ?? "")
    const family = identifiers ? "identifiers" : PROMISED_RE.test(pkg) ? "promised families" : "other vendors"
    for (const message of result.messages) {
      const secret = reported(text, message)
      if (secret.length < 4) continue
      out.push({ family, source: src, text, secret, located: "rule" })
      // Standing alone only a format with a prefix of its own: a password or a bare key is nothing without its context.
      if (!identifiers && PREFIXED_RE.test(secret) && (text.trim() === secret || !text.trim().includes("\n"))) {
        out.push({ family: "vendor tokens alone", source: src, text: secret, secret, located: "rule" })
      }
    }
  }
  return out
}

/** A token's own prefix (`ghp_`, `sk-ant-`, `SG.`, `hvs.`), a key id's (`AKIA…`) or a key block's marker. */
const PREFIXED_RE = /^(?:-----BEGIN|[A-Za-z0-9]{2,12}[_.-]|A[KS]IA[A-Z0-9]{16}$)/

/**
 * What a secretlint message reported: the value it names in its data (`KEY`, `TOKEN`, `CREDENTIAL`; the
 * password of a URL's credentials), else its range (some rules report the name with it: then the value).
 * Snapshot ranges are not always where the data is (`azureClientSecret := "…` cut mid-value): data first.
 */
function reported(text: string, message: { range: [number, number]; data?: Record<string, string> }): string {
  const named = Object.entries(message.data ?? {})
    .filter(([key, value]) => !/^(?:PATTERN_NAME|FILE_NAME|PATH|typeName)$/.test(key) && text.includes(value))
    .map(([, value]) => value)
    .sort((a, b) => b.length - a.length)[0]
  const found = named ?? text.slice(...message.range)
  // A whole file reported for the key in it (a service account's JSON): the key block is the secret.
  const block = /-----BEGIN[^-]{0,40}-----[\s\S]*?-----END[^-]{0,40}-----/.exec(found)?.[0]
  if (block && block !== found) return block
  const url = /^[a-z][\w+.:-]*:\/\/[^\s:/@]*:(.+)@[^@\s]*$/.exec(found)
  if (url?.[1]) return url[1]
  return /^[\w".-]+\s*(?:[:=]|=>)/.test(found) ? guessSecret(found) : found
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
      } else if (typeof value === "string" && /^[rbuRBU]{0,2}['"]/.test(this.source.slice(this.at, this.at + 3))) {
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
    // A list of cases element by element: one built by a call (a long line of random base64) is skipped, the
    // rest still count.
    if (/_TEST_CASES$/.test(match[1] ?? "")) {
      for (const entry of pyElements(source, ev)) take(entry, ["line", "expected"])
      continue
    }
    try {
      env.set(match[1] ?? "", ev.expr())
    } catch (error) {
      if (!(error instanceof Unparsed)) throw error
    }
  }
  for (const match of source.matchAll(/@pytest\.mark\.parametrize\(\s*'([^']+)',\s*/g)) {
    const names = (match[1] ?? "").split(",").map((name) => name.trim())
    const ev = new PyEval(source, env)
    ev.at = (match.index ?? 0) + match[0].length
    for (const entry of pyElements(source, ev)) take(entry, names)
  }
  return cases
}

/** The elements of the list or tuple at `ev.at` that evaluate; one that calls a function is skipped. */
function pyElements(source: string, ev: PyEval): Py[] {
  const open = source[ev.at]
  if (open !== "[" && open !== "(") return []
  ev.at++
  const out: Py[] = []
  for (;;) {
    ev.ws()
    if (source[ev.at] === "]" || source[ev.at] === ")" || ev.at >= source.length) return out
    const start = ev.at
    try {
      out.push(ev.expr())
    } catch (error) {
      if (!(error instanceof Unparsed)) throw error
      ev.at = skipPyElement(source, start)
    }
    ev.ws()
    if (source[ev.at] === ",") ev.at++
  }
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

/** Module-level `NAME = literal` of a Python source, for the expressions that use them. */
function moduleConstants(source: string): Map<string, Py> {
  const env = new Map<string, Py>()
  for (const match of source.matchAll(/^([A-Za-z_][A-Za-z0-9_]*) = /gm)) {
    const ev = new PyEval(source, env)
    ev.at = (match.index ?? 0) + match[0].length
    try {
      env.set(match[1] ?? "", ev.expr())
    } catch (error) {
      if (!(error instanceof Unparsed)) throw error
    }
  }
  return env
}

/** A detect-secrets plugin's denylist as JavaScript regexes: each `re.compile` of literal strings in it. */
function denylist(source: string): RegExp[] {
  const at = source.indexOf("denylist = ")
  if (at < 0) return []
  const end = source.slice(at).search(/\n {4}def |\nclass |\n\n\n/)
  const block = source.slice(at, end < 0 ? undefined : at + end)
  const env = moduleConstants(source)
  const rules: RegExp[] = []
  for (const match of block.matchAll(/re\.compile\(/g)) {
    const ev = new PyEval(block, env)
    ev.at = match.index + match[0].length
    try {
      const pattern = ev.expr()
      const ignoreCase = /^\s*,\s*flags=re\.(?:IGNORECASE|I)\b/.test(block.slice(ev.at, ev.at + 80))
      const re = typeof pattern === "string" ? toJsRegex(pattern, ignoreCase) : undefined
      if (re) rules.push(re)
    } catch (error) {
      if (!(error instanceof Unparsed)) throw error
    }
  }
  return rules
}

/** What a private-key plugin's marker stands for: the body after the BEGIN line, up to the END line. */
function keyBody(text: string): string {
  const begin = /-----BEGIN[^\n]*-----\n?/.exec(text)
  if (!begin) return ""
  const from = begin.index + begin[0].length
  const end = text.indexOf("-----END", from)
  return text.slice(from, end < 0 ? undefined : end).trim()
}

function detectSecretsSamples(dir: string): PeerSample[] {
  const out: PeerSample[] = []
  const files = git(dir, "ls-tree", "--name-only", "HEAD", "tests/plugins/").split("\n")
  const everyRule = git(dir, "ls-tree", "--name-only", "HEAD", "detect_secrets/plugins/")
    .split("\n")
    .filter((name) => name.endsWith(".py"))
    .flatMap((name) =>
      denylist(git(dir, "show", `HEAD:${name}`)).map((re) => ({ re, group: -1, id: name.replace(/^.*\/|\.py$/g, "") })),
    )
  for (const file of files.filter((name) => name.endsWith("_test.py") && !name.endsWith("base_test.py"))) {
    const plugin = file.replace(/^.*\/|_test\.py$/g, "")
    const src = `detect-secrets:${plugin}`
    const generic = plugin === "keyword"
    const test = git(dir, "show", `HEAD:${file}`)
    const module = /from detect_secrets\.plugins\.(\w+) import/.exec(test)?.[1]
    const rules = module
      ? denylist(git(dir, "show", `HEAD:detect_secrets/plugins/${module}.py`)).map((re) => ({ re, group: -1 }))
      : []
    for (const { line, flag, secret } of pythonCases(test)) {
      // A template the test fills in (`'"{secret}"'`) is no sample of its own.
      if (line.length > 4096 || /\{(?:non_)?secret\}/.test(line)) continue
      if (!flag) {
        const peerRule = findByRules(everyRule, line)?.rule
        out.push({ family: "negatives", source: src, text: line, secret: "", ...(peerRule ? { peerRule } : {}) })
        continue
      }
      const byRule = secret ?? (plugin === "private_key" ? keyBody(line) : secretByRules(rules, line))
      const found = byRule || guessSecret(line)
      if (!found) continue
      const family = IDENTIFIER_RULE_RE.test(plugin)
        ? "identifiers"
        : generic
          ? "generic assignments"
          : PROMISED_RE.test(plugin)
            ? "promised families"
            : "other vendors"
      const located = byRule ? "rule" : "guess"
      out.push({ family, source: src, text: line, secret: found, located })
      if (!generic && family !== "identifiers" && line.trim() === found)
        out.push({ family: "vendor tokens alone", source: src, text: line, secret: found, located })
    }
  }
  return out
}

/**
 * Every sample of the three peers; a positive whose secret is a stand-in (`xxxx`, `EXAMPLE`) stays in its
 * family, marked, since the peer's test expects it found. A negative that the same peer also lists as a positive (detect-secrets
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
      sample.family !== "negatives" && STAND_IN_RE.test(sample.secret) ? { ...sample, standIn: true } : sample,
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
