// Joins the modules under src/ into src/index.ts, the one file users copy and npm ships, in a fixed order.
//
// The modules are TypeScript as written; the join is plain text, like SQLite's amalgamation: each module's
// imports of other modules are dropped (in one file they are all in scope), its `node:` and type imports are
// hoisted and merged, `export` is taken off every declaration but the entry's default export, and each module
// is fenced by Begin/End lines naming its path. The rules it relies on are checked, and a module that breaks
// one stops the build with the file and line: imports only at the top, no renaming, no namespace imports, a
// module imported only from one earlier in the order, types included (so every top-level constant exists before it
// is read, no cycle can form and no two folders import each other), and one owner line at the top of each module.
//
//
// src/index.js is then made from src/index.ts: the npm package's entry, for hosts that import plugins with a
// plain `import()` and no transpile step (OpenCode Desktop's Electron Node, opencode 2's Node build), since
// Node refuses to strip types from a file under node_modules. The code uses erasable syntax only, so the
// compiler's emit is the TypeScript with its types taken out, comments kept.
//
//   bun scripts/build.ts          writes src/index.ts and src/index.js
//   bun scripts/build.ts --check  exits 1 when either differs from a fresh build

import { spawnSync } from "node:child_process"
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { dirname, join, relative, resolve } from "node:path"

const ROOT = resolve(dirname(new URL(import.meta.url).pathname), "..")
const OUTPUT = "src/index.ts"
/** The JavaScript build of OUTPUT, the entry `main` and `exports` name. */
export const JS_OUTPUT = "src/index.js"
/** The entry module: the only one whose default export stays. */
const ENTRY = "src/plugin.ts"

/**
 * Pipeline order: base → config → state → capture → claims → judge → feedback → turn → host. A module imports
 * only modules above it, types included, so every top-level constant exists before it is read and no two
 * folders import each other.
 */
export const MODULES = [
  "src/base/unknown.ts",
  "src/base/text.ts",
  "src/base/chars.ts",
  "src/base/words.ts",
  "src/base/bounds.ts",
  "src/base/counters.ts",
  "src/config/config.ts",
  "src/config/effects.ts",
  "src/state/shapes.ts",
  "src/state/ledger.ts",
  "src/state/session.ts",
  "src/capture/tools.ts",
  "src/capture/sensitive.ts",
  "src/capture/redact/values.ts",
  "src/capture/redact/tokens.ts",
  "src/capture/redact/vendors.ts",
  "src/capture/redact/formats.ts",
  "src/capture/redact/contexts.ts",
  "src/capture/redact/commands.ts",
  "src/capture/redact/cookies.ts",
  "src/capture/redact/keys.ts",
  "src/capture/redact/jwt.ts",
  "src/capture/redact/manifests.ts",
  "src/capture/redact/names.ts",
  "src/capture/redact/calls.ts",
  "src/capture/redact/blocks.ts",
  "src/capture/redact/assignments.ts",
  "src/capture/redact/redact.ts",
  "src/capture/redact/scrub.ts",
  "src/capture/shell.ts",
  "src/capture/provenance.ts",
  "src/capture/earlier.ts",
  "src/capture/evidence.ts",
  "src/capture/docpull.ts",
  "src/capture/capture.ts",
  "src/capture/ignore.ts",
  "src/capture/named.ts",
  "src/claims/prose.ts",
  "src/claims/words.ts",
  "src/claims/tokens.ts",
  "src/claims/periods.ts",
  "src/claims/stops.ts",
  "src/claims/checkable.ts",
  "src/claims/split.ts",
  "src/judge/prompt.ts",
  "src/judge/verdict.ts",
  "src/judge/models.ts",
  "src/judge/cache.ts",
  "src/judge/disputes.ts",
  "src/judge/client.ts",
  "src/judge/route.ts",
  "src/judge/health.ts",
  "src/judge/gate.ts",
  "src/judge/process-claim.ts",
  "src/judge/records.ts",
  "src/judge/relevance.ts",
  "src/judge/settle.ts",
  "src/feedback/notifier.ts",
  "src/feedback/contrast.ts",
  "src/feedback/note.ts",
  "src/feedback/command.ts",
  "src/feedback/undo.ts",
  "src/feedback/receipt.ts",
  "src/turn/kept.ts",
  "src/turn/reply.ts",
  "src/host/events.ts",
  "src/host/hooks.ts",
  "src/host/v1.ts",
  "src/host/v2.ts",
  ENTRY,
] as const

