// The project's .gitignore rules: which files git would ignore, so the named-file check never reads them.

/** One line of a .gitignore file, turned into a test on paths below the folder that holds the file. */
interface IgnoreRule {
  /** The folder of the .gitignore file, relative to the repository's root; "" for the root. */
  base: string
  /** `!pattern`: a path the rule matches is not ignored after all. */
  negate: boolean
  /** `pattern/`: the rule matches folders only. */
  dirOnly: boolean
  re: RegExp
}

/** A character class (`[a-z]`, `[!0-9]`), read from its `[`; undefined when it never closes (then `[` is literal). */
function classAt(pattern: string, at: number): { source: string; end: number } | undefined {
  let i = at + 1
  let negate = false
  if (pattern[i] === "!" || pattern[i] === "^") {
    negate = true
    i++
  }
  let body = ""
  // A `]` right after the opening bracket is a member, as in fnmatch.
  if (pattern[i] === "]") {
    body += "\\]"
    i++
  }
  for (; i < pattern.length; i++) {
    const char = pattern[i] as string
    if (char === "]") return { source: `[${negate ? "^/" : ""}${body}]`, end: i }
    if (char === "\\" && i + 1 < pattern.length) {
      body += `\\${pattern[++i]}`
    } else body += char === "-" ? "-" : char.replace(/[\\^\]]/g, "\\$&")
  }
  return undefined
}

/**
 * A glob of .gitignore syntax as a regular expression over a slash-separated path: `*` and `?` stay within
 * one segment, `**` between slashes spans any number of them, a backslash makes the next character literal.
 */
function globSource(pattern: string): string {
  let out = ""
  for (let i = 0; i < pattern.length; i++) {
    const char = pattern[i] as string
    if (char === "*" && pattern[i + 1] === "*") {
      const atStart = i === 0 || pattern[i - 1] === "/"
      const atEnd = i + 2 === pattern.length || pattern[i + 2] === "/"
      if (atStart && atEnd) {
        // `**/` matches zero or more folders; a trailing `/**` everything inside.
        if (i + 2 === pattern.length) out += ".*"
        else {
          out += "(?:.*/)?"
          i++
        }
        i++
        continue
      }
      // Any other run of asterisks is an ordinary one.
      while (pattern[i + 1] === "*") i++
      out += "[^/]*"
    } else if (char === "*") out += "[^/]*"
    else if (char === "?") out += "[^/]"
    else if (char === "[") {
      const range = classAt(pattern, i)
      if (range) {
        out += range.source
        i = range.end
      } else out += "\\["
    } else if (char === "\\" && i + 1 < pattern.length) {
      out += (pattern[++i] as string).replace(/[.*+?^${}()|[\]\\/]/g, "\\$&")
    } else out += char.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&")
  }
  return out
}

/** Trailing spaces are cut unless a backslash escapes the last one. */
function trimTrailing(line: string): string {
  let end = line.length
  while (end > 0 && line[end - 1] === " ") end--
  if (end < line.length && line[end - 1] === "\\") end++
  return line.slice(0, end)
}

/** The rules of one .gitignore file, in its order; `base` is its folder relative to the repository's root. */
export function parseIgnore(text: string, base = ""): IgnoreRule[] {
  const rules: IgnoreRule[] = []
  for (const raw of text.split("\n")) {
    let line = trimTrailing(raw.replace(/\r$/, ""))
    if (!line || line.startsWith("#")) continue
    const negate = line.startsWith("!")
    if (negate) line = line.slice(1)
    const dirOnly = line.endsWith("/") && !line.endsWith("\\/")
    if (dirOnly) line = line.replace(/\/+$/, "")
    if (!line) continue
    // A slash at the start or in the middle ties the pattern to the .gitignore's folder; otherwise it
    // matches a name at any depth below it.
    const anchored = line.includes("/")
    const body = globSource(line.replace(/^\//, ""))
    rules.push({ base, negate, dirOnly, re: new RegExp(anchored ? `^${body}$` : `^(?:.*/)?${body}$`) })
  }
  return rules
}

/** The last rule that speaks about one path decides it; undefined when no rule does. */
function decide(path: string, isDir: boolean, rules: readonly IgnoreRule[]): boolean | undefined {
  let ignored: boolean | undefined
  for (const rule of rules) {
    if (rule.dirOnly && !isDir) continue
    if (rule.base && !path.startsWith(`${rule.base}/`)) continue
    const rel = rule.base ? path.slice(rule.base.length + 1) : path
    if (rule.re.test(rel)) ignored = !rule.negate
  }
  return ignored
}

/**
 * Whether git ignores a file, given as a path relative to the repository's root with `/` between folders, under
 * `rules` (shallower .gitignore files first, each in its own order: later rules win). A file inside an ignored
 * folder stays ignored whatever a later rule says, as in git, which never looks inside such a folder.
 */
export function isIgnored(path: string, rules: readonly IgnoreRule[]): boolean {
  const segments = path.split("/").filter(Boolean)
  for (let depth = 1; depth <= segments.length; depth++) {
    const isDir = depth < segments.length
    if (decide(segments.slice(0, depth).join("/"), isDir, rules)) return true
  }
  return false
}

/** The folders whose .gitignore files can speak about a path: the root, then each folder on the way down. */
export function ignoreFolders(path: string): string[] {
  const segments = path.split("/").filter(Boolean).slice(0, -1)
  return ["", ...segments.map((_, at) => segments.slice(0, at + 1).join("/"))]
}
