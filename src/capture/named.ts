// Files a claim names that no tool read: found in the claim, read by the check itself within bounds, kept apart as evidence the agent never saw.

import { wordPattern } from "../base/words.ts"
import type { Deps } from "../config/effects.ts"
import type { Premise } from "../state/shapes.ts"
import { ignoreFolders, isIgnored, parseIgnore } from "./ignore.ts"
import { resolvePath } from "./provenance.ts"
import { escapeDelimiters, redactLines } from "./redact/redact.ts"
import { isSensitivePath } from "./sensitive.ts"

/** At most this much of one file goes to the judge, line numbers included. */
export const NAMED_FILE_CHARS = 4_000

/** At most this many files are read for one reply. */
export const NAMED_FILES_PER_REPLY = 3

/** How much of a file is read to find the lines a claim speaks of; a symbol further down is not found. */
const NAMED_READ_BYTES = 256 * 1024

/** Lines shown above a symbol's line or a cited line: the comment and signature that say what it is. */
const LINES_ABOVE = 6

/** Lines read around the window before its cut, so a secret spanning lines is still recognised there. */
const REDACTION_LINES = 40

/** How many folders up from the project the repository's root (the folder holding `.git`) is looked for. */
const ROOT_SEARCH_DEPTH = 8

/** The label a source read by the check carries, for the judge, the note and the report. */
const READ_BY_CHECK = "read by the check"

/** File endings of source, docs and configuration: a bare `name.ending` with one of them names a file. */
const SOURCE_FILE_ENDINGS = [
  ...["ts", "tsx", "js", "jsx", "mjs", "cjs", "py", "go", "rs", "java", "kt", "rb", "php", "cs", "cpp", "hpp"],
  ...["c", "h", "md", "json", "yaml", "yml", "toml", "ini", "cfg", "sh", "html", "css", "scss", "sql", "txt"],
] as const

/** A file named in a claim: in backticks, or a bare token with a path separator or a source-file ending. */
export const PATH_TOKEN_RE = new RegExp(
  String.raw`\`([^\`\s]*(?:\/|\.[A-Za-z]{1,8})[^\`\s]*)\`|(?<![\w/.-])((?:[\w.-]+\/)+[\w.-]+|[\w-]+\.${wordPattern(SOURCE_FILE_ENDINGS)})(?![\w/-])`,
  "g",
)

/** A line cited after a path: `:40`, `:10-20`, `#L10`, `#L10-L20`. */
const CITATION_RE = /(?::(\d+)(?:[-–](\d+))?|#L(\d+)(?:-L?(\d+))?)$/

/** The same right after a bare path in prose (`src/net.ts:40`), where the path token stops before it. */
const CITATION_AFTER_RE = /^(?::(\d+)(?:[-–]\d+)?|#L(\d+)(?:-L?\d+)?)(?![\w/])/

/** A name in backticks (`retry`, `Client.send`, `retry()`) or a call in prose (`retry()`): a symbol the claim speaks of. */
const SYMBOL_RE = /`([A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)*)(?:\([^`)]*\))?`|(?<![\w$.`])([A-Za-z_$][\w$]*)\(\)/g

/** Words in backticks that are no symbol of a file: literals and keywords. */
const NOT_SYMBOLS = new Set(["true", "false", "null", "undefined", "this", "self", "None", "nil", "return", "async"])

/**
 * A name that ends like a file (`net.ts`, `pool.yaml`) is the file, not a symbol in it; one without a folder
 * that ends otherwise (`Client.send`, `cache.get`) is a symbol, not a file.
 */
const FILE_ENDING_RE =
  /\.(?:ts|tsx|mts|cts|js|jsx|mjs|cjs|vue|svelte|py|pyi|go|rs|java|kt|kts|scala|swift|dart|rb|php|cs|fs|cpp|cc|hpp|c|h|m|lua|ex|exs|erl|hs|ml|r|jl|pl|pm|zig|md|mdx|rst|json|jsonc|ya?ml|toml|ini|cfg|conf|xml|proto|graphql|gradle|tf|sh|bash|zsh|ps1|html|css|scss|less|sql|csv|txt|lock)$/i

/** One file a claim names, as written there: the path, a cited line, and the symbol the claim speaks of. */
interface NamedFile {
  /** As written, the citation cut off. */
  path: string
  line: number | undefined
  symbol: string | undefined
}