const IMPORT_RE = /^import\s+(type\s+)?\{([^}]*)\}\s+from\s+"([^"]+)"\s*;?\s*$/
const DECLARATION_EXPORT_RE =
  /^export (?=(?:declare )?(?:const|let|function\*?|async function\*?|type|interface|class|enum) )/
const OWNER_RE = /^\/\/ \S/

interface Specifier {
  name: string
  type: boolean
}

interface Module {
  path: string
  /** Imports of other modules, resolved to their paths in `MODULES`. */
  local: Array<{ path: string; specifiers: Specifier[]; line: number }>
  /** `node:` and package imports, hoisted to the top of the output. */
  external: Array<{ source: string; specifiers: Specifier[] }>
  body: string
}

class BuildError extends Error {}

const readSource = (path: string) => readFileSync(join(ROOT, path), "utf8")

function fail(path: string, line: number, message: string): never {
  throw new BuildError(`${path}:${line}: ${message}`)
}

function readSpecifiers(list: string, typeOnly: boolean, path: string, line: number): Specifier[] {
  return list
    .split(",")
    .map((item) => item.trim())
    .filter(Boolean)
    .map((item) => {
      const type = typeOnly || item.startsWith("type ")
      const name = item.replace(/^type\s+/, "")
      if (!/^[A-Za-z_$][\w$]*$/.test(name)) fail(path, line, `import "${item}" renames or is not a plain name`)
      return { name, type }
    })
}

