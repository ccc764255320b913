// Passwords on command lines: -p, --password and the login commands that take one.
import {
  AMPERSAND,
  BACKSLASH,
  BACKTICK,
  CARET,
  CARRIAGE_RETURN,
  CASE_BIT,
  DIGIT_0,
  DIGIT_9,
  HYPHEN,
  LINE_FEED,
  LOWER_A,
  LOWER_Z,
  OPEN_PAREN,
  PIPE,
  SEMICOLON,
  UNDERSCORE,
} from "../../base/chars.ts"
import { isBlank, isNeverSecret, isQuote, isStandIn, looksRandom, REDACTED } from "./values.ts"

/**
 * Flags whose argument holds a password: `-u`/`--user user:password` (curl, wget; or `key:`, a key with no
 * password), `-pass pass:…` (openssl),
 * and `-p`/`-a`, which are a password only for some commands (a port or `mkdir -p` elsewhere). Found by the
 * flag and the blank before it, not by a lookbehind, which costs Bun's regex engine its JIT; an argument too
 * short to be a password fails in the regex already.
 */
const CLI_USER_RE = /[ \t](?:-u|--user)(?:=|[ \t]+)["']?([^\s:"'$]{0,128})["']?:["']?([^\s"']{4,256})/g

/** `-u KEY:`, a key of 8 characters or more and no password: apart, so that ` -u a:` runs match nothing. */
const CLI_KEY_AS_USER_RE = /[ \t](?:-u|--user)(?:=|[ \t]+)["']?([^\s:"'$]{8,128}):["']?(?![^\s"'])/g

/**
 * openssl's `-pass`, `-passin`, `-passout`, `-password pass:…`; apksigner's `--ks-pass pass:…` and
 * `--key-pass pass:…`.
 */
const CLI_PASS_RE = /[ \t](?:-pass(?:in|out|word)?|--ks-pass|--key-pass)[ \t]+pass:([^\s"']{4,256})/g

/**
 * Short flags whose argument is a password in some commands only: `-p` (a port, `mkdir -p` elsewhere), `-a`,
 * `-k` (curl's `--insecure`), `-P` (`cp -P`, `grep -P`, `xargs -P 4`), `-N` (`ls -N`), `-b` (`git checkout -b`).
 */
const CLI_P_RE = /[ \t\n]-([pakPNb])(=|[ \t]+)?["']?([^\s"';&|-][^\s"';&|]{3,255})/g

/**
 * Long flags of the same kind: keytool's and jarsigner's `-storepass`, `-keypass` and their `-src`/`-dest`
 * forms (`-storepass:env NAME` and `:file` name where the password is, and stay), keytool's `-new`, and the
 * `--body` of `gh secret set`.
 */
const CLI_LONG_RE = /[ \t\n](-(?:src|dest)?(?:store|key)pass|-new|--body)(=|[ \t]+)["']?([^\s"';&|-][^\s"';&|]{3,255})/g

/** The commands, by a word among their first few or their first word, whose `-p` or `-a` takes a password. */
const LOGIN_COMMAND_RE = /^(?:\S+[ \t]+){0,3}login\b/

const MYSQL_COMMAND_RE = /^(?:\S*\/)?(?:mysql\w*|mariadb[\w-]*)\b/

/** PsExec's `-p` is the remote user's password. */
const PSEXEC_COMMAND_RE = /^psexec(?:64)?(?:\.exe)?\b/i

/** NuGet's `-k` (`dotnet nuget push -k KEY`) is the feed's API key. */
const NUGET_COMMAND_RE = /^(?:dotnet[ \t]+)?nuget(?:\.exe)?[ \t]/i

/** The API key NuGet takes as a plain argument: after the package of `nuget push`, or after `setapikey`. */
const NUGET_KEY_RE = /\bnuget(?:\.exe)?[ \t]+(?:push[ \t]+[^\s-]\S{0,255}|setapikey)[ \t]+([^\s"'-][^\s"']{7,255})/gi

/** SQL Server's and Sybase's clients: `sqlcmd -S db -U sa -P …`, `bcp … -P …`, `osql`, `isql -P…`. */
const SQL_CLIENT_RE = /^(?:\S*[\\/])?(?:sqlcmd|bcp|osql|isql)(?:\.exe)?[ \t]/i

/** zip's and unzip's `-P password`; 7-Zip's and RAR's `-p` glued to it (`-p` alone prompts). */
const ZIP_COMMAND_RE = /^(?:\S*[\\/])?(?:un)?zip(?:\.exe)?[ \t]/i

const SEVEN_ZIP_COMMAND_RE = /^(?:\S*[\\/])?(?:7z[ar]?|(?:un)?rar)(?:\.exe)?[ \t]/i

/** MongoDB's shells and tools: `mongosh -u admin -p …`, `mongodump -p …` (`-p` alone prompts). */
const MONGO_COMMAND_RE = /^(?:\S*[\\/])?mongo(?:sh|dump|restore|export|import|stat|top|files)?(?:\.exe)?[ \t]/

/** ssh-keygen's `-N` (the new passphrase) and `-P` (the old one); `-N ""` is an empty one. */
const SSH_KEYGEN_COMMAND_RE = /^(?:\S*[\\/])?ssh-keygen(?:\.exe)?[ \t]/

const GH_SECRET_COMMAND_RE = /^gh(?:\.exe)?[ \t]+secret[ \t]+set[ \t]/

const KEYTOOL_COMMAND_RE = /^(?:\S*[\\/])?keytool(?:\.exe)?[ \t]/

/**
 * A prompt before a command, as documentation and terminal logs show it: `$ `, `# `, `> `, `PS C:\> `,
 * `C:\> `, `user@host:~$ `. Also a wrapper that runs it: `sudo`, `env`, `cmd /c`.
 */
const COMMAND_LEAD_RE =
  /^(?:(?:[\w.-]{1,64}@[\w.-]{1,64}:[^\s$#]{0,200})?[$#>][ \t]+|PS(?:[ \t][^>\n]{0,200})?>[ \t]*|[A-Za-z]:\\[^>\n]{0,200}>[ \t]*)?(?:(?:sudo|env|cmd(?:\.exe)?[ \t]+\/[ck])[ \t]+["']?)?/i

/** A command run in a container: `docker exec -it db …`, `docker compose exec db …`, `kubectl exec pod -- …`. */
const EXEC_WRAPPER_RE = /^(?:(?:docker|podman|nerdctl)(?:[ \t]+compose|-compose)?|kubectl|oc)[ \t]+exec[ \t]+/

/** The options of `docker exec` and `kubectl exec` that take an argument. */
const EXEC_OPTIONS_WITH_ARGUMENT = new Set(
  "-u --user -e --env --env-file -w --workdir -c --container -n --namespace --index".split(" "),
)

/** The command a container runs, the wrapper's options and the container's name taken off. */
function unwrapCommand(command: string): string {
  const wrapper = EXEC_WRAPPER_RE.exec(command)
  if (!wrapper) return command
  const words = command.slice(wrapper[0].length).split(/[ \t]+/)
  const dashes = words.indexOf("--")
  if (dashes >= 0 && (command.startsWith("kubectl") || command.startsWith("oc")))
    return words.slice(dashes + 1).join(" ")
  let at = 0
  while (at < words.length && words[at]?.startsWith("-")) at += EXEC_OPTIONS_WITH_ARGUMENT.has(words[at] ?? "") ? 2 : 1
  return words.slice(at + 1).join(" ")
}

/** How far back a command's start is looked for. */
const COMMAND_LOOKBACK = 300

/** Whether a short flag (glued to its argument or not) takes a password or key in this command. */
function takesPassword(flag: string, glued: boolean, command: string): boolean {
  switch (flag) {
    case "a":
      return !glued && command.startsWith("redis-cli")
    case "k":
      return !glued && NUGET_COMMAND_RE.test(command)
    case "P":
      return SQL_CLIENT_RE.test(command) || ZIP_COMMAND_RE.test(command) || SSH_KEYGEN_COMMAND_RE.test(command)
    case "N":
      return SSH_KEYGEN_COMMAND_RE.test(command)
    case "b":
      return GH_SECRET_COMMAND_RE.test(command)
  }
  if (command.startsWith("sshpass")) return true
  if (!glued && (PSEXEC_COMMAND_RE.test(command) || MONGO_COMMAND_RE.test(command))) return true
  return glued ? MYSQL_COMMAND_RE.test(command) || SEVEN_ZIP_COMMAND_RE.test(command) : LOGIN_COMMAND_RE.test(command)
}

/** Whether a long flag takes a password in this command: keytool's passwords wherever they stand. */
function longFlagTakesPassword(flag: string, command: () => string): boolean {
  if (flag === "--body") return GH_SECRET_COMMAND_RE.test(command())
  return flag !== "-new" || KEYTOOL_COMMAND_RE.test(command())
}

/** The last command break (line end, `;`, `&`, `|`, `(`, backtick) in [from, to), or -1. */
function lastCommandBreak(text: string, from: number, to: number): number {
  for (let i = to - 1; i >= from; i--) {
    const code = text.charCodeAt(i)
    if (!isCommandBreak(code)) continue
    // A line continued (`\`, PowerShell's backtick, cmd's `^` before its end) goes on with the same command.
    const mark = code === LINE_FEED && text.charCodeAt(i - 1) === CARRIAGE_RETURN ? i - 2 : i - 1
    if (code !== LINE_FEED || !isContinuation(text.charCodeAt(mark))) return i
    i = mark
  }
  return -1
}

const isContinuation = (code: number) => code === BACKSLASH || code === BACKTICK || code === CARET

/** `\n \r ; & | ( \``, read as codes: a one-character string per character read cost the flag scan a third. */
const isCommandBreak = (code: number) =>
  code === LINE_FEED ||
  code === CARRIAGE_RETURN ||
  code === SEMICOLON ||
  code === AMPERSAND ||
  code === PIPE ||
  code === OPEN_PAREN ||
  code === BACKTICK

/**
 * The command each of a series of positions (in increasing order) belongs to, its prompt and wrappers taken
 * off (`sudo`, `docker exec -it db`). Every stretch of text between two positions is searched for a break
 * once, so a line of many flags costs one pass.
 */
function commandReader(text: string): (at: number) => string {
  let searched = -1
  let command = ""
  return (at) => {
    const from = searched < 0 ? Math.max(0, at - COMMAND_LOOKBACK) : searched
    const brk = lastCommandBreak(text, from, at)
    if (searched < 0 || brk >= 0) {
      const start = brk >= 0 ? brk + 1 : from
      const head = text.slice(start, start + 200).trimStart()
      command = unwrapCommand(head.slice(COMMAND_LEAD_RE.exec(head)?.[0].length ?? 0))
    }
    searched = at
    return command
  }
}

/**
 * The span of a flag's argument that goes: the argument, or, where it opens a quote that closes later on the
 * line (`-N "correct horse battery"`), all the quote holds, a passphrase; or undefined when it is no literal.
 */
function argumentCut(
  text: string,
  start: number,
  argument: string,
  isSecret: (value: string) => boolean = isSecretArgument,
): [number, number] | undefined {
  const quote = text[start - 1]
  const end = start + argument.length
  if ((quote === '"' || quote === "'") && isBlank(text.charCodeAt(end))) {
    const close = text.indexOf(quote, end)
    const line = text.indexOf("\n", end)
    if (close > end && (line < 0 || close < line) && close - start <= 256) {
      return isSecret(text.slice(start, close)) ? [start, close] : undefined
    }
  }
  return isSecret(argument) ? [start, end] : undefined
}

/**
 * Whether a password argument is a literal. A quoted one may hold blanks (a passphrase): in a password's
 * place that is no prose, unless it is a stand-in or starts with a variable.
 */
function isSecretArgument(value: string): boolean {
  if (!/\s/.test(value)) return !isNeverSecret(value)
  return (
    value.trim().length >= 4 && !/^[$%]/.test(value) && !isStandIn(value) && !isNeverSecret(value.split(/\s/)[0] ?? "")
  )
}

/** isSecretArgument, each argument judged once: a text may repeat the same command many times. */
function secretArgumentMemo(): (value: string) => boolean {
  const known = new Map<string, boolean>()
  return (value) => {
    const verdict = known.get(value) ?? isSecretArgument(value)
    known.set(value, verdict)
    return verdict
  }
}

/**
 * Where the command of a flag found at `at` is read from: a flag at a line's start (its match begins with the
 * line break) belongs to the command before only if that line was continued.
 */
const flagStart = (text: string, at: number) => (text.charCodeAt(at) === LINE_FEED ? at + 1 : at)

/** The arguments of the short and long flags above that take a password in their command. */
function redactPasswordFlags(text: string, cuts: Array<[number, number]>, longFlags: boolean): void {
  const commandAt = commandReader(text)
  const isSecret = secretArgumentMemo()
  for (const match of text.matchAll(CLI_P_RE)) {
    const [whole, flag = "", gap, argument = ""] = match
    if (!takesPassword(flag, gap === undefined, commandAt(flagStart(text, match.index)))) continue
    const cut = argumentCut(text, match.index + whole.length - argument.length, argument, isSecret)
    if (cut) cuts.push(cut)
  }
  if (!longFlags) return
  const longCommandAt = commandReader(text)
  for (const match of text.matchAll(CLI_LONG_RE)) {
    const [whole, flag = "", , argument = ""] = match
    if (!longFlagTakesPassword(flag, () => longCommandAt(flagStart(text, match.index)))) continue
    const cut = argumentCut(text, match.index + whole.length - argument.length, argument, isSecret)
    if (cut) cuts.push(cut)
  }
}

/**
 * Words of the commands whose short flags the flag scan reads, as the keyword test spells them. Four characters
 * or more where a shorter word's byte pairs are common (`zip`, `rar`, `bcp`): such a keyword is searched with
 * `includes`, which reads the whole text when it finds nothing (on 36 KB of code, about ten times the pass).
 */
const PASSWORD_FLAG_COMMANDS = [
  ...["login", "mysql", "mariadb", "sshpass", "redis-cli", "psexec", "PsExec", "nuget", "mongo"],
  ...["sqlcmd", "SQLCMD", "bcp ", "osql", "isql", "zip ", "7z", "rar ", "ssh-keygen", "secret set"],
]

/** Words of the long flags' commands: keytool's and jarsigner's passwords, `gh secret set --body`. */
const LONG_FLAG_KEYWORDS = ["storepass", "keypass", "keytool", "--body"]

/**
 * htpasswd's password is a plain argument after `-b`: the last of `<file> <user> <password>`, or with `-n`
 * (print, no file) of `<user> <password>`. `-C` and `-r` take a number; an image may stand between the
 * command and its flags (`docker run --entrypoint htpasswd httpd:2 -Bbn user …`, as Docker's registry guide
 * has it). The arguments are read in code, from the rest of the command: a regex that tells them apart costs
 * ten times more on a megabyte of near-misses.
 */
const HTPASSWD_RE =
  /htpasswd(?:\.exe)?(?:[ \t]+[^\s-][^\s;&|<>]{0,255})?((?:[ \t]+-[A-Za-z0-9]{1,12}(?:[ \t]+\d{1,4})?){1,6})([^\n\r;&|<>]{1,800})/g

/** The spans of the first `max` shell words in [from, to): a quoted word's span is what its quotes hold. */
function shellWords(text: string, from: number, to: number, max: number): Array<[number, number]> {
  const words: Array<[number, number]> = []
  let at = from
  while (words.length < max && at < to) {
    while (at < to && isBlank(text.charCodeAt(at))) at++
    if (at >= to) break
    const quote = text[at]
    if (quote === '"' || quote === "'") {
      const close = text.indexOf(quote, at + 1)
      if (close < 0 || close >= to) break
      words.push([at + 1, close])
      at = close + 1
    } else {
      const start = at
      while (at < to && !isBlank(text.charCodeAt(at)) && !isQuote(text.charCodeAt(at))) at++
      words.push([start, at])
    }
  }
  return words
}

/** Whether a character is part of a word (then `htpasswd` or `net` inside it is no command). */
const isWordChar = (code: number) =>
  (code >= DIGIT_0 && code <= DIGIT_9) ||
  ((code | CASE_BIT) >= LOWER_A && (code | CASE_BIT) <= LOWER_Z) ||
  code === UNDERSCORE ||
  code === HYPHEN

function redactHtpasswd(text: string, cuts: Array<[number, number]>): void {
  const isSecret = secretArgumentMemo()
  for (const match of text.matchAll(HTPASSWD_RE)) {
    const [whole, options = "", args = ""] = match
    if (isWordChar(text.charCodeAt(match.index - 1)) || !/-[A-Za-z0-9]*b/.test(options)) continue
    const end = match.index + whole.length
    const words = shellWords(text, end - args.length, end, 3)
    const password = words[/-[A-Za-z0-9]*n/.test(options) ? 1 : 2]
    if (password && isSecret(text.slice(password[0], password[1]))) cuts.push(password)
  }
}

/** Windows' `net user [/add] <name> <password> [/add]`; `*` prompts for it. */
const NET_USER_RE =
  /\bnet(?:\.exe)?[ \t]+user(?:[ \t]+\/[a-z]{1,12}(?::[^\s"]{0,64})?){0,3}[ \t]+(?:"[^"\n]{1,64}"|[^\s"/*][^\s"]{0,63})[ \t]+("[^"\n]{1,256}"|[^\s"/*][^\s"]{0,255})/gi

function redactNetUser(text: string, cuts: Array<[number, number]>): void {
  const commandAt = commandReader(text)
  const isSecret = secretArgumentMemo()
  for (const match of text.matchAll(NET_USER_RE)) {
    // Only as a command (`.NET user guide` is prose): `net` must start it, after a prompt or `cmd /c`.
    if (text[match.index - 1] === "." || !/^net(?:\.exe)?[ \t]/i.test(commandAt(match.index))) continue
    const password = match[1] ?? ""
    const quoted = password.startsWith('"')
    const value = quoted ? password.slice(1, -1) : password
    const start = match.index + match[0].length - password.length + (quoted ? 1 : 0)
    if (isSecret(value)) cuts.push([start, start + value.length])
  }
}

/**
 * A literal piped into a login that reads its password from stdin: `echo "<token>" | docker login -u me
 * --password-stdin`, `printf '%s' '<token>' | helm registry login …`; `gh auth login --with-token` too. A
 * variable (`echo $TOKEN`) or a command's output (`aws ecr get-login-password |`) is no literal. The login
 * may start the next line: a pipe continues a command over a line break, with or without a backslash.
 */
const ECHO_STDIN_RE =
  /\b(?:echo|printf)(?:[ \t]+-[neE]{1,3})*(?:[ \t]+["']%s(?:\\n)?["'])?[ \t]+["']?([^\s"'|;&<>]{4,4096})(["']?[ \t]*\|[ \t]*(?:\\?\r?\n[ \t]*)?)([^\n|;&]{1,300})/g

/** The same login given its password in a here-string: `oras login -u me --password-stdin r.test <<< "<token>"`. */
const HERE_STRING_RE = /[ \t](?:--password-stdin|--with-token)\b[^\n|;&<>]{0,300}<<<[ \t]*["']?([^\s"'|;&<>]{4,4096})/g

const STDIN_LOGIN_RE = /\blogin\b[^\n]{0,300}?[ \t](?:--password-stdin|--with-token)\b/

function redactStdinPasswords(text: string, cuts: Array<[number, number]>): void {
  for (const match of text.matchAll(ECHO_STDIN_RE)) {
    const [whole, literal = "", pipe = "", command = ""] = match
    if (!STDIN_LOGIN_RE.test(command) || isNeverSecret(literal)) continue
    const end = match.index + whole.length - command.length - pipe.length
    cuts.push([end - literal.length, end])
  }
  for (const match of text.matchAll(HERE_STRING_RE)) {
    const literal = match[1] ?? ""
    const end = match.index + match[0].length
    if (!isNeverSecret(literal)) cuts.push([end - literal.length, end])
  }
}

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
  const longFlags = LONG_FLAG_KEYWORDS.some(mayContain)
  if (longFlags || PASSWORD_FLAG_COMMANDS.some(mayContain)) redactPasswordFlags(text, cuts, longFlags)
  if (mayContain("nuget") || mayContain("NuGet")) {
    for (const match of text.matchAll(NUGET_KEY_RE)) {
      const key = match[1] ?? ""
      const end = match.index + match[0].length
      if (looksRandom(key) && !isNeverSecret(key)) cuts.push([end - key.length, end])
    }
  }
  if (mayContain("htpasswd")) redactHtpasswd(text, cuts)
  if (NET_USER_KEYWORDS.some(mayContain)) redactNetUser(text, cuts)
  if (mayContain("--password-stdin") || mayContain("--with-token")) redactStdinPasswords(text, cuts)
  return applyCuts(
    text,
    cuts.sort((a, b) => a[0] - b[0]),
  )
}

const NET_USER_KEYWORDS = ["net user", "NET USER", "Net User", "net.exe user", "NET.EXE USER"]

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
