// The doc-pull check: packages installed or imported without their docs fetched first.

import { dirname } from "node:path"
import { LIMITS, trimOldest } from "../base/bounds.ts"
import { escapeRegExp } from "../base/text.ts"
import { asRecord, stringArg } from "../base/unknown.ts"
import type { PartContext, SessionState } from "../state/session.ts"
import { DOC_PULL_SCAN_CHARS } from "./provenance.ts"

interface PackageUse {
  name: string
  /** The major version asked for (`pkg@2`, `pkg==2.1`), when the command names one. */
  major: number | undefined
}

const NODE_INSTALLERS = new Set(["npm", "pnpm", "yarn", "bun", "cnpm"])

const NODE_INSTALL_VERBS = new Set(["install", "i", "add", "isntall", "in", "ins", "inst"])

/** Flags of package installers that take a value, so that value is not read as a package name. */
const NODE_VALUE_FLAGS = new Set(["--registry", "--prefix", "--cwd", "-C", "--workspace", "-w", "--tag", "--filter"])

/** pnpm's -w (workspace root) and -r (recursive) are switches; its --filter/-F and --dir take values. */
const PNPM_VALUE_FLAGS = new Set(["--registry", "--prefix", "--dir", "-C", "--filter", "-F", "--workspace"])

const PYTHON_VALUE_FLAGS = new Set(
  (
    "-r --requirement -c --constraint -e --editable -i --index-url --extra-index-url -t --target --python -p " +
    "--group -G --source --trusted-host -f --find-links --optional --extra -E"
  ).split(" "),
)

const INSTALLER_NAMES = new Set(["pip", "setuptools", "wheel", "npm", "pnpm", "yarn", "uv", "poetry"])

const NODE_BUILTINS = new Set(
  (
    "assert async_hooks buffer child_process cluster console constants crypto dgram diagnostics_channel dns domain " +
    "events fs http http2 https inspector module net os path perf_hooks process punycode querystring readline repl " +
    "stream string_decoder sys timers tls trace_events tty url util v8 vm wasi worker_threads zlib test sqlite bun"
  ).split(" "),
)

const PYTHON_STDLIB = new Set(
  (
    "__future__ abc argparse array ast asyncio base64 binascii bisect builtins bz2 calendar cmath codecs collections " +
    "concurrent configparser contextlib contextvars copy csv ctypes dataclasses datetime decimal difflib dis doctest " +
    "email enum errno faulthandler filecmp fnmatch fractions functools gc getopt getpass gettext glob graphlib gzip " +
    "hashlib heapq hmac html http importlib inspect io ipaddress itertools json keyword linecache locale logging lzma " +
    "mailbox math mimetypes mmap multiprocessing netrc numbers operator os pathlib pdb pickle pkgutil platform " +
    "plistlib pprint profile pstats queue quopri random re readline reprlib resource sched secrets select selectors " +
    "shelve shlex shutil signal site smtplib socket socketserver sqlite3 ssl stat statistics string stringprep struct " +
    "subprocess symtable sys sysconfig syslog tarfile tempfile textwrap threading time timeit tkinter token tokenize " +
    "tomllib trace traceback tracemalloc tty turtle types typing unicodedata unittest urllib uuid venv warnings wave " +
    "weakref webbrowser winreg wsgiref xml xmlrpc zipapp zipfile zipimport zlib zoneinfo"
  ).split(" "),
)

function majorOf(version: string | undefined): number | undefined {
  const match = /(\d+)/.exec(version ?? "")
  return match ? Number(match[1]) : undefined
}

function nodePackage(spec: string): PackageUse | undefined {
  if (/^(?:[./~]|file:|git[+:]|https?:|link:|workspace:)/.test(spec) || spec.endsWith(".tgz")) return undefined
  const match = /^(@[a-z0-9._~-]+\/[a-z0-9._~-]+|[a-z0-9._~-]+)(?:@(.+))?$/i.exec(spec)
  if (!match?.[1]) return undefined
  return { name: match[1].toLowerCase(), major: majorOf(match[2]) }
}

function pythonPackage(spec: string): PackageUse | undefined {
  if (/^(?:[./~]|file:|git\+|https?:)/.test(spec) || /\.(?:whl|tar\.gz|zip)$/.test(spec)) return undefined
  const match = /^([A-Za-z0-9][A-Za-z0-9._-]*)(?:\[[^\]]*\])?\s*(?:(?:===|==|~=|>=|@\s*[\^~]?)\s*([\w.*]+))?/.exec(spec)
  if (!match?.[1]) return undefined
  return { name: match[1].toLowerCase().replace(/_/g, "-"), major: majorOf(match[2]) }
}