/** Splits a module into its leading imports and its body; imports may span lines, as the formatter wraps them. */
function parseModule(path: string, text: string): Module {
  const lines = text.split("\n")
  if (!OWNER_RE.test(lines[0] ?? "")) fail(path, 1, "a module opens with one `// ` line on what it owns")
  const module: Module = { path, local: [], external: [], body: "" }
  let index = 1
  while (index < lines.length) {
    const start = index
    const first = lines[index] ?? ""
    if (first.trim() === "") {
      index++
      continue
    }
    if (!first.startsWith("import")) break
    let statement = first
    while (!statement.includes(" from ") && index + 1 < lines.length) statement += ` ${lines[++index]?.trim()}`
    index++
    const match = IMPORT_RE.exec(statement.replace(/\s+/g, " "))
    if (!match) fail(path, start + 1, 'only `import { a, type B } from "…"` is joined; no default or namespace imports')
    const [, typeOnly, list = "", source = ""] = match
    const specifiers = readSpecifiers(list, Boolean(typeOnly), path, start + 1)
    if (source.startsWith(".")) {
      const target = relative(ROOT, resolve(ROOT, dirname(path), source))
      module.local.push({ path: target, specifiers, line: start + 1 })
    } else module.external.push({ source, specifiers })
  }
  const rest = lines.slice(index)
  rest.forEach((line, at) => {
    if (/^import[\s{]/.test(line)) fail(path, index + at + 1, "imports belong at the top of the module")
    if (/^export\s*(?:\{|\*)/.test(line))
      fail(path, index + at + 1, "re-exports are not joined: export the declaration")
    if (/^export default/.test(line) && path !== ENTRY) fail(path, index + at + 1, `only ${ENTRY} has a default export`)
  })
  module.body = rest
    .map((line) => line.replace(DECLARATION_EXPORT_RE, ""))
    .join("\n")
    .replace(/^\n+|\n+$/g, "")
  return module
}

/** The folder a module lives in (`src/capture/redact` counts as `capture`); the entry is its own. */
export function folderOf(path: string): string {
  return path.split("/").slice(0, 2).join("/")
}

/**
 * Every import points up the order, types included: a module never names a later one, so no cycle can form
 * and the drawing of the modules reads from top to bottom. Two folders that import each other are refused
 * as well, with both imports named, since that is the shape a forward import would otherwise hide.
 */
function checkOrder(modules: readonly Module[]) {
  const position = new Map(modules.map((module, at) => [module.path, at]))
  const folderEdges = new Map<string, string>()
  for (const module of modules) {
    const here = position.get(module.path) ?? 0
    for (const local of module.local) {
      const at = position.get(local.path)
      if (at === undefined) fail(module.path, local.line, `${local.path} is not in the build order`)
      const names = local.specifiers.map((specifier) => specifier.name).join(", ")
      if (at >= here) fail(module.path, local.line, `${names} from ${local.path}, which comes later in the order`)
      const [from, to] = [folderOf(module.path), folderOf(local.path)]
      if (from !== to) folderEdges.set(`${from} → ${to}`, `${module.path}:${local.line}`)
    }
  }
  for (const [edge, where] of folderEdges) {
    const [from = "", to = ""] = edge.split(" → ")
    const back = folderEdges.get(`${to} → ${from}`)
    if (back) throw new BuildError(`${from} and ${to} import each other: ${where} and ${back}`)
  }
}

const TOP_LEVEL_NAME_RE =
  /^(?:declare )?(?:const|let|var|function\*?|async function\*?|class|enum|type|interface) ([A-Za-z_$][\w$]*)/gm

/**
 * In one file every module's top-level names share one scope, so two modules may not declare the same name:
 * the joined file would not compile (or, for an interface, would merge two types silently).
 */
function checkNames(modules: readonly Module[]) {
  const owner = new Map<string, string>()
  for (const module of modules) {
    for (const [, name = ""] of module.body.matchAll(TOP_LEVEL_NAME_RE)) {
      const first = owner.get(name)
      if (first && first !== module.path)
        throw new BuildError(`${name} is declared in both ${first} and ${module.path}`)
      owner.set(name, module.path)
    }
  }
}

/** One import per source, type-only names marked, sorted as the formatter sorts them. */
function hoistImports(modules: readonly Module[]): string[] {
  const bySource = new Map<string, Map<string, boolean>>()
  for (const { external } of modules) {
    for (const { source, specifiers } of external) {
      const names = bySource.get(source) ?? new Map<string, boolean>()
      for (const { name, type } of specifiers) names.set(name, (names.get(name) ?? true) && type)
      bySource.set(source, names)
    }
  }
  return [...bySource.keys()].sort().map((source) => {
    const names = [...(bySource.get(source) ?? [])].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    if (names.every(([, type]) => type)) return `import type { ${names.map(([n]) => n).join(", ")} } from "${source}"`
    return `import { ${names.map(([n, type]) => (type ? `type ${n}` : n)).join(", ")} } from "${source}"`
  })
}

function fence(kind: "Begin" | "End", path: string) {
  const label = `// ── ${kind} ${path} `
  return label.padEnd(110, "─")
}

const BANNER = `// GENERATED FILE: do not edit. Edit the modules under src/ and run \`npm run build\`.
//
// ragfaith ships as one self-contained file: src/index.ts, which users copy into ~/.config/opencode/plugins/,
// and src/index.js, the same code with its types erased, the npm package's entry. scripts/build.ts joins the
// modules below in pipeline order, each between its Begin and End lines; docs/architecture.md says what each
// one owns.`

/** The text of src/index.ts for the modules as they are on disk. */
export function build(read: (path: string) => string = readSource, order: readonly string[] = MODULES): string {
  const modules = order.map((path) => parseModule(path, read(path)))
  checkOrder(modules)
  checkNames(modules)
  const parts = [BANNER, hoistImports(modules).join("\n")]
  for (const module of modules)
    parts.push(`${fence("Begin", module.path)}\n\n${module.body}\n\n${fence("End", module.path)}`)
  return `${parts.join("\n\n")}\n`
}

/**
 * The build as the formatter lays it out. Taking `export ` off a declaration can let the formatter join lines
 * it had wrapped, so the joined text goes through Biome (a pinned dev dependency) before it is written.
 */
export function buildFormatted(): string {
  return format(build(), OUTPUT)
}

/** Text laid out as Biome lays out `path` (its safe fixes too, so the file passes `biome check`). */
function format(text: string, path: string): string {
  const biome = join(ROOT, "node_modules", ".bin", "biome")
  const run = spawnSync(biome, ["check", "--write", `--stdin-file-path=${path}`], {
    cwd: ROOT,
    input: text,
    encoding: "utf8",
  })
  if (run.status !== 0) throw new BuildError(`biome could not format ${path}: ${run.stderr}`)
  return run.stdout
}

/** The compiler flags of the JavaScript build: types erased, nothing else changed, comments kept. */
export const EMIT_FLAGS = [
  "--ignoreConfig",
  "--noCheck",
  "--target",
  "es2023",
  "--module",
  "preserve",
  "--removeComments",
  "false",
  "--newLine",
  "lf",
]

/**
 * src/index.js for the TypeScript text of src/index.ts: the pinned compiler's emit (TypeScript 7 has no
 * in-process transpile, so it runs on a copy in a scratch folder), laid out by Biome like the TypeScript.
 */
export function buildJavaScript(typescript: string): string {
  const scratch = mkdtempSync(join(tmpdir(), "ragfaith-build-"))
  try {
    writeFileSync(join(scratch, "index.ts"), typescript)
    const tsc = join(ROOT, "node_modules", ".bin", "tsc")
    const run = spawnSync(tsc, [...EMIT_FLAGS, "--outDir", join(scratch, "out"), join(scratch, "index.ts")], {
      cwd: scratch,
      encoding: "utf8",
    })
    if (run.status !== 0) throw new BuildError(`tsc could not emit ${JS_OUTPUT}: ${run.stdout}${run.stderr}`)
    return format(readFileSync(join(scratch, "out", "index.js"), "utf8"), JS_OUTPUT)
  } finally {
    rmSync(scratch, { recursive: true, force: true })
  }
}

/** Where the files live that may import a module: the modules themselves, their tests, benchmarks and scripts. */
const IMPORTING_FOLDERS = ["src", "test", "bench", "scripts"]

const EXPORTED_NAME_RE =
  /^export (?:declare )?(?:const|let|function\*?|async function\*?|type|interface|class|enum) ([A-Za-z_$][\w$]*)/gm
const ANY_IMPORT_RE = /^import\s+(?:type\s+)?\{([^}]*)\}\s+from\s+"([^"]+)"/gm

