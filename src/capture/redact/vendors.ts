// Further vendor token formats: the services the public scanners' rule sets list beyond the big platforms.

import { TOKEN_RULES } from "./tokens.ts"
import {
  isTokenStandIn,
  looksRandom,
  REDACTED,
  redactIfKeyLike,
  redactIfMixed,
  redactToken,
  type SecretRule,
} from "./values.ts"

/** `<prefix><body>` with a word boundary at both ends: most formats here are just that. */
const prefixed = (name: string, keyword: string | readonly string[], re: RegExp): SecretRule => ({
  name,
  keyword,
  re,
  replace: redactToken,
})

/**
 * Formats written from what each vendor documents (prefix, separators, length, alphabet), each standing
 * alone. Like TOKEN_RULES, every regex starts with a literal, has no nested quantifier, and bounds every run.
 */
/**
 * Prefixes that name a hash, not a vendor (`sha512-…` in lock files, `sha256_…`, `md5-…`), or a key made to be
 * public (Stripe's publishable `pk_`, PostHog's project `phc_`).
 */
const HASH_PREFIX_RE = /^(?:sha\d*|md\d|blake\d*\w*|xxh\d*|crc\d*|h\d|hash|commit|rev|sum|digest|etag|pk|phc|pub)$/i

/**
 * A token with a vendor-like prefix that no format here names (`rnd_`, `tvly-dev-`, `nvapi-`, `lsv2_pt_`): a
 * short lowercase prefix, then a run of 24 or more characters that mixes letters and digits and forms no words;
 * without capitals, 32 or more. Identifiers (`test_handle_request…`), kebab-case and hashes stay.
 */
function redactVendorLike(match: string): string {
  const prefix = /^[a-z][a-z0-9]{0,5}/.exec(match)?.[0] ?? ""
  if (HASH_PREFIX_RE.test(prefix) || hasKnownPrefix(match)) return match
  const random = match
    .slice(prefix.length)
    .split(/[_-]/)
    .some(
      (part) =>
        part.length >= 24 &&
        /\d.*\d/.test(part) &&
        /[a-z]/.test(part) &&
        (/[A-Z]/.test(part) || part.length >= 32) &&
        looksRandom(part) &&
        wordyShare(part) < 1 / 3 &&
        !hasOrderedRun(part),
    )
  return random ? redactToken(match) : match
}

/**
 * Whether a token's body reads as a name in code, not a key: a constant or number in capitals and digits
 * (`CHE2LICENSE`, `1234567890`), or capitalised or lowercase words, each with a vowel, no digits
 * (`EnvironmentList`, `ootstrapLoader`). A key's body mixes cases and digits, or runs letters that form no word.
 */
function isCodeName(body: string): boolean {
  if (!/[a-z]/.test(body)) return true
  if (/\d/.test(body)) return false
  const parts = body.match(/[A-Z]+(?![a-z])|[A-Z]?[a-z]+/g) ?? []
  return parts.join("") === body && parts.every((part) => part.length >= 2 && /[aeiouyAEIOUY]/.test(part))
}

/** The share of a part in words of four or more letters (`SponsoredProducts…`): a random key has few. */
const wordyShare = (part: string) =>
  (part.match(/[A-Z]?[a-z]{4,}/g) ?? []).reduce((sum, word) => sum + word.length, 0) / part.length

/**
 * A prefix that a format rule here knows (`sntryu_`, `gsk_`, `pypi-AgEI`): that rule has said no to its length
 * or alphabet, and a near miss of a known format is a test's fixture, not an unknown vendor's token.
 */
function hasKnownPrefix(match: string): boolean {
  const lower = match.toLowerCase()
  for (let i = 2; i <= Math.min(lower.length, 24); i++) if (KNOWN_PREFIXES.has(lower.slice(0, i))) return true
  return false
}

