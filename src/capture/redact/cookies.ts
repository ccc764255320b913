// Session cookies: in Cookie and Set-Cookie headers, curl's -b, document.cookie, cookie objects and cookie jars.
import { BACKSLASH, BACKTICK, COMMA, DOUBLE_QUOTE, EQUALS, SEMICOLON, SINGLE_QUOTE, SPACE } from "../../base/chars.ts"
import { applyCuts } from "./commands.ts"
import { isBlank, isNeverSecret, looksRandom } from "./values.ts"

/**
 * Names that say a cookie carries a session or a credential: `sessionid`, `PHPSESSID`, `JSESSIONID`,
 * `ASP.NET_SessionId`, `laravel_session`, `_gh_sess`, `connect.sid`, `sid`, `SAPISID`, `auth_token`, `jwt`,
 * `remember_token`, `remember_web_…`, `.ASPXAUTH`, `.AspNetCore.Identity.Application`, `wordpress_logged_in_…`;
 * `auth` but not in `author` or `authority`.
 */
const SESSION_COOKIE_RE =
  /sess|sid$|token$|jwt|auth(?!or(?!i[sz]))|remember|logged[_-]?in|identity|^wordpress_sec|^\.aspnetcore\.cookies$|^li_at$/i

/**
 * A CSRF token is no credential on its own (it is sent with the session cookie, and shown in every form): it
 * stays, as the assignment scan keeps `csrf_token` and `csrftoken`. Analytics ids stay too: most have no session
 * name (`_ga`, `_gid`, `_fbp`), these do (Hotjar's `_hjSession…`, Bing's `_uetsid`, Adobe's `s_sess`, Matomo's
 * `_pk_ses`). A load balancer's stickiness (`AWSALB`) is no session either.
 */
const NOT_SESSION_COOKIE_RE = /csrf|xsrf|antiforgery|verification|authenticity|^_hj|^_uetsid$|^s_sess$|^_pk_ses/i

const isSessionCookie = (name: string) => SESSION_COOKIE_RE.test(name) && !NOT_SESSION_COOKIE_RE.test(name)

/** A session cookie's value goes when it looks random: `deleted`, `0`, `true` or an empty value stay. */
const isSessionValue = (value: string) => looksRandom(value) && !isNeverSecret(value)

/**
 * Where a list of cookies starts: after a `Cookie:` or `Set-Cookie:` header (also quoted, as a JSON or
 * dictionary key, as a call's first argument: `.set('Cookie', '…')`, or as a HAR header's name and value:
 * `"name": "cookie", "value": "…"`), `document.cookie = "…"`. No `\b` before it: in a logged string the header
 * follows an escaped line break (`\r\nCookie: …`).
 */
