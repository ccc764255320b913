// Secrets told by their surroundings, not a secret's name: service keys, C defines, commands, URLs, RPC, prose.
import { wordPattern } from "../../base/words.ts"
import { isNeverSecret, isTokenStandIn, looksRandom, REDACTED, type SecretRule } from "./values.ts"

/**
 * Services whose name alone is the key of their credential in a config (`postmark: <token>` in Rails'
 * encrypted credentials, `cloudflare: "<key>"`): only a value that looks random goes.
 */
const SERVICES = [
  "postmark",
  "sendgrid",
  "mailgun",
  "mailchimp",
  "mandrill",
  "sparkpost",
  "mailjet",
  "cloudflare",
  "sourcegraph",
  "stripe",
  "twilio",
  "pusher",
  "algolia",
  "sentry",
  "datadog",
  "newrelic",
  "segment",
  "mixpanel",
  "amplitude",
  "intercom",
  "zendesk",
  "onesignal",
  "openai",
  "anthropic",
  "airtable",
  "contentful",
  "braintree",
  "recaptcha",
  "hcaptcha",
  "mapbox",
  "heroku",
]

const SERVICE_RE = new RegExp(
  `^([ \\t]*["']?${wordPattern(SERVICES)}["']?[ \\t]*[:=][ \\t]*["']?)([A-Za-z0-9_.+/=-]{16,200})(?=["']?[ \\t]*,?[ \\t]*\\r?$)`,
  "gim",
)

const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

/** A key's value: random by the usual test, or a UUID (Postmark's server tokens are UUIDs). */
const isKeyValue = (value: string) => !isTokenStandIn(value) && (UUID_RE.test(value) || looksRandom(value))

/** Digits, letters of both cases and no word of three or more small letters after a capital in half of it. */
function isMixedSegment(value: string): boolean {
  if (!/\d.*\d/.test(value) || !/[a-z]/.test(value) || !/[A-Z]/.test(value)) return false
  const wordy = (value.match(/[A-Z]?[a-z]{4,}/g) ?? []).reduce((sum, word) => sum + word.length, 0)
  return wordy < value.length / 3 && !isTokenStandIn(value)
}

/** Methods of Ethereum clients and Bitcoin Core whose parameters carry a passphrase or key, and which ones. */
const RPC_SECRET_PARAMS: Readonly<Record<string, readonly number[]>> = {
  personal_unlockAccount: [1],
  personal_newAccount: [0],
  personal_importRawKey: [0, 1],
  personal_sendTransaction: [1],
  personal_signTransaction: [1],
  personal_sign: [2],
  walletpassphrase: [0],
  walletpassphrasechange: [0, 1],
  encryptwallet: [0],
  importprivkey: [0],
}

/**
 * The list's content stops at a `[` too: a nested list is no parameter here, and a run of calls without their
 * `]` is not read to its end once per call.
 */
const RPC_RE = new RegExp(
  `("method"[ \\t]*:[ \\t]*"(${wordPattern(Object.keys(RPC_SECRET_PARAMS))})"[ \\t]*,[ \\t]*"params"[ \\t]*:[ \\t]*\\[)([^[\\]\\n]{0,4096})\\]`,
  "g",
)

/** The listed string parameters of one call redacted, the rest (addresses, durations, labels) kept. */
function redactRpcParams(method: string, params: string): string {
  const secret = RPC_SECRET_PARAMS[method] ?? []
  let index = 0
  return params.replace(/"(?:[^"\\\n]|\\.){0,2048}"|[^,\s"]{1,256}/g, (param) => {
    const at = index++
    if (!secret.includes(at) || !param.startsWith('"') || param.length < 4) return param
    return isNeverSecret(param) && !/\s/.test(param) ? param : `"${REDACTED}"`
  })
}

