// JSON Web Tokens, found by their header and payload.
import {
  DIGIT_0,
  DIGIT_9,
  HYPHEN,
  LOWER_A,
  LOWER_Z,
  PLUS,
  SLASH,
  UNDERSCORE,
  UPPER_A,
  UPPER_Z,
} from "../../base/chars.ts"
import { applyCuts } from "./commands.ts"

const JWT_PAYLOAD_RE = /\.ey[A-Za-z0-9_-]/g

/** base64url, plus the standard alphabet's `+` and `/` that some issuers emit. */
const isJwtChar = (code: number) =>
  (code >= DIGIT_0 && code <= DIGIT_9) ||
  (code >= UPPER_A && code <= UPPER_Z) ||
  (code >= LOWER_A && code <= LOWER_Z) ||
  code === UNDERSCORE ||
  code === HYPHEN

const isJwtBodyChar = (code: number) => isJwtChar(code) || code === PLUS || code === SLASH

function jwtRunEnd(text: string, from: number): number {
  let end = from
  while (end < text.length && isJwtBodyChar(text.charCodeAt(end))) end++
  return end
}

/**
 * Where the token before this dot starts: where the header's run starts, if the header (`ey…`) starts it or
 * follows a short prefix glued on with `_` or `-` (`ghs_<id>_eyJ…`, which is one token).
 */
function jwtStart(text: string, dot: number): number {
  let start = dot
  while (start > 0 && dot - start <= 8_192 && isJwtChar(text.charCodeAt(start - 1))) start--
  if (dot - start > 8_192) return -1
  for (let at = start; at <= dot - 10 && at - start <= 40; at++) {
    const glued = at > start && (text[at - 1] === "_" || text[at - 1] === "-")
    if ((at === start || glued) && text.startsWith("ey", at)) return start
  }
  return -1
}

/** Where the header starts within the run before the dot: after a glued prefix (`ghs_<id>_`), if any. */
function jwtHeaderAt(text: string, start: number, dot: number): number {
  const at = text.indexOf("ey", start)
  return at < 0 || at > dot ? start : at
}

/**
 * JWTs (and JWEs): header and payload are base64url JSON, so both start `ey`. The scan starts at the dot
 * before the payload: starting at every `eyJ` would re-read a long base64 run once per occurrence. The header
 * may be glued to a prefix after `_` (`ghs_<id>_eyJ…`); the signature may be missing, when both parts are JSON.
 */
export function redactJwts(text: string): string {
  if (!text.includes(".ey")) return text
  const cuts: Array<[number, number]> = []
  let cursor = 0
  for (const hit of text.matchAll(JWT_PAYLOAD_RE)) {
    const dot = hit.index
    if (dot < cursor) continue
    let end = jwtRunEnd(text, dot + 1)
    cursor = end
    // Without its signature (cut in a log, an unsigned token) only when both parts are JSON (`eyJ`): a word
    // that happens to start with `ey` (`eyeballing.eyelashes`) is no header.
    const signed = text[end] === "."
    if (end - dot - 1 < 10 || (!signed && !text.startsWith(".eyJ", dot))) continue
    const start = jwtStart(text, dot)
    if (start < 0 || (!signed && !text.startsWith("eyJ", jwtHeaderAt(text, start, dot)))) continue
    if (!signed) {
      cuts.push([start, end])
      continue
    }
    end = jwtRunEnd(text, end + 1)
    for (let part = 0; part < 2 && text[end] === "." && isJwtChar(text.charCodeAt(end + 1)); part++) {
      end = jwtRunEnd(text, end + 1)
    }
    while (text[end] === "=") end++
    cuts.push([start, end])
    cursor = end
  }
  return applyCuts(text, cuts)
}
