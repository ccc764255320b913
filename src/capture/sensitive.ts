// Sensitive paths: files whose content is never captured, whichever tool touched them.
import { patchFiles, SHELL_TOOL_RE } from "./tools.ts"

const SENSITIVE_BASENAME_RE =
  /^(?:\.env.*|.*\.pem|.*\.key|.*\.p12|.*\.pfx|id_rsa|id_dsa|id_ecdsa|id_ed25519|\.npmrc|\.netrc|\.pgpass|credentials(?:\.(?:json|ya?ml|toml|ini|txt|csv|xml|conf|cfg|env))?)$/

/** Normalises Windows separators, surrounding space and case, so every spelling of one path compares alike. */
export function normalizePath(path: string): string {
  return path.trim().replace(/\\/g, "/").toLowerCase()
}

export function isSensitivePath(path: string): boolean {
  const segments = normalizePath(path).split("/").filter(Boolean)
  const base = segments.at(-1)
  if (base === undefined) return false
  if (segments.includes(".ssh")) return true
  if (segments.at(-2) === ".aws" && base === "credentials") return true
  return SENSITIVE_BASENAME_RE.test(base)
}

/** Whether a shell command names a sensitive file anywhere in its words (`cat .env`, `< ~/.ssh/id_rsa`). */
function mentionsSensitivePath(command: string): boolean {
  return command.split(/[\s'"`;|&<>()=,]+/).some((word) => word.length > 0 && isSensitivePath(word))
}

/** Path-like arguments of a tool call, whatever the tool calls them. */
function argPaths(args: Record<string, unknown>): string[] {
  const paths: string[] = []
  for (const key of ["filePath", "file_path", "path", "file", "filename", "url"]) {
    const value = args[key]
    if (typeof value === "string" && value) paths.push(value)
  }
  if (Array.isArray(args.files)) for (const file of args.files) if (typeof file === "string") paths.push(file)
  return paths
}

/**
 * Whether a call touches a sensitive file: by its path arguments, the words of its command, or the files a
 * patch names in its headers. A patch to `README.md` whose text mentions `.env` touches no sensitive file.
 */
export function touchesSensitivePath(tool: string, args: Record<string, unknown>): boolean {
  if (argPaths(args).some((path) => isSensitivePath(path.replace(/[?#].*$/, "")))) return true
  if (typeof args.patchText === "string" && patchFiles(args.patchText).some(isSensitivePath)) return true
  for (const key of ["command", "cmd", "script"]) {
    const value = args[key]
    if (typeof value === "string" && mentionsSensitivePath(value)) return true
  }
  return SHELL_TOOL_RE.test(tool) && typeof args.command !== "string"
}

/**
 * Drops the parts of a grep or glob result that come from sensitive files: grep groups its matches under a
 * `path:` header line, glob lists one path per line.
 */
export function dropSensitiveLines(text: string, startsMidway = false): string {
  const kept: string[] = []
  // A window cut out of a longer output may begin inside a group whose header was cut off: its file is unknown.
  let skipping = startsMidway
  for (const line of text.split("\n")) {
    const trimmed = line.trim()
    const header = /^(\/|[A-Za-z]:[\\/]|~|\.{0,2}\/)?\S.*:$/.test(trimmed) && !trimmed.startsWith("Line ")
    if (header) skipping = isSensitivePath(trimmed.slice(0, -1))
    else if (!line.startsWith(" ") && trimmed && !trimmed.startsWith("Found ")) skipping = isSensitivePath(trimmed)
    if (!skipping) kept.push(line)
  }
  return kept.join("\n")
}

// Redaction runs in passes, each linear in its input: private-key blocks, Kubernetes Secret manifests, JWTs,
// the prefix-anchored token formats and the contexts secrets travel in (headers, URLs, command lines), then one
// scan for assignments to secret-looking names in any syntax. What is never a secret (stand-ins, references,
// paths, versions, the names of secrets) is decided in one place and keeps every pass from mangling code.