/** Prose that states a password: `the default password is 'x'`. A plain lowercase word (`'strong'`) stays. */
const PROSE_RE =
  /\b(password[ \t]+(?:is|was|will[ \t]+be|remains|defaults[ \t]+to|is[ \t]+set[ \t]+to)[ \t]+)(["'`])([^"'`\s]{3,128})\2/gi

export const CONTEXTS_RULES: readonly SecretRule[] = [
  {
    name: "service-key",
    keyword: SERVICES,
    re: SERVICE_RE,
    replace: (m, lead = "", value = "") => (isKeyValue(value) ? `${lead}${REDACTED}` : m),
  },
  {
    // C and Arduino headers: `#define IO_KEY "…"`, `#define WIFI_PASS "…"`. Under a key's name the value must
    // look random; under a password's or token's, anything that is no stand-in or reference.
    name: "c-define",
    keyword: "define",
    re: /^([ \t]*#[ \t]*define[ \t]+[A-Z][A-Z0-9_]{0,64}(KEY|TOKEN|AUTH|PASS|PASSWORD|PWD|SECRET|PSK|PASSPHRASE)[ \t]+")([^"\n]{6,256})(?=")/gm,
    replace: (m, lead = "", kind = "", value = "") =>
      (kind === "KEY" ? isKeyValue(value) : !isNeverSecret(value)) ? `${lead}${REDACTED}` : m,
  },
  {
    // `vault operator unseal <key share>` (its options before the key: `-address=…`); `-reset` and no key stay.
    name: "vault-unseal",
    keyword: "unseal",
    re: /\b(vault[ \t]+operator[ \t]+unseal(?:[ \t]+-{1,2}[\w-]{1,32}(?:=[^\s=][^\s]{0,255})?){0,8}[ \t]+["']?)([A-Za-z0-9+/]{20,128}={0,2})/g,
    replace: (m, lead = "", value = "") => (isTokenStandIn(value) ? m : `${lead}${REDACTED}`),
  },
  {
    // Jenkins' CSRF crumb, as a header or in the JSON that hands it out: a session's anti-forgery secret.
    name: "jenkins-crumb",
    keyword: ["Crumb", "crumb"],
    re: /((?:Jenkins-Crumb["']?[ \t]*[:=]|"crumb"[ \t]*:)[ \t]*["']?)([A-Za-z0-9]{16,128})\b/gi,
    replace: (m, lead = "", value = "") => (isTokenStandIn(value) ? m : `${lead}${REDACTED}`),
  },
  {
    // A key as a URL's path segment (Discord's webhooks, keyed endpoints): 24 or more characters mixing
    // digits and both cases, that form no words. Commit hashes are one case; article slugs hold no digits.
    name: "url-path-token",
    keyword: "://",
    re: /(https?:\/\/[\w.-]{1,253}(?::\d{1,5})?(?:\/[\w.~%@-]{0,200}){0,12}\/)([A-Za-z0-9_-]{24,256})(?=[/?#'"`<>)\s]|$)/g,
    replace: (m, lead = "", segment = "") => {
      // A shared document's id (Google Docs, Drive) is how the document is named in every link to it.
      if (/^https?:\/\/(?:docs|drive)\.google\.com\//.test(lead)) return m
      const parts = segment.split(/[_-]/)
      return parts.some((part) => part.length >= 16 && isMixedSegment(part)) || isMixedSegment(segment)
        ? `${lead}${REDACTED}`
        : m
    },
  },
  {
    // ODBC and ADO.NET: `; Password = Tr0ub4dor&3;` runs to the next `;`, whatever it holds (`&`, `#`).
    name: "connection-string-password",
    keyword: ["assword", "ASSWORD", "wd", "WD"],
    re: /(;[ \t]*(?:Password|Pwd)[ \t]*=[ \t]*)([^;"'\s][^;"'\n]{0,255}?)(?=[ \t]*(?:;|"|'|\r?$))/gim,
    replace: (m, lead = "", value = "") => (isNeverSecret(value.replace(/\s/g, "")) ? m : `${lead}${REDACTED}`),
  },
  {
    name: "json-rpc-params",
    keyword: '"params"',
    re: RPC_RE,
    replace: (m, lead = "", method = "", params = "") => {
      const redacted = redactRpcParams(method, params)
      return redacted === params ? m : `${lead}${redacted}]`
    },
  },
  {
    name: "prose-password",
    keyword: ["password", "Password", "PASSWORD"],
    re: PROSE_RE,
    replace: (m, lead = "", quote = "", value = "") =>
      /^[a-z]+$/.test(value) || isNeverSecret(value) ? m : `${lead}${quote}${REDACTED}${quote}`,
  },
]