function sourceFiles(dir: string): string[] {
  return readdirSync(join(ROOT, dir), { withFileTypes: true }).flatMap((entry) => {
    const path = `${dir}/${entry.name}`
    if (entry.isDirectory()) return entry.name === "node_modules" ? [] : sourceFiles(path)
    return /\.tsx?$/.test(entry.name) && path !== OUTPUT ? [path] : []
  })
}

/**
 * `export` says another file imports the name. The names a module exports that no other file (module, test,
 * benchmark or script) imports, as `path: name`; empty when every export is used.
 */
export function unusedExports(
  read: (path: string) => string = readSource,
  files: readonly string[] = IMPORTING_FOLDERS.flatMap(sourceFiles),
): string[] {
  const imported = new Set<string>()
  for (const file of files) {
    for (const [, list = "", source = ""] of read(file).matchAll(ANY_IMPORT_RE)) {
      if (!source.startsWith(".")) continue
      const target = relative(ROOT, resolve(ROOT, dirname(file), source))
      for (const item of list.split(",")) {
        const name = item.trim().replace(/^type\s+/, "")
        if (name) imported.add(`${target}: ${name}`)
      }
    }
  }
  return MODULES.flatMap((path) =>
    [...read(path).matchAll(EXPORTED_NAME_RE)]
      .map((match) => `${path}: ${match[1]}`)
      .filter((entry) => !imported.has(entry)),
  )
}