/**
 * A fixture's body: eight characters or more in alphabetical or counting order, case aside (`aAbBcCdD`,
 * `12345678`). Random text holds such a run almost never.
 */
function hasOrderedRun(part: string): boolean {
  const lower = part.toLowerCase()
  let run = 0
  for (let i = 1; i < lower.length; i++) {
    const step = lower.charCodeAt(i) - lower.charCodeAt(i - 1)
    run = step === 0 || step === 1 ? run + 1 : 0
    if (run >= 7) return true
  }
  return false
}

export const VENDOR_RULES: readonly SecretRule[] = [
  prefixed("adobe", "p8e-", /\bp8e-[A-Za-z0-9]{32}\b/g),
  prefixed("airtable", "pat", /\bpat[A-Za-z0-9]{14}\.[a-f0-9]{64}\b/g),
  prefixed("alibaba", "LTAI", /\bLTAI[A-Za-z0-9]{20}\b/g),
  prefixed("artifactory", ["AKCp", "cmVmdGtu"], /\b(?:AKCp[A-Za-z0-9]{69}|cmVmdGtu[A-Za-z0-9]{56})\b/g),
  {
    // JFrog's keys as scanners find them, standing alone: `AKC` and 10 or more characters (API keys), `AP`, a
    // hex digit and 8 or more (encrypted passwords). Shorter than the published 73, so a name that happens to
    // start so (`APEnvironmentList`) is kept; a stand-in (`AKCxxxxxxxxxx`) is not.
    name: "artifactory-short",
    keyword: ["AKC", "AP"],
    re: /(?<![\w-])(?:AKC[A-Za-z0-9]{10,100}|AP[0-9A-F][A-Za-z0-9]{8,100})(?![\w-])/g,
    replace: (match: string) => (isCodeName(match.slice(3)) ? match : REDACTED),
  },
  {
    // Service client keys: `sc_<id>.<key id>.acc_<account>.<secret>` (also `ext_`, `scauth_`, `authress_`).
    name: "authress",
    keyword: [".acc_", ".acc-"],
    re: /\b(?:sc|ext|scauth|authress)_[a-z0-9]{5,30}\.[a-z0-9]{4,6}\.acc[_-][a-z0-9-]{10,32}\.[a-z0-9+/_=-]{30,120}/gi,
    replace: redactToken,
  },
  // A presigned URL in base64: hundreds of characters, never a few dozen.
  prefixed("aws-bedrock-short", "bedrock-api-key-", /\bbedrock-api-key-[A-Za-z0-9+/=]{100,4096}/g),
  prefixed("clickhouse", "4b1d", /\b4b1d[A-Za-z0-9]{38}\b/g),
  prefixed("clojars", "CLOJARS_", /\bCLOJARS_[a-z0-9]{60}\b/gi),
  prefixed("cloudflare-origin-ca", "v1.0-", /\bv1\.0-[a-f0-9]{24}-[a-f0-9]{146}\b/g),
  { name: "codecov", keyword: "cc_", re: /\bcc_[A-Za-z0-9]{40,64}\b/g, replace: redactIfKeyLike },
  prefixed("defined-networking", "dnkey-", /\bdnkey-[a-z0-9=_-]{26}-[a-z0-9=_-]{52}/gi),
  prefixed("duffel", "duffel_", /\bduffel_(?:test|live)_[A-Za-z0-9_=-]{43}/g),
  prefixed("dynatrace", "dt0c01.", /\bdt0c01\.[A-Za-z0-9]{24}\.[A-Za-z0-9]{64}\b/g),
  prefixed("easypost", ["EZAK", "EZTK"], /\bEZ[AT]K[A-Za-z0-9]{54}\b/g),
  prefixed("flutterwave", ["FLWSECK", "FLWPUBK"], /\bFLW(?:SECK|PUBK)_TEST-[a-h0-9]{12,32}(?:-X)?\b/gi),
  // Bare macaroons, without the `FlyV1 ` header the token rule knows.
  prefixed("fly-macaroon", ["fm1", "fm2"], /\bfm[12][ar]?_[A-Za-z0-9+/]{100,4096}={0,3}/g),
  prefixed("frameio", "fio-u-", /\bfio-u-[A-Za-z0-9_=-]{64}/g),
  { name: "gocardless", keyword: "live_", re: /\blive_[A-Za-z0-9_=-]{40}(?![\w=-])/g, replace: redactIfKeyLike },
  prefixed("harness", ["pat.", "sat."], /\b(?:pat|sat)\.[A-Za-z0-9_-]{22}\.[A-Za-z0-9]{24}\.[A-Za-z0-9]{20}\b/g),
  {
    // Matched from the character before: `video_box.ico-<hash>.png` is a file name, not a token.
    name: "infracost",
    keyword: "ico-",
    re: /(^|[^\w.-])ico-[A-Za-z0-9]{32}\b/g,
    replace: (match, lead = "") => (isTokenStandIn(match.slice(lead.length)) ? match : `${lead}${REDACTED}`),
  },
  prefixed("intra42", "s-s4t2", /\bs-s4t2(?:ud|af)-[a-f0-9]{64}\b/g),
  prefixed("kraken", "kraken", /\bkraken_[A-Za-z0-9/=_+-]{80,90}/g),
  // Test and live secret keys, and publishable ones (`test_pub_`): hex of a length nothing else has.
  prefixed("lob", ["live_", "test_"], /\b(?:live|test)_(?:pub_[a-f0-9]{31}|[a-f0-9]{35})\b/g),
  prefixed("mailchimp", "-us", /\b[0-9a-f]{32}-us\d{1,2}\b/g),
  prefixed("maxmind", "_mmk", /\b[A-Za-z0-9]{6}_[A-Za-z0-9]{29}_mmk\b/g),
  prefixed("netlify", ["nfp_", "nfc_"], /\bnf[pc]_[A-Za-z0-9]{36,40}\b/g),
  prefixed("newrelic-keys", ["NRJS-", "NRII-", "NRAA-", "NRRA-"], /\bNR(?:JS|II|AA|RA)-[A-Za-z0-9]{19,42}\b/g),
  {
    // Ingest license keys end in `NRAL`; the rest is hex.
    name: "newrelic-license",
    keyword: "NRAL",
    re: /\b[a-f0-9]{36}NRAL\b/g,
    replace: redactToken,
  },
  { name: "octopus-deploy", keyword: "API-", re: /\bAPI-[A-Z0-9]{26}\b/g, replace: redactIfKeyLike },
  prefixed("openshift", "sha256~", /\bsha256~[A-Za-z0-9_-]{43}(?![\w-])/g),
  prefixed(
    "plaid",
    "access-",
    /\baccess-(?:sandbox|development|production)-[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b/g,
  ),
  // OpenRouter: `sk-or-v1-` and 64 hex digits.
  prefixed("openrouter", "sk-or-v1-", /\bsk-or-v1-[a-f0-9]{64}\b/g),
  prefixed("prefect", "pnu_", /\bpnu_[A-Za-z0-9]{36}\b/g),
  prefixed("pulumi", "pul-", /\bpul-[a-f0-9]{40}\b/g),
  prefixed("readme", "rdme_", /\brdme_[a-z0-9]{70}\b/g),
  prefixed("rubygems", "rubygems_", /\brubygems_[a-f0-9]{48}\b/g),
  prefixed("scalingo", "tk-us-", /\btk-us-[A-Za-z0-9_-]{48}(?![\w-])/g),
  prefixed("sendinblue", "xkeysib-", /\bxkeysib-[a-f0-9]{64}-[A-Za-z0-9]{16}\b/g),
  prefixed("settlemint", ["sm_aat_", "sm_pat_", "sm_sat_"], /\bsm_(?:aat|pat|sat)_[A-Za-z0-9]{16}\b/g),
  prefixed("shippo", "shippo_", /\bshippo_(?:live|test)_[a-f0-9]{40}\b/g),
  prefixed("slack-config", ["xoxe.xox", "xoxe-"], /\bxoxe(?:\.xox[bp]-\d-[A-Z0-9]{160,170}|-\d-[A-Z0-9]{140,150})\b/gi),
  {
    name: "square-access",
    keyword: "EAAA",
    re: /\bEAAA[A-Za-z0-9_-]{22,60}(?![\w-])/g,
    replace: redactIfMixed,
  },
  prefixed("typeform", "tfp_", /\btfp_[A-Za-z0-9_.=-]{59}/g),
  prefixed("zendesk-sell", "zdt_", /\bzdt_[A-Za-z0-9]{40,64}\b/g),
  // Yandex Cloud: API keys (`AQVN`), static access keys (`YC`), IAM tokens (`t1.` and two parts).
  { name: "yandex-api-key", keyword: "AQVN", re: /\bAQVN[A-Za-z0-9_-]{35,38}(?![\w-])/g, replace: redactIfKeyLike },
  { name: "yandex-access-key", keyword: "YC", re: /\bYC[A-Za-z0-9_-]{38}(?![\w-])/g, replace: redactIfMixed },
  prefixed("yandex-iam-token", "t1.", /\bt1\.[A-Za-z0-9_-]{1,64}={0,2}\.[A-Za-z0-9_-]{86}={0,2}/g),
  // Beamer API keys: `b_` and 44 characters; a word or an identifier of that length mixes no digits in.
  { name: "beamer", keyword: "b_", re: /\bb_[a-z0-9=_-]{44}(?![\w=-])/g, replace: redactIfKeyLike },
  {
    // Incoming webhooks of Microsoft Teams: tenant and group ids, `IncomingWebhook`, a key, an owner id.
    name: "teams-webhook",
    keyword: "/IncomingWebhook/",
    re: /\b[a-z0-9-]{36}@[a-z0-9-]{36}\/IncomingWebhook\/[a-z0-9]{32}\/[a-z0-9-]{36}/gi,
    replace: redactToken,
  },
  {
    name: "vendor-like",
    keyword: ["_", "-"],
    // The run taken whole (a lookahead and its backreference cannot give back characters), from a word's
    // start; one that starts after `-` or `.` is the tail of a longer name (`bedrock-api-key-…`) and stays. The
    // character before is matched, not looked behind at: inside a run (`sk-sk-sk-…`) no position can start, so
    // the 256 characters of the lookahead are read once per run, not at every `-`.
    re: /(^|[^\w.-])([a-z][a-z0-9]{0,5}[_-](?=([A-Za-z0-9_-]{24,256}))\3)(?![\w.-])/g,
    replace: (match, lead = "", token = "") => {
      const redacted = redactVendorLike(token)
      return redacted === token ? match : `${lead}${redacted}`
    },
  },
  {
    // Dots inside, never two in a row (`SG.….…` is no key). Tested after the match: Bun's regex engine miscounts
    // a repeated group whose last alternative ends in a lookahead (`(?:a|b(?!b)){5}` matches "ab").
    name: "sendgrid-long",
    keyword: "SG.",
    re: /\bSG\.[A-Za-z0-9_=.-]{60,80}/g,
    replace: (match) => (match.includes("..") ? match : redactIfKeyLike(match)),
  },
]

/** The prefixes the format rules' keywords name (`sntryu_`, `gsk_`), read once the rules exist. */
const KNOWN_PREFIXES = new Set(
  [...TOKEN_RULES, ...VENDOR_RULES]
    .flatMap((rule) => (typeof rule.keyword === "string" ? [rule.keyword] : rule.keyword))
    .filter((keyword) => keyword.length >= 2 && /^[a-z]/i.test(keyword))
    .map((keyword) => keyword.toLowerCase()),
)
