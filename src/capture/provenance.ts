// Provenance: how a tool call and its sources are named in records and notes, and which files a call changed.

import { clip, escapeRegExp } from "../base/text.ts"
import { asRecord, stringArg } from "../base/unknown.ts"
import type { ToolRecord } from "../state/shapes.ts"
import { redactSecrets } from "./redact/redact.ts"
import { normalizePath, touchesSensitivePath } from "./sensitive.ts"
import { testResults, testSummary } from "./shell.ts"
import { EDIT_TOOL_RE, FILE_LISTING_TOOL_RE, patchFiles, READING_TOOL_RE } from "./tools.ts"

const PROCESS_RECORD_CHARS = 200

/** How much of a command or a written file the doc-pull check reads: it runs before the tool, awaited. */
export const DOC_PULL_SCAN_CHARS = 64_000

/** Shell commands that rewrite, move or delete the files they name; cmd's and PowerShell's too (read lowercased). */
const SHELL_WRITE_RE =
  /(?:^|[;&|(]\s*|\s)(?:(?:sed|perl)\b[^;&|\n]{0,400}\s-\w*i|tee|mv|rm|truncate|patch|git\s+(?:checkout|restore|apply|reset|stash|mv|rm)|del|erase|move|ren|rename|(?:remove|move|rename)-item|(?:set|add|clear)-content|out-file)\b/

/** Shows project files relative to the project, as a user would name them; on Windows in any case or separator. */
function displayPath(path: string, directory: string): string {
  const dir = directory.replace(/[\\/]+$/, "")
  if (dir && path.startsWith(`${dir}/`)) return path.slice(dir.length + 1)
  if (dir && path.startsWith(`${dir}\\`)) return path.slice(dir.length + 1)
  if (/^[A-Za-z]:/.test(dir) && normalizePath(path).startsWith(`${normalizePath(dir)}/`))
    return path.slice(dir.length + 1)
  return path
}

export interface ToolCall {
  tool: string
  args: Record<string, unknown>
  metadata: Record<string, unknown>
  title: string
}

function lineRange(call: ToolCall): string {
  const display = asRecord(call.metadata.display)
  const start = Number(display.lineStart ?? call.args.offset)
  const end = Number(display.lineEnd)
  if (Number.isInteger(start) && Number.isInteger(end) && start > 0 && end >= start) return `:${start}-${end}`
  return ""
}

/** Where a premise came from, in the words the note uses to cite it. */
export function describeSource(call: ToolCall, directory: string): { ref: string; path: string | undefined } {
  const { tool, args } = call
  const url = stringArg(args, "url")
  if (url) return { ref: clip(redactSecrets(url), 200), path: undefined }
  const query = stringArg(args, "query")
  if (query && !/grep/i.test(tool)) return { ref: `${tool}: "${clip(redactSecrets(query), 120)}"`, path: undefined }
  const command = stringArg(args, "command", "cmd")
  if (command) return { ref: `$ ${clip(redactSecrets(command), 120)}`, path: undefined }
  const pattern = stringArg(args, "pattern")
  const filePath = stringArg(args, "filePath", "file_path", "path", "file")
  if (pattern) {
    const where = filePath ? ` in ${displayPath(filePath, directory)}` : ""
    return { ref: `${tool} "${clip(redactSecrets(pattern), 80)}"${where}`, path: undefined }
  }
  if (filePath) {
    return { ref: `${displayPath(filePath, directory)}${lineRange(call)}`, path: resolvePath(filePath, directory) }
  }
  return { ref: clip(call.title || tool, 120), path: undefined }
}

/** A one-line account of a tool call, so claims about what the agent did ("the tests pass") can be judged. */
export function describeToolCall(
  call: ToolCall,
  directory: string,
  sensitive = touchesSensitivePath(call.tool, call.args),
): string {
  const { tool, args, metadata } = call
  if (sensitive) return `${tool} on a sensitive file (details withheld)`
  const file = stringArg(args, "filePath", "file_path", "path")
  const rel = file ? displayPath(file, directory) : undefined
  let record: string
  switch (tool) {
    case "read":
      record = `read ${describeSource(call, directory).ref}`
      break
    case "edit":
    case "multiedit":
      record = `edited ${rel ?? "a file"}`
      break
    case "write":
      record = `wrote ${rel ?? "a file"}`
      break
    case "apply_patch":
    case "patch":
      record = `patched ${
        patchedPaths(args)
          .map((path) => displayPath(path, directory))
          .join(", ") || "files"
      }`
      break
    case "bash": {
      const exit = typeof metadata.exit === "number" ? ` → exit ${metadata.exit}` : ""
      record = `ran \`${clip(stringArg(args, "command") ?? "", 140)}\`${exit}`
      break
    }
    case "webfetch":
      record = `fetched ${stringArg(args, "url") ?? "a page"}`
      break
    case "websearch":
    case "codesearch":
      record = `searched the web for "${stringArg(args, "query") ?? ""}"`
      break
    case "grep": {
      const matches = typeof metadata.matches === "number" ? ` → ${metadata.matches} matches` : ""
      record = `searched files for "${stringArg(args, "pattern") ?? ""}"${rel ? ` in ${rel}` : ""}${matches}`
      break
    }
    case "glob": {
      const count = typeof metadata.count === "number" ? ` → ${metadata.count} files` : ""
      record = `listed files matching ${stringArg(args, "pattern") ?? ""}${count}`
      break
    }
    case "task":
      record = `delegated to a subagent: ${stringArg(args, "description", "prompt") ?? ""}`
      break
    case "todowrite":
      record = "updated the todo list"
      break
    default:
      record = `called ${tool}${rel ? ` on ${rel}` : ""}`
  }
  return clip(redactSecrets(record), PROCESS_RECORD_CHARS)
}

function patchedPaths(args: Record<string, unknown>): string[] {
  const patch = stringArg(args, "patchText", "patch", "input")
  return patch ? patchFiles(patch.slice(0, DOC_PULL_SCAN_CHARS)) : []
}

/**
 * Files a tool call changed: premises read from them before no longer describe them. `multiedit` may name a
 * file per edit besides its own; a patch names every file it touches.
 */
export function editedPaths(tool: string, args: Record<string, unknown>, directory: string): string[] {
  if (!EDIT_TOOL_RE.test(tool)) return []
  const direct = stringArg(args, "filePath", "file_path", "path")
  const perEdit = Array.isArray(args.edits)
    ? args.edits.flatMap((edit) => stringArg(asRecord(edit), "filePath", "file_path", "path") ?? [])
    : []
  const named = [...(direct ? [direct] : []), ...perEdit]
  const paths = named.length ? named : patchedPaths(args)
  return [...new Set(paths.map((path) => resolvePath(path, directory)))]
}

/**
 * Whether a shell command may have changed a file it names: in-place editors, moves, removals, checkouts,
 * or a redirect into it. Over-retiring only costs evidence; keeping a stale premise costs wrong verdicts.
 */
export function shellWrittenPaths(command: string, paths: readonly string[], directory: string): Set<string> {
  const written = new Set<string>()
  const text = normalizePath(command.slice(0, DOC_PULL_SCAN_CHARS))
  const rewrites = SHELL_WRITE_RE.test(text)
  if (!rewrites && !text.includes(">")) return written
  const dir = normalizePath(directory)
  for (const path of paths) {
    const named = [path, displayPath(path, dir)].some(
      (spelling) =>
        text.includes(spelling) &&
        (rewrites || new RegExp(`>>?\\s*['"]?(?:\\./)?${escapeRegExp(spelling)}`).test(text)),
    )
    if (named) written.add(path)
  }
  return written
}

/** One spelling per file: patches name files relative to the project, reads use absolute paths. */
export function resolvePath(path: string, directory: string): string {
  const absolute = /^(?:[\\/]|[A-Za-z]:[\\/]|~)/.test(path.trim())
    ? path
    : `${directory.replace(/[\\/]+$/, "")}/${path.trim()}`
  return normalizePath(absolute).replace(/\/\.\//g, "/")
}

/** How many listed files a record keeps: enough to tell a file name from code, bounded per call. */
const LISTED_FILES = 200

/**
 * A tool call as the records check reads it. A command's output is read for a test runner's summary line
 * (its verdict joins the line the judge sees), a listing's for the files it showed.
 */
export function toolRecord(
  call: ToolCall,
  line: string,
  directory: string,
  output?: string,
  failed = false,
): ToolRecord {
  const command = stringArg(call.args, "command", "cmd")
  const exit = typeof call.metadata.exit === "number" ? call.metadata.exit : undefined
  const changed = editedPaths(call.tool, call.args, directory)
  const file = stringArg(call.args, "filePath", "file_path", "path")
  let kind: ToolRecord["kind"] = "other"
  // A call that failed changed, ran and read nothing; the files it named were still seen.
  if (failed) kind = "other"
  else if (changed.length) kind = "change"
  else if (command !== undefined) kind = "run"
  else if (READING_TOOL_RE.test(call.tool)) kind = "read"
  else if (call.tool === "task") kind = "delegate"
  const paths = changed.length ? changed : file ? [resolvePath(file, directory)] : []
  const tail = kind === "run" && output ? output.slice(-DOC_PULL_SCAN_CHARS) : undefined
  const tests = tail ? testSummary(tail) : undefined
  const results = tail ? testResults(tail) : []
  const listed =
    output && FILE_LISTING_TOOL_RE.test(call.tool) && call.tool !== "grep"
      ? output
          .split("\n", LISTED_FILES)
          .map((entry) => entry.trim())
          .filter((entry) => entry && !/\s/.test(entry))
          .map((entry) => resolvePath(entry, directory))
      : undefined
  return {
    kind,
    paths,
    command,
    exit,
    // The summary joins the line only where the exit code does not say the same (`pytest | tail` exits 0).
    line: tests && (exit === 0) !== (tests === "passed") ? `${line} (test summary: ${tests})` : line,
    ...(tests ? { tests } : {}),
    ...(listed?.length ? { listed } : {}),
    ...(results.length ? { results } : {}),
    ...(failed ? { failed } : {}),
    ...(FILE_LISTING_TOOL_RE.test(call.tool) ? { search: true } : {}),
  }
}