/** The packages a shell command installs: npm/pnpm/yarn/bun, pip (any spelling), uv and poetry. */
export function parseInstalls(command: string): PackageUse[] {
  const found: PackageUse[] = []
  for (const segment of command.split(/&&|\|\||[;|\n]/)) {
    const words = segment
      .trim()
      .split(/\s+/)
      .map((word) => word.replace(/^['"]|['"]$/g, ""))
      .filter((word) => word && !/^[A-Za-z_][A-Za-z0-9_]*=(?!=)/.test(word) && word !== "sudo")
    let rest: string[] | undefined
    let parse: ((spec: string) => PackageUse | undefined) | undefined
    const [first = "", second = "", third = "", fourth = ""] = words
    let valueFlags = PYTHON_VALUE_FLAGS
    const tool = first.split("/").at(-1) ?? ""
    if (NODE_INSTALLERS.has(tool)) {
      const verbAt = tool === "yarn" && second === "global" ? 2 : 1
      if (NODE_INSTALL_VERBS.has(words[verbAt] ?? "")) [rest, parse] = [words.slice(verbAt + 1), nodePackage]
      valueFlags = tool === "pnpm" ? PNPM_VALUE_FLAGS : NODE_VALUE_FLAGS
    } else if (/^pip(?:3(?:\.\d+)?)?$/.test(tool) && second === "install") {
      ;[rest, parse] = [words.slice(2), pythonPackage]
    } else if (/^python(?:3(?:\.\d+)?)?$/.test(tool) && second === "-m" && third === "pip" && fourth === "install") {
      ;[rest, parse] = [words.slice(4), pythonPackage]
    } else if (tool === "uv" && second === "pip" && third === "install") {
      ;[rest, parse] = [words.slice(3), pythonPackage]
    } else if ((tool === "uv" || tool === "poetry") && second === "add") {
      ;[rest, parse] = [words.slice(2), pythonPackage]
    }
    if (!rest || !parse) continue
    for (let i = 0; i < rest.length; i++) {
      const word = rest[i] ?? ""
      if (word.startsWith("-")) {
        if (valueFlags.has(word)) i++
        continue
      }
      const use = parse(word)
      // `pip install --upgrade pip` updates the installer itself, which needs no docs.
      if (use && !INSTALLER_NAMES.has(use.name)) found.push(use)
    }
  }
  return found
}

/** Both stay linear on any file: a span never runs past the next import/export, `^` never across blank lines. */
const JS_IMPORT_RE =
  /(?:^|[\s;])(?:import|export)\s(?:(?!\b(?:import|export)\b)[^'"`;])*?\bfrom\s*['"]([^'"]+)['"]|(?:^|[\s;])import\s*['"]([^'"]+)['"]|\b(?:require|import)\s*\(\s*['"]([^'"]+)['"]\s*\)/gm

const PY_IMPORT_RE =
  /^[ \t\f]*(?:from\s+([A-Za-z_][\w.]*)\s+import\b|import\s+([A-Za-z_][\w.]*(?:\s+as\s+\w+)?(?:\s*,\s*[A-Za-z_][\w.]*(?:\s+as\s+\w+)?)*))/gm

/** Third-party packages a piece of source code imports; builtins, relative and aliased paths excluded. */
export function parseImports(code: string, filePath: string | undefined): string[] {
  const names = new Set<string>()
  if (/\.pyi?$/i.test(filePath ?? "")) {
    for (const match of code.matchAll(PY_IMPORT_RE)) {
      for (const module of (match[1] ?? match[2] ?? "").split(",")) {
        const top = module.trim().split(/[.\s]/)[0] ?? ""
        if (top && !PYTHON_STDLIB.has(top)) names.add(top.toLowerCase().replace(/_/g, "-"))
      }
    }
    return [...names]
  }
  for (const match of code.matchAll(JS_IMPORT_RE)) {
    const spec = match[1] ?? match[2] ?? match[3] ?? ""
    if (!spec || /^(?:[./#~]|@\/|node:|bun:|npm:|jsr:|https?:|data:|virtual:)/.test(spec)) continue
    const parts = spec.split("/")
    const name = spec.startsWith("@") ? parts.slice(0, 2).join("/") : (parts[0] ?? "")
    if (name && !NODE_BUILTINS.has(name)) names.add(name.toLowerCase())
  }
  return [...names]
}

/** New imports of a write or edit: an edit that keeps an existing import does not newly use it. */
function newImports(tool: string, args: Record<string, unknown>): string[] {
  const filePath = stringArg(args, "filePath", "file_path", "path")
  // The check is awaited before the tool runs: a huge write is read only as far as its imports plausibly go.
  const added = (stringArg(args, "content", "newString", "new_string") ?? "").slice(0, DOC_PULL_SCAN_CHARS)
  if (!added || !/^(?:write|edit|multiedit)$/i.test(tool)) return []
  const before = new Set(
    parseImports((stringArg(args, "oldString", "old_string") ?? "").slice(0, DOC_PULL_SCAN_CHARS), filePath),
  )
  return parseImports(added, filePath).filter((name) => !before.has(name))
}

/** Whether `text` names `word` as a whole word: docs about "items" do not document `ms`. */
function mentionsWord(text: string, word: string): boolean {
  for (let at = text.indexOf(word); at >= 0; at = text.indexOf(word, at + 1)) {
    const before = text[at - 1] ?? " "
    const after = text[at + word.length] ?? " "
    if (!/[a-z0-9]/i.test(before) && !/[a-z0-9]/i.test(after)) return true
  }
  return false
}

/** The major versions the fetched docs speak of for a package: `pkg@3`, `/v3/`, `pkg 3.x`, `version 3`. */
function docMajors(name: string, docs: string): Set<number> {
  const majors = new Set<number>()
  const escaped = escapeRegExp(name)
  const near = new RegExp(`${escaped}(?:@|\\s+v?|/v)(\\d{1,4})(?:[.x/\\s]|$)`, "gi")
  for (const match of docs.matchAll(near)) majors.add(Number(match[1]))
  return majors
}

/**
 * Whether a bare import names a module of the project itself rather than a package: a folder, a `.py` file
 * or a `src/` folder of that name next to the project or the importing file.
 */
export function isLocalModule(
  name: string,
  fromFile: string | undefined,
  directory: string,
  exists: (path: string) => boolean,
) {
  const bases = [directory, fromFile ? dirname(fromFile) : undefined].filter((base): base is string => Boolean(base))
  return bases.some((base) => [`${base}/${name}`, `${base}/${name}.py`, `${base}/src/${name}`].some(exists))
}

/** The packages a tool call is about to depend on: installs in a command, or new imports in written code. */
export function packageUses(
  tool: string,
  args: Record<string, unknown>,
  isLocal: (name: string) => boolean,
): PackageUse[] {
  const command = stringArg(args, "command", "cmd")
  if (command) return parseInstalls(command.slice(0, DOC_PULL_SCAN_CHARS))
  return newImports(tool, args)
    .filter((name) => !isLocal(name))
    .map((name) => ({ name, major: undefined }))
}

/**
 * The matching half of the doc-pull check: which packages the fetched docs (page texts and URLs, lower
 * case) never name, and which they document only for another major version than the one asked for.
 */
export function matchDocs(uses: readonly PackageUse[], docs: string) {
  const undocumented: string[] = []
  const otherVersion: string[] = []
  for (const use of uses) {
    if (!mentionsWord(docs, use.name)) {
      undocumented.push(use.name)
      continue
    }
    if (use.major === undefined) continue
    const majors = docMajors(use.name, docs)
    if (majors.size > 0 && !majors.has(use.major)) {
      otherVersion.push(`${use.name}@${use.major} (docs fetched for ${[...majors].map((m) => `v${m}`).join(", ")})`)
    }
  }
  return { undocumented, otherVersion }
}

/** Owns the advice before a tool runs: packages used without docs fetched in this session, once each. */
export function createDocPull({ config, deps, directory, store, notifier }: PartContext) {
  const advise = (state: SessionState, key: string, message: string, forPeople: string) => {
    notifier.log("info", message, { sessionID: state.id })
    notifier.toastOnce(state.toastKeys, key, forPeople, "info")
  }
  return {
    beforeTool(input: { tool: string; sessionID: string }, output: unknown) {
      if (!config.docPull) return
      const args = asRecord(asRecord(output).args)
      const filePath = stringArg(args, "filePath", "file_path", "path")
      // A package warned about already needs no look at the disk (up to six checks per import, awaited).
      const warned = store.find(input.sessionID)?.warnedPackages
      const skip = (name: string) => warned?.has(name) || isLocalModule(name, filePath, directory, deps.fileExists)
      const uses = packageUses(input.tool, args, skip)
      if (uses.length === 0) return
      const state = store.touch(input.sessionID)
      const fresh = uses.filter((use) => !state.warnedPackages.has(use.name))
      if (fresh.length === 0) return
      for (const use of fresh) state.warnedPackages.add(use.name)
      trimOldest(state.warnedPackages, LIMITS.warnedPackages)
      const docs = store
        .lineage(state)
        .flatMap((s) => [
          ...s.webRefs,
          ...s.premises.filter((p) => p.origin === "web").map((p) => p.text.toLowerCase()),
        ])
        .join("\n")
      const { undocumented, otherVersion } = matchDocs(fresh, docs)
      if (undocumented.length) {
        const names = undocumented.join(", ")
        const message = `ragfaith: doc-pull check: ${names} used without fetched docs`
        const forPeople = `No docs for ${names} were read in this session: the agent may be guessing its API.`
        advise(state, `doc-pull:${undocumented.join(",")}`, message, forPeople)
      }
      if (otherVersion.length) {
        const names = otherVersion.join(", ")
        const message = `ragfaith: doc-pull check: ${names}: the fetched docs are for another major version`
        const forPeople = `Docs for another version were read: ${names}. The agent may use the wrong API.`
        advise(state, `doc-pull-version:${otherVersion.join(",")}`, message, forPeople)
      }
    },
  }
}
