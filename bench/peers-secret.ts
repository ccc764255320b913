// Which part of a peer's test sample is the secret: the peer's own rule where it can be run, a guess where not.
import { execFileSync } from "node:child_process"
import type { Draw } from "../test/support/corpora/secrets.ts"

/** The vendors and contexts the README promises, as the peers name their rules, files and plugins. */
export const PROMISED_RE =
  /^(?:1password|age|anthropic|atlassian|aws(?:_key)?|azure|basic_?auth|cloudflare|curl|database-connection-string|databricks|digitalocean|discord|docker|doppler|facebook|figma|flyio|gcp|github(?:_token)?|gitlab(?:_token)?|grafana|groq|hashicorp(?:_vault|-vault)?|heroku|huggingface|jwt|kubernetes|no-k8s-kind-secret|linear|mailgun|mapbox|newrelic|notion|npm|openai|perplexity|planetscale|postman|private_?key|privatekey|pypi(?:_token)?|sendgrid|sentry|shopify|slack|sonar|sourcegraph|square(?:_oauth)?|stripe(?:_key)?|tailscale|telegram(?:_token)?|twilio|vercel)$/

/**
 * The stand-ins the issue asks to keep, whatever the peer says: runs of x, `EXAMPLE`, `<…>`, `$VAR`, `${…}`.
 * A positive whose secret is one of them is counted apart, outside the targets.
 */