/** The map of modules in docs/architecture.md: written by the build between these lines, never by hand. */
export const ARCHITECTURE = "docs/architecture.md"
const TABLE_BEGIN = "<!-- modules: generated by scripts/build.ts from each module's owner line -->"
const TABLE_END = "<!-- end of modules -->"

/** What each folder is for, in the order of the pipeline; a module's own line comes from its first line. */
export const FOLDERS: Readonly<Record<string, string>> = {
  "src/base": "helpers every stage uses: unknown values, text, character codes, word lists, bounds, counters",
  "src/config": "the configuration and the effects the plugin is given",
  "src/state": "what flows through the pipeline, and what a session keeps",
  "src/capture": "tool output turned into evidence and tool records, secrets redacted",
  "src/claims": "a reply turned into sentences a judge can check",
  "src/judge": "each claim settled: free checks first, then the judge",
  "src/feedback": "what the agent and the user hear: note, notice, report, toasts, undo",
  "src/turn": "the conductor: at idle, one reply's claims judged and one note sent",
  "src/host": "opencode's hooks and events, read into the parts above",
}

/** The module table of docs/architecture.md, each module in build order with its owner line. */
export function moduleTable(read: (path: string) => string = readSource): string {
  const rows = ["| module | owns |", "|---|---|"]
  let folder = ""
  for (const path of MODULES) {
    if (folderOf(path) !== folder && folderOf(path) !== path) {
      folder = folderOf(path)
      const purpose = FOLDERS[folder]
      if (!purpose) throw new BuildError(`${folder} has no line in FOLDERS`)
      rows.push(`| **${folder.replace(/^src\//, "")}** | ${purpose} |`)
    }
    const owner = (read(path).split("\n")[0] ?? "").replace(/^\/\/ /, "").replace(/\|/g, "\\|")
    rows.push(`| \`${path.replace(/^src\//, "")}\` | ${owner} |`)
  }
  return `${TABLE_BEGIN}\n${rows.join("\n")}\n${TABLE_END}`
}

/** docs/architecture.md with its module table made anew from the owner lines. */
export function architectureDoc(doc: string, read: (path: string) => string = readSource): string {
  const begin = doc.indexOf(TABLE_BEGIN)
  const end = doc.indexOf(TABLE_END)
  if (begin < 0 || end < begin) throw new BuildError(`${ARCHITECTURE} has no module table between its markers`)
  return doc.slice(0, begin) + moduleTable(read) + doc.slice(end + TABLE_END.length)
}

if (import.meta.main) {
  try {
    const unused = unusedExports()
    if (unused.length) throw new BuildError(`exported but imported by no other file:\n  ${unused.join("\n  ")}`)
    const typescript = buildFormatted()
    const outputs: Array<[string, string]> = [
      [OUTPUT, typescript],
      [JS_OUTPUT, buildJavaScript(typescript)],
      [ARCHITECTURE, architectureDoc(readSource(ARCHITECTURE))],
    ]
    const check = process.argv.includes("--check")
    for (const [file, text] of outputs) {
      const path = join(ROOT, file)
      if (!check) writeFileSync(path, text)
      else if (readFileSync(path, "utf8") !== text) {
        console.error(`${file} is stale: run \`npm run build\``)
        process.exit(1)
      }
    }
  } catch (error) {
    if (!(error instanceof BuildError)) throw error
    console.error(`build: ${error.message}`)
    process.exit(1)
  }
}
