// Passwords on command lines: -p, --password and the login commands that take one.
import { isNeverSecret, looksRandom, REDACTED } from "./values.ts"

/**
 * Flags whose argument holds a password: `-u`/`--user user:password` (curl, wget; or `key:`, a key with no
 * password), `-pass pass:…` (openssl),
 * and `-p`/`-a`, which are a password only for some commands (a port or `mkdir -p` elsewhere). Found by the
 * flag and the blank before it, not by a lookbehind, which costs Bun's regex engine its JIT; an argument too
 * short to be a password fails in the regex already.
 */
export const CLI_USER_RE = /[ \t](?:-u|--user)(?:=|[ \t]+)["']?([^\s:"'$]{0,128})["']?:["']?([^\s"']{4,256})/g

/** `-u KEY:`, a key of 8 characters or more and no password: apart, so that ` -u a:` runs match nothing. */
export const CLI_KEY_AS_USER_RE = /[ \t](?:-u|--user)(?:=|[ \t]+)["']?([^\s:"'$]{8,128}):["']?(?![^\s"'])/g

export const CLI_PASS_RE = /[ \t]-pass(?:in|out)?[ \t]+pass:([^\s"']{4,256})/g

export const CLI_P_RE = /[ \t]-([pak])(=|[ \t]+)?["']?([^\s"';&|-][^\s"';&|]{3,255})/g

/** The commands, by a word among their first few or their first word, whose `-p` or `-a` takes a password. */
export const LOGIN_COMMAND_RE = /^(?:\S+[ \t]+){0,3}login\b/

export const MYSQL_COMMAND_RE = /^(?:mysql\w*|mariadb[\w-]*)\b/

/** PsExec's `-p` is the remote user's password. */
export const PSEXEC_COMMAND_RE = /^psexec(?:64)?(?:\.exe)?\b/i

/** NuGet's `-k` (`dotnet nuget push -k KEY`) is the feed's API key. */
export const NUGET_COMMAND_RE = /^(?:dotnet[ \t]+)?nuget(?:\.exe)?[ \t]/i

/** The API key NuGet takes as a plain argument: after the package of `nuget push`, or after `setapikey`. */
export const NUGET_KEY_RE =
  /\bnuget(?:\.exe)?[ \t]+(?:push[ \t]+[^\s-]\S{0,255}|setapikey)[ \t]+([^\s"'-][^\s"']{7,255})/gi

/** How far back a command's start is looked for. */
export const COMMAND_LOOKBACK = 300

/** Whether `-p` (glued to its argument or not), `-a` or `-k` takes a password or key in this command. */
export function takesPassword(flag: string, glued: boolean, command: string): boolean {
  if (flag === "a") return !glued && command.startsWith("redis-cli")
  if (flag === "k") return !glued && NUGET_COMMAND_RE.test(command)
  if (command.startsWith("sshpass") || (!glued && PSEXEC_COMMAND_RE.test(command))) return true
  return glued ? MYSQL_COMMAND_RE.test(command) : LOGIN_COMMAND_RE.test(command)
}

/** The last command break (line end, `;`, `&`, `|`, `(`, backtick) in [from, to), or -1. */
export function lastCommandBreak(text: string, from: number, to: number): number {
  for (let i = to - 1; i >= from; i--) if ("\n\r;&|(`".includes(text[i] ?? "")) return i
  return -1
}

/**
 * `-p` and `-a` arguments. The command a flag belongs to is read once per command: every stretch of text
 * between two flags is searched for a break once, so a line of many flags costs one pass.
 */
export function redactPasswordFlags(text: string, cuts: Array<[number, number]>): void {
  let searched = -1
  let command = ""
  for (const match of text.matchAll(CLI_P_RE)) {
    const [whole, flag = "", gap, argument = ""] = match
    const from = searched < 0 ? Math.max(0, match.index - COMMAND_LOOKBACK) : searched
    const brk = lastCommandBreak(text, from, match.index)
    if (searched < 0 || brk >= 0) {
      const start = brk >= 0 ? brk + 1 : from
      command = text
        .slice(start, start + 200)
        .trimStart()
        .replace(/^(?:sudo|env)[ \t]+/, "")
    }
    searched = match.index
    if (!takesPassword(flag, gap === undefined, command) || isNeverSecret(argument)) continue
    const end = match.index + whole.length
    cuts.push([end - argument.length, end])
  }
}

/** Words of the commands whose `-p`, `-a` or `-k` the flag scan reads, as the keyword test spells them. */
export const PASSWORD_FLAG_COMMANDS = ["login", "mysql", "mariadb", "sshpass", "redis-cli", "psexec", "PsExec", "nuget"]

/** Passwords on command lines; each flag's argument keeps its quotes. */
export function redactCommandFlags(text: string, mayContain: (keyword: string) => boolean): string {
  const cuts: Array<[number, number]> = []
  if (mayContain(" -u") || mayContain("\t-u") || mayContain("--user")) {
    // An API key as the user and no password (`curl -u "sk_live_…:"`, as Stripe documents it): the user goes.
    for (const match of text.matchAll(CLI_KEY_AS_USER_RE)) {
      const user = match[1] ?? ""
      const at = match.index + match[0].indexOf(user)
      if (looksRandom(user) && !isNeverSecret(user)) cuts.push([at, at + user.length])
    }
    for (const match of text.matchAll(CLI_USER_RE)) {
      const [whole, user = "", password = ""] = match
      // The same word twice (`postgres:postgres`) is a local default; `1000:1000` a uid and gid.
      if (password === user || isNeverSecret(password)) continue
      cuts.push([match.index + whole.length - password.length, match.index + whole.length])
    }
  }
  if (mayContain("-pass")) {
    for (const match of text.matchAll(CLI_PASS_RE)) {
      const password = match[1] ?? ""
      if (!isNeverSecret(password))
        cuts.push([match.index + match[0].length - password.length, match.index + match[0].length])
    }
  }
  if (PASSWORD_FLAG_COMMANDS.some(mayContain)) redactPasswordFlags(text, cuts)
  if (mayContain("nuget") || mayContain("NuGet")) {
    for (const match of text.matchAll(NUGET_KEY_RE)) {
      const key = match[1] ?? ""
      const end = match.index + match[0].length
      if (looksRandom(key) && !isNeverSecret(key)) cuts.push([end - key.length, end])
    }
  }
  return applyCuts(
    text,
    cuts.sort((a, b) => a[0] - b[0]),
  )
}

/** Replaces each [start, end) span (sorted, not overlapping) with REDACTED. */
export function applyCuts(text: string, cuts: ReadonlyArray<readonly [number, number]>): string {
  if (cuts.length === 0) return text
  let out = ""
  let at = 0
  for (const [start, end] of cuts) {
    if (start < at) continue // overlapping: the earlier cut already covers it
    out += text.slice(at, start) + REDACTED
    at = end
  }
  return out + text.slice(at)
}