/** The files a claim names, each once, with the line it cites or the symbol it names. */
export function filesNamedIn(claim: string): NamedFile[] {
  const symbols = [...claim.matchAll(SYMBOL_RE)]
    .map((match) => match[1] ?? match[2] ?? "")
    .filter((name) => !FILE_ENDING_RE.test(name))
    .map((name) => name.split(".").at(-1) ?? "")
    .filter((name) => name.length > 1 && !NOT_SYMBOLS.has(name))
  const found = new Map<string, NamedFile>()
  for (const match of claim.matchAll(PATH_TOKEN_RE)) {
    let token = (match[1] ?? match[2] ?? "").replace(/[.,;)]+$/, "")
    if (/^[a-z][\w+.-]*:\/\//i.test(token) || token.startsWith("~")) continue
    const cited = CITATION_RE.exec(token)
    let line = cited ? Number(cited[1] ?? cited[3]) : undefined
    if (cited) token = token.slice(0, cited.index)
    if (match[2] !== undefined && line === undefined) {
      const after = CITATION_AFTER_RE.exec(claim.slice((match.index ?? 0) + match[0].length))
      if (after) line = Number(after[1] ?? after[2])
    }
    token = token.replace(/:$/, "")
    if (!token || found.has(token) || (!token.includes("/") && !FILE_ENDING_RE.test(token))) continue
    found.set(token, { path: token, line, symbol: symbols[0] })
  }
  return [...found.values()]
}

/** A path written in a claim as an absolute path in the project, `.` and `..` settled; undefined outside it. */
export function projectPath(written: string, directory: string): { absolute: string; relative: string } | undefined {
  const dir = directory.replace(/[\\/]+$/, "")
  const raw = written.replace(/\\/g, "/")
  const joined = raw.startsWith("/") ? raw : `${dir}/${raw}`
  const segments: string[] = []
  for (const segment of joined.split("/")) {
    if (segment === "" || segment === ".") continue
    if (segment === "..") {
      if (segments.pop() === undefined) return undefined
    } else segments.push(segment)
  }
  const absolute = `/${segments.join("/")}`
  if (!absolute.startsWith(`${dir}/`)) return undefined
  return { absolute, relative: absolute.slice(dir.length + 1) }
}

/** The line (0-based) where a symbol is defined, else the first that names it; undefined when none does. */
export function symbolLine(lines: readonly string[], symbol: string): number | undefined {
  const name = symbol.replace(/[$]/g, "\\$&")
  const definition = new RegExp(
    `(?:\\b(?:function\\*?|def|class|interface|type|enum|struct|trait|fn|func|const|let|var|val)\\s+${name}(?![\\w$])|^\\s*(?:(?:export|public|private|protected|static|async|readonly|override)\\s+)*${name}\\s*(?:[(:=]|<))`,
  )
  const mention = new RegExp(`(?<![\\w$])${name}(?![\\w$])`)
  const defined = lines.findIndex((line) => definition.test(line))
  if (defined >= 0) return defined
  const named = lines.findIndex((line) => mention.test(line))
  return named >= 0 ? named : undefined
}

/**
 * The part of a file the judge gets: all of it when it fits; else from a little above the cited line or the
 * symbol (from the start when neither is found),
 * numbered as opencode's read numbers them, redacted, at most `cap` characters. The lines around the window
 * are redacted with it, so a secret that begins above the window is still recognised.
 */
export function fileWindow(text: string, focus: number | undefined, cap = NAMED_FILE_CHARS) {
  const lines = text.split("\n")
  if (lines.length > 1 && lines.at(-1) === "") lines.pop()
  // Numbered, the whole file fits: a claim about one function often rests on a constant at the top.
  const whole = lines.reduce((size, line, at) => size + line.length + String(at + 1).length + 3, 0) <= cap
  const start = whole ? 0 : Math.max(0, Math.min(lines.length - 1, (focus ?? 0) - LINES_ABOVE))
  const from = Math.max(0, start - REDACTION_LINES)
  // Every line costs at least its number: the lines that can fit, and a margin below them for redaction.
  let upTo = start
  for (let size = 0; upTo < lines.length && size <= cap; upTo++) size += (lines[upTo]?.length ?? 0) + 1
  const redacted = redactLines(lines.slice(from, Math.min(lines.length, upTo + REDACTION_LINES)))
  const out: string[] = []
  let size = 0
  let last = start + 1
  for (let at = start; at < upTo; at++) {
    const line = redacted[at - from]
    if (line === undefined) continue
    const numbered = escapeDelimiters(`${at + 1}: ${line}`)
    if (size + numbered.length > cap) {
      // A first line longer than the cap is cut to it; any later one ends the window.
      if (out.length === 0) out.push(numbered.slice(0, cap))
      break
    }
    out.push(numbered)
    size += numbered.length + 1
    last = at + 1
  }
  return { text: out.join("\n"), first: start + 1, last }
}

/** A NUL byte in the head, or bytes that are no UTF-8: a binary file, never sent. */
export function decodeText(bytes: Uint8Array, complete: boolean): string | undefined {
  if (bytes.subarray(0, 8_000).includes(0)) return undefined
  try {
    // `stream` leaves a character cut at the end of a partial read alone instead of calling it invalid.
    return new TextDecoder("utf-8", { fatal: true }).decode(bytes, { stream: !complete })
  } catch {
    return undefined
  }
}