export const STAND_IN_RE = /x{4,}|X{4,}|\*{4,}|example|^<[^<>]+>$|^\$\{|^\$[A-Za-z_]/i

/** Bits of information in a word: its length times the Shannon entropy of its characters. */
export function information(word: string): number {
  const counts = new Map<string, number>()
  for (const char of word) counts.set(char, (counts.get(char) ?? 0) + 1)
  let entropy = 0
  for (const count of counts.values()) entropy -= (count / word.length) * Math.log2(count / word.length)
  return entropy * word.length
}

/** `name=value`, `user:password`, `//host/:_authToken=value`: the value; base64 padding (`…cmQ=`) is no operator. */
const ASSIGNED_RE = /^[\w.$@/-]*?[A-Za-z\d_$@](?:=|:=?|=>)(?=[^=])(.+)$/

/**
 * A likely secret in a literal sample that says nothing of where it is, for rules that cannot be run here:
 * the word, assigned value or URL password holding the most information (a token or key outweighs the words
 * around it; a run of `=` holds none).
 */
export function guessSecret(text: string): string {
  let best = ""
  let bestScore = 0
  const consider = (word: string, min: number) => {
    const score = information(word)
    if (word.length >= min && /[A-Za-z\d]/.test(word) && score > bestScore) {
      best = word
      bestScore = score
    }
  }
  for (const url of text.matchAll(/:\/\/[^\s:/@'"]*:([^\s/'"]+)@/g)) consider(url[1] ?? "", 4)
  for (const raw of text.split(/[\s"'`,;(){}[\]<>|?&]+/)) {
    if (raw.includes("://") || /^\d{4}-\d\d-\d\d/.test(raw)) continue
    const word = (ASSIGNED_RE.exec(raw)?.[1] ?? raw).replace(/^[=:]+|[.:]+$/g, "")
    consider(word, 6)
  }
  return best
}

/**
 * A peer's regex (Go's RE2 or Python's re) as a JavaScript one: inline flags at the start become flags,
 * `\z`/`\Z`/`\A` anchors, `(?P<name>` groups and POSIX classes are rewritten. Undefined where JavaScript
 * cannot compile the result.
 */
export function toJsRegex(source: string, ignoreCase = false): RegExp | undefined {
  let body = source
  let flags = ignoreCase ? "di" : "d"
  const lead = /^\(\?([imsU]+)\)/.exec(body)
  if (lead) {
    body = body.slice(lead[0].length)
    if (lead[1]?.includes("i")) flags += flags.includes("i") ? "" : "i"
    if (lead[1]?.includes("s")) flags += "s"
  }
  // An inline flag further in applies to the rest: read as one for the whole pattern (close enough to locate).
  body = body.replace(/\(\?i\)/g, () => {
    if (!flags.includes("i")) flags += "i"
    return ""
  })
  body = body
    .replace(/\\[zZ]/g, "$")
    .replace(/\\A/g, "^")
    .replace(/\(\?P</g, "(?<")
    .replace(/\[:alnum:\]/g, "a-zA-Z0-9")
    .replace(/\[:alpha:\]/g, "a-zA-Z")
    .replace(/\[:digit:\]/g, "0-9")
    .replace(/\[:space:\]/g, "\\s")
  try {
    return new RegExp(body, flags)
  } catch {
    return undefined
  }
}

/**
 * The span of a rule's secret in a text. gitleaks takes the given group, else the first non-empty one, else
 * the match; Python's `findall` (group -1) the groups, of which one that starts the match is a prefix's
 * alternatives (`(ghp|gho|…)_…`), not the secret: then the whole match.
 */
export function secretSpan(re: RegExp, text: string, group = 0): [number, number] | undefined {
  re.lastIndex = 0
  const match = re.exec(text)
  if (!match?.indices) return undefined
  const spans = match.indices
  const whole = spans[0] as [number, number]
  const groups = spans.slice(1).filter((span): span is [number, number] => !!span && span[1] > span[0])
  const chosen =
    group > 0 ? spans[group] : group < 0 ? (groups.find((span) => span[0] > whole[0]) ?? whole) : (groups[0] ?? whole)
  if (!chosen || chosen[1] <= chosen[0]) return undefined
  // Boundaries some rules match with the secret (`(?:\s|=|:|"|^)AKC…`) are no part of it.
  let [start, end] = chosen
  while (start < end && /[\s=:"'`]/.test(text[start] ?? "")) start++
  while (end > start && /[\s"'`;]/.test(text[end - 1] ?? "")) end--
  return end > start ? [start, end] : undefined
}

/**
 * What must go of what a rule matched: of `user:password` the password (an empty one makes the user the key,
 * as in `curl -u "KEY:"`), of a YAML entry (`password: …`, `.dockercfg: |` and its lines) or of `Name=…` the
 * value. A rule that matches a whole credential or entry says where the secret is, not that its name is one.
 */
export function secretOf(raw: string): string {
  // `AccountKey=…`: a rule that matches the name with the value; a webhook's URL: its path, not its host.
  const found = raw.replace(/^[A-Za-z_][\w.-]*=(?=[^=])/, "").replace(/^https?:\/\/[^/\s:@]+(?=\/\S)/, "")
  const colon = found.search(/:(?!\/\/)/)
  if (colon <= 0) return found
  const head = found.slice(0, colon)
  // A token's own colon (`123456789:AA…`, Telegram's) follows digits only.
  if (!/^["']?[^\s:"']*["']?$/.test(head) || /^\d+$/.test(head)) return found
  const tail = found
    .slice(colon + 1)
    .replace(/^[ \t]*(?:[|>][-+]?[ \t]*\r?\n)?[\s"']*/, "")
    .replace(/["']+$/, "")
  return tail || head.replace(/^["']|["']$/g, "")
}

export interface PeerRule {
  re: RegExp
  group?: number
  /** The peer's name for the rule: gitleaks' rule id, detect-secrets' plugin module. */
  id?: string
}

/** The first of a peer's rules that finds a secret in a text, and the secret it finds. */
export function findByRules(rules: readonly PeerRule[], text: string): { rule: string; secret: string } | undefined {
  for (const rule of rules) {
    const span = secretSpan(rule.re, text, rule.group)
    if (span) return { rule: rule.id ?? "?", secret: secretOf(text.slice(...span)) }
  }
  return undefined
}

/** Where the rules of a peer say a sample's secret is: the first of them that finds one. */
export const secretByRules = (rules: readonly PeerRule[], text: string): string =>
  findByRules(rules, text)?.secret ?? ""

/** Rules that find identifiers or markers rather than secrets: OAuth client ids, a service-account file's type. */
export const IDENTIFIER_RULE_RE = /client[-_]id|tenant[-_]id|account[-_ ]id|^gcp-service-account$|^ip_public$/i

export const git = (dir: string, ...args: string[]) =>
  execFileSync("git", ["--git-dir", dir, ...args], { encoding: "utf8", maxBuffer: 1 << 28 })

/** An expression the evaluators here cannot read: the element holding it is skipped. */
export class Unparsed extends Error {}

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