const COOKIE_HEADER_RE = /(?:set-)?cookie["'`]?[ \t]*(?:,[ \t]*["']value["'][ \t]*:|[:=,])[ \t]*["'`]?/gi

/**
 * A cookie set by a call with literal arguments: `res.cookie('sid', '…')`, `set_cookie("session", "…")`, PHP's
 * `setcookie("PHPSESSID", "…")`, `cookies.set('sessionid', '…')`.
 */
const COOKIE_CALL_RE =
  /(?:set_?cookie|\.cookie|cookies\.(?:set|add))\([ \t]*["'`]([^"'`\\\n]{1,128})["'`][ \t]*,[ \t]*["'`]([^"'`\\\n]{1,4096})/gi

/** curl's `-b` and `--cookie`, read where the text names curl (a file name there has no `=`, and stays). */
const CURL_COOKIE_RE = /[ \t](?:-b|--cookie)(?:=|[ \t]+)["']?/g

/** How far one list of cookies is read. */
const COOKIE_LIST_MAX = 8_192

/** What ends a cookie's name: blanks, `=`, `;`, `,`, quotes, line ends. */
const endsCookieName = (code: number) =>
  code <= SPACE ||
  code === EQUALS ||
  code === SEMICOLON ||
  code === COMMA ||
  code === DOUBLE_QUOTE ||
  code === SINGLE_QUOTE ||
  code === BACKTICK

/** What ends its value: the same, but `=` (base64 padding); also a backslash. */
const endsCookieValue = (code: number) =>
  code <= SPACE ||
  code === SEMICOLON ||
  code === COMMA ||
  code === DOUBLE_QUOTE ||
  code === SINGLE_QUOTE ||
  code === BACKTICK ||
  code === BACKSLASH

/**
 * Reads `name=value` pairs from `from`, separated by `;` or `,` (a folded Set-Cookie), and cuts the values of
 * session cookies. Attributes (`Path=/`, `HttpOnly`, `Expires=Wed, 21 Oct …`) are pairs of no session name.
 * Stops at anything else (a blank after a value, a closing quote, a line end); returns where it stopped.
 */
function readCookieList(text: string, from: number, cuts: Array<[number, number]>): number {
  const end = Math.min(text.length, from + COOKIE_LIST_MAX)
  let at = from
  while (at < end) {
    while (isBlank(text.charCodeAt(at))) at++
    const nameStart = at
    while (at < end && !endsCookieName(text.charCodeAt(at))) at++
    const name = text.slice(nameStart, at)
    if (text[at] === "=") {
      at++
      const quoted = text[at] === '"'
      if (quoted) at++
      const valueStart = at
      while (at < end && !endsCookieValue(text.charCodeAt(at))) at++
      if (isSessionCookie(name) && isSessionValue(text.slice(valueStart, at))) cuts.push([valueStart, at])
      if (quoted && text[at] === '"') at++
      // An expiry date holds a comma and blanks: it runs to the next attribute.
      if (name.toLowerCase() === "expires") while (at < end && !"\n\r;\"'`".includes(text[at] ?? ";")) at++
    } else if (name === "") {
      return at
    }
    while (isBlank(text.charCodeAt(at))) at++
    if (text[at] !== ";" && text[at] !== ",") return at
    at++
  }
  return at
}

/**
 * Cookies as objects (Playwright's storage state, Puppeteer's and Selenium's cookies, a browser's export):
 * `{"name": "sessionid", "value": "…"}`, the value's field on the same line or the next.
 */
const COOKIE_OBJECT_RE =
  /["']?\bname["']?[ \t]*:[ \t]*["']([^"'\\\n]{1,128})["'][ \t]*,[ \t\r\n]{0,64}["']?value["']?[ \t]*:[ \t]*["']([^"'\\\n]{1,4096})/g

/** A dictionary of cookies, as Python's requests takes them: `cookies = {"sessionid": "…", "theme": "dark"}`. */
const COOKIE_DICT_RE = /\bcookies["']?[ \t]*[=:][ \t]*\{/g

/** One entry of it, read from where the last ended. */
const COOKIE_ENTRY_RE = /[ \t]*["']([^"'\\\n]{1,128})["'][ \t]*:[ \t]*["']([^"'\\\n]{0,4096})(["'][ \t]*,?)/y

/** How many entries of one dictionary are read. */
const COOKIE_DICT_MAX = 64

/**
 * A line of a Netscape cookie jar (what `curl -c` writes, what browsers export): domain (`#HttpOnly_` before
 * it when the cookie is), subdomains flag, path, secure flag, expiry, name, value, separated by tabs.
 */
const COOKIE_JAR_RE =
  /^((?:#HttpOnly_)?[^\s#][^\t\r\n]{0,253}\t(?:TRUE|FALSE)\t[^\t\r\n]{1,1024}\t(?:TRUE|FALSE)\t\d{1,20}\t([^\t\r\n]{1,256})\t)([^\t\r\n]{1,4096})/gm

/** The values of session cookies, wherever a list, an object or a jar holds them. */
export function redactCookies(text: string, mayContain: (keyword: string) => boolean): string {
  const cuts: Array<[number, number]> = []
  const hasHeader = mayContain("ookie") || mayContain("OOKIE")
  // curl's `-b` is looked for only where curl is named: ` -b` is too short a keyword to be cheap.
  const hasCurl = mayContain("curl")
  if (hasHeader || hasCurl) {
    // A list starting inside one read already was read with it: skipping it keeps the scan linear.
    let read = 0
    const lists = (re: RegExp) => {
      for (const match of text.matchAll(re)) {
        const from = match.index + match[0].length
        if (match.index >= read) read = readCookieList(text, from, cuts)
      }
    }
    if (hasHeader) lists(COOKIE_HEADER_RE)
    read = 0
    if (hasCurl) lists(CURL_COOKIE_RE)
  }
  if (mayContain("ookie(") || mayContain("ookies.")) {
    for (const match of text.matchAll(COOKIE_CALL_RE)) {
      const [whole, name = "", value = ""] = match
      const end = match.index + whole.length
      if (isSessionCookie(name) && isSessionValue(value)) cuts.push([end - value.length, end])
    }
  }
  if (mayContain("cookies")) {
    for (const match of text.matchAll(COOKIE_DICT_RE)) {
      COOKIE_ENTRY_RE.lastIndex = match.index + match[0].length
      for (let n = 0; n < COOKIE_DICT_MAX; n++) {
        const entry = COOKIE_ENTRY_RE.exec(text)
        if (!entry) break
        const [whole, name = "", value = "", tail = ""] = entry
        const end = entry.index + whole.length - tail.length
        if (isSessionCookie(name) && isSessionValue(value)) cuts.push([end - value.length, end])
      }
    }
  }
  if (mayContain('value"') || mayContain("value'") || mayContain("value:")) {
    for (const match of text.matchAll(COOKIE_OBJECT_RE)) {
      const [whole, name = "", value = ""] = match
      const end = match.index + whole.length
      if (isSessionCookie(name) && isSessionValue(value)) cuts.push([end - value.length, end])
    }
  }
  if (mayContain("TRUE\t") || mayContain("FALSE\t")) {
    for (const match of text.matchAll(COOKIE_JAR_RE)) {
      const [whole, , name = "", value = ""] = match
      const end = match.index + whole.length
      if (isSessionCookie(name) && isSessionValue(value)) cuts.push([end - value.length, end])
    }
  }
  // Two passes may cut the same value: sorted, the later cut of an overlap is dropped.
  return applyCuts(
    text,
    cuts.sort((a, b) => a[0] - b[0]),
  )
}
