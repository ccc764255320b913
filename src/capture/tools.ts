// Which tools a call came from: the machine, the web, an edit, a shell, a file listing.
import type { Origin } from "../state/shapes.ts"

/** Tools whose output describes this machine; everything else that carries a URL or query is the web. */
const MACHINE_TOOL_RE = /^(?:read|grep|glob|list|ls|bash|shell|exec|edit|write|patch|apply_patch|multiedit|lsp.*)$/i

const WEB_TOOL_RE = /web|fetch|search|http|browse|url|docs?\b|context7|exa|tavily/i

export const EDIT_TOOL_RE = /^(?:edit|write|multiedit|patch|apply_patch)$/i

export const SHELL_TOOL_RE = /^(?:bash|shell|exec)$/i

/** Tools whose output lists files (grep groups matches under a path line, glob prints one path per line). */
export const FILE_LISTING_TOOL_RE = /^(?:grep|glob)$/i

export function originOf(tool: string, args: Record<string, unknown>): Origin {
  if (MACHINE_TOOL_RE.test(tool)) return "machine"
  if (typeof args.url === "string" || typeof args.query === "string" || WEB_TOOL_RE.test(tool)) return "web"
  return "machine"
}

export const READING_TOOL_RE = /^(?:read|grep|glob|list|ls)$/i

/** The files of an `apply_patch` envelope (a moved file is changed at both ends), or of a unified diff. */
const PATCH_FILE_RE = /^\*\*\* (?:(?:Update|Add|Delete) File|Move to): (.+)$/gm

const DIFF_FILE_RE = /^(?:\+\+\+|---) (?:[ab]\/)?(\S+)/gm

/** Every file a patch touches, by its file headers only: what its body says names no file. */
export function patchFiles(patch: string): string[] {
  const envelope = [...patch.matchAll(PATCH_FILE_RE)].map((match) => (match[1] ?? "").trim())
  const files = envelope.length
    ? envelope
    : [...patch.matchAll(DIFF_FILE_RE)].map((match) => match[1] ?? "").filter((path) => path !== "/dev/null")
  return [...new Set(files.filter(Boolean))]
}