/** What the check needs of the file system: the effects, and the project it may read in. */
type FileAccess = Pick<Deps, "readText" | "fileExists" | "realPath" | "readHead">

/** The repository's root: the project or the nearest folder above it holding `.git`; the project when none does. */
function repositoryRoot(directory: string, deps: FileAccess): string {
  let dir = directory.replace(/[\\/]+$/, "")
  for (let up = 0; up <= ROOT_SEARCH_DEPTH && dir; up++) {
    if (deps.fileExists(`${dir}/.git`)) return dir
    dir = dir.slice(0, dir.lastIndexOf("/"))
  }
  return directory.replace(/[\\/]+$/, "")
}

/** Whether git would ignore a file of the project: the .gitignore files on its way down, and info/exclude. */
async function isGitIgnored(absolute: string, directory: string, deps: FileAccess): Promise<boolean> {
  const root = repositoryRoot(directory, deps)
  const relative = absolute.slice(root.length + 1)
  if (relative.split("/").includes(".git")) return true
  const sources = [
    { base: "", file: `${root}/.git/info/exclude` },
    ...ignoreFolders(relative).map((base) => ({ base, file: `${root}/${base ? `${base}/` : ""}.gitignore` })),
  ]
  const texts = await Promise.all(sources.map((source) => deps.readText(source.file).catch(() => undefined)))
  const rules = sources.flatMap((source, at) => parseIgnore(texts[at] ?? "", source.base))
  return rules.length > 0 && isIgnored(relative, rules)
}

/**
 * Reads one named file, or says nothing: only a regular text file inside the project, reached through links
 * that stay inside it, neither sensitive nor ignored by git.
 */
async function readNamedFile(named: NamedFile, directory: string, deps: FileAccess) {
  const place = projectPath(named.path, directory)
  if (!place || isSensitivePath(place.relative)) return undefined
  const [real, realDir] = await Promise.all([deps.realPath(place.absolute), deps.realPath(directory)])
  if (!real || !realDir || !real.startsWith(`${realDir.replace(/\/+$/, "")}/`)) return undefined
  const realRelative = real.slice(realDir.replace(/\/+$/, "").length + 1)
  if (isSensitivePath(realRelative)) return undefined
  if (await isGitIgnored(place.absolute, directory, deps)) return undefined
  if (
    real !== place.absolute &&
    (await isGitIgnored(`${directory.replace(/\/+$/, "")}/${realRelative}`, directory, deps))
  ) {
    return undefined
  }
  const bytes = await deps.readHead(real, NAMED_READ_BYTES)
  if (!bytes) return undefined
  const text = decodeText(bytes, bytes.length < NAMED_READ_BYTES)
  if (text === undefined || !text.trim()) return undefined
  const focus =
    named.line !== undefined ? named.line - 1 : named.symbol ? symbolLine(text.split("\n"), named.symbol) : undefined
  return { place, window: fileWindow(text, focus) }
}

/** A file the check read: its evidence, the file as the project names it, and the lines read (`a.ts:1-40`). */
export interface NamedRead {
  premise: Premise
  file: string
  lines: string
}

/** A file's evidence, as the judge and the note cite it. */
function namedRead(id: string, relative: string, directory: string, window: ReturnType<typeof fileWindow>): NamedRead {
  const lines = `${relative}:${window.first}-${window.last}`
  const premise: Premise = {
    id,
    tool: "read",
    origin: "machine",
    ref: `${lines}, ${READ_BY_CHECK}`,
    path: resolvePath(relative, directory),
    text: window.text,
    readBy: "check",
  }
  return { premise, file: relative, lines }
}

/**
 * The files the claims of one reply name that no tool of the session read, read by the check itself: at
 * most NAMED_FILES_PER_REPLY of them, each at most NAMED_FILE_CHARS, in the order the claims name them.
 * `read` holds the resolved paths the session already read (as `resolvePath` spells them).
 */
export async function readNamedFiles(
  claims: readonly string[],
  read: ReadonlySet<string>,
  directory: string,
  deps: FileAccess,
): Promise<NamedRead[]> {
  const premises: NamedRead[] = []
  const tried = new Set<string>()
  for (const named of claims.flatMap(filesNamedIn)) {
    if (premises.length >= NAMED_FILES_PER_REPLY) break
    const place = projectPath(named.path, directory)
    if (!place || tried.has(place.absolute) || read.has(resolvePath(place.absolute, directory))) continue
    tried.add(place.absolute)
    const found = await readNamedFile(named, directory, deps).catch(() => undefined)
    if (!found) continue
    premises.push(namedRead(`C${premises.length + 1}`, found.place.relative, directory, found.window))
  }
  return premises
}
