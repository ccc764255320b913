// Vendor token formats standing alone, and the contexts secrets travel in (headers, URLs, .netrc, SQL).
import {
  isNeverSecret,
  isPlaceholder,
  isSecretHeaderValue,
  isTokenStandIn,
  looksRandom,
  REDACTED,
  redactAfter,
  redactIfKeyLike,
  redactIfMixed,
  redactQuoted,
  redactToken,
  type SecretRule,
} from "./values.ts"

/** An Anthropic key of its published shape: prefix, version, 93 characters, `AA`. */
const ANTHROPIC_RE = /^sk-ant-(?:api|admin)\d\d-[A-Za-z0-9_-]{93}AA$/

/**
 * Prefix-anchored token formats, as their vendors publish them: a token is recognised standing alone, not
 * only after a telling name. Each is linear in the input: a literal start, no nested quantifiers, and every
 * run of a character class bounded or ending the match.
 */
export const TOKEN_RULES: readonly SecretRule[] = [
  {
    name: "github",
    keyword: ["ghp_", "gho_", "ghu_", "ghs_", "ghr_"],
    re: /\bgh[pousr]_[A-Za-z0-9]{36,255}\b/g,
    replace: redactToken,
  },
  { name: "github-pat", keyword: "github_pat_", re: /\bgithub_pat_[A-Za-z0-9_]{22,255}/g, replace: redactToken },
  {
    // Personal, deploy, runner, trigger, CI job, feed, incoming mail, agent, OAuth app, SCIM, feature-flag and
    // workspace tokens, each of the length GitLab gives it (20 to 50 characters; a trigger token 40, an incoming
    // mail token 25, an OAuth secret 64, an agent token 50 or more); the routable formats end in
    // `.<version><crc>`. A body longer or shorter than its kind's is something else spelled like one.
    name: "gitlab",
    keyword: [
      "glpat-",
      "gldt-",
      "glrt",
      "glptt-",
      "glcbt-",
      "glft-",
      "glimt-",
      "glagent-",
      "gloas-",
      "glsoat-",
      "glffct-",
      "glwt-",
    ],
    re: /\bgl(?:(?:pat|dt|rtr?|cbt|ft|soat|ffct|wt)-[\w-]{20,50}|ptt-[\w-]{40}|imt-[\w-]{25}|agent-[\w-]{50,1024}|oas-[\w-]{64})(?:\.[0-9A-Za-z]{2,12}){0,2}(?![\w-])/g,
    replace: redactToken,
  },
  {
    name: "gitlab-runner-registration",
    keyword: "GR1348941",
    re: /\bGR1348941[0-9A-Za-z_-]{20,50}(?![\w-])/g,
    replace: redactToken,
  },
  {
    name: "gitlab-session",
    keyword: "_gitlab_session=",
    re: /(_gitlab_session=)[0-9a-z]{32}\b/g,
    replace: redactAfter,
  },
  {
    name: "sk-key",
    keyword: "sk-",
    re: /\bsk-(?:proj-|ant-(?:api|admin)\d\d-|or-v1-|svcacct-|admin-)?[A-Za-z0-9_-]{20,400}/g,
    // Anthropic's keys are 93 characters and `AA` after their prefix: one of another length is no key of theirs.
    replace: (match) => (match.startsWith("sk-ant-") && !ANTHROPIC_RE.test(match) ? match : redactIfKeyLike(match)),
  },
  { name: "groq", keyword: "gsk_", re: /\bgsk_[A-Za-z0-9]{52}\b/g, replace: redactToken },
  { name: "xai", keyword: "xai-", re: /\bxai-[A-Za-z0-9]{60,100}\b/g, replace: redactToken },
  { name: "perplexity", keyword: "pplx-", re: /\bpplx-[A-Za-z0-9]{40,60}\b/g, replace: redactToken },
  { name: "replicate", keyword: "r8_", re: /\br8_[A-Za-z0-9]{37,40}\b/g, replace: redactToken },
  { name: "huggingface", keyword: "hf_", re: /\bhf_[A-Za-z]{34,40}\b/g, replace: redactToken },
  { name: "huggingface-org", keyword: "api_org_", re: /\bapi_org_[A-Za-z]{34}\b/g, replace: redactToken },
  {
    // Bot, user, app, refresh, client and cookie tokens; the legacy `xoxo-`/`xoxs-` ones are digit groups.
    name: "slack",
    keyword: ["xoxa-", "xoxb-", "xoxc-", "xoxd-", "xoxe", "xoxo-", "xoxp-", "xoxr-", "xoxs-"],
    re: /\bxox(?:[a-eprs]-[A-Za-z0-9%-]{10,250}|[os]-\d+-\d+-\d+-[a-fA-F\d]{16,64})/g,
    // Two groups of digits (team and user ids) are a token's shape too, whatever follows them.
    replace: (match) => (/-\d{8,}-\d{8,}/.test(match) ? redactToken(match) : redactIfKeyLike(match)),
  },
  { name: "slack-app", keyword: "xapp-", re: /\bxapp-\d-[A-Za-z0-9-]{10,250}/g, replace: redactToken },
  {
    name: "slack-webhook",
    keyword: "hooks.slack.com",
    re: /hooks\.slack\.com\/(?:services|workflows|triggers)\/[A-Za-z0-9/_-]{20,200}/g,
    replace: redactToken,
  },
  {
    // Bot tokens: the base64 of a numeric user id (so M, N or O first, 24 to 26 characters), a timestamp, an HMAC.
    name: "discord-bot",
    keyword: ".",
    re: /\b[MNO][A-Za-z0-9_-]{23,25}\.[A-Za-z0-9_-]{6,7}\.[A-Za-z0-9_-]{27,40}(?![\w-])/g,
    replace: redactIfMixed,
  },
  {
    name: "discord-webhook",
    keyword: "/api/webhooks/",
    re: /(discord(?:app)?\.com\/api\/webhooks\/\d{16,20}\/)[A-Za-z0-9_-]{60,70}/g,
    replace: redactAfter,
  },
  { name: "telegram-bot", keyword: ":A", re: /\b\d{5,16}:A[A-Za-z0-9_-]{34}(?![\w-])/g, replace: redactToken },
  {
    // Secret, restricted and ephemeral keys; a publishable key (`pk_`) is meant to be seen in web pages.
    name: "stripe",
    keyword: ["k_live_", "k_test_", "k_prod_"],
    re: /\b(?:sk|rk|ek)_(?:live|test|prod)_[A-Za-z0-9]{24,250}/g,
    replace: redactToken,
  },
  { name: "stripe-webhook", keyword: "whsec_", re: /\bwhsec_[A-Za-z0-9]{20,250}/g, replace: redactToken },
  {
    name: "stripe-client-secret",
    keyword: "_secret_",
    re: /\b(?:pi|seti|pm)_[A-Za-z0-9]{14,40}_secret_[A-Za-z0-9]{10,60}\b/g,
    replace: redactToken,
  },
  {
    name: "shopify",
    keyword: ["shpat_", "shpca_", "shppa_", "shpss_", "shpua_"],
    re: /\bshp(?:at|ca|pa|ss|ua)_[A-Za-z0-9]{32,64}\b/g,
    replace: redactToken,
  },
  {
    // `SG.`, 22, `.`, 43; also glued to the text before it (`oopsSG.…`, minified code): nothing else has that shape.
    name: "sendgrid",
    keyword: "SG.",
    re: /SG\.[A-Za-z0-9_-]{22}\.[A-Za-z0-9_-]{43}/g,
    replace: redactToken,
  },
  // An API key's SID (`SK`) or an account's (`AC`): 32 hex digits, or the 32 x's of Twilio's own examples.
  { name: "twilio", keyword: ["SK", "AC"], re: /\b(?:SK|AC)(?:[0-9a-fA-F]{32}|x{32})\b/g, replace: redactToken },
  { name: "mailgun", keyword: "key-", re: /\b(?:pub)?key-[a-f0-9]{32}\b/g, replace: redactToken },
  { name: "mailgun-v2", keyword: "-", re: /\b[a-f0-9]{32}-[a-f0-9]{8}-[a-f0-9]{8}\b/g, replace: redactToken },
  { name: "google-api", keyword: "AIza", re: /\bAIza[0-9A-Za-z_-]{35}(?![\w-])/g, replace: redactToken },
  { name: "google-oauth-secret", keyword: "GOCSPX-", re: /\bGOCSPX-[A-Za-z0-9_-]{28}/g, replace: redactToken },
  { name: "google-oauth-token", keyword: "ya29.", re: /\bya29\.[A-Za-z0-9_-]{20,2048}/g, replace: redactToken },
  { name: "google-refresh-token", keyword: "1//0", re: /\b1\/\/0[A-Za-z0-9_-]{40,512}/g, replace: redactToken },
  {
    name: "aws-key-id",
    keyword: ["AKIA", "ASIA", "ABIA", "ACCA", "A3T"],
    re: /\b(?:AKIA|ASIA|ABIA|ACCA|A3T[A-Z0-9])[A-Z0-9]{16}\b/g,
    replace: redactToken,
  },
  {
    // STS session tokens: base64 of a fixed binary header.
    name: "aws-session-token",
    keyword: ["ZXIvYXdz", "b3JpZ2lu"],
    re: /\b(?:FwoGZXIvYXdz|FQoGZXIvYXdz|IQoJb3JpZ2lu)[A-Za-z0-9/+=]{100,4096}/g,
    replace: redactToken,
  },
  {
    // Entra ID client secrets: three characters, a digit, `Q~`, then 31 to 34 more.
    name: "azure-client-secret",
    keyword: "Q~",
    // The start is matched, not looked behind at: a lookbehind costs Bun's regex engine its JIT.
    re: /(^|[^\w~.-])([\w~.]{3}\dQ~[\w~.-]{31,34})(?![\w~.-])/g,
    replace: (match, lead = "", token = "") => (isPlaceholder(token) ? match : `${lead}${REDACTED}`),
  },
  { name: "digitalocean", keyword: "_v1_", re: /\bdo[oprst]_v1_[a-f0-9]{64}\b/g, replace: redactToken },
  { name: "heroku", keyword: "HRKU-", re: /\bHRKU-AA[0-9A-Za-z_-]{58}/g, replace: redactToken },
  {
    name: "databricks",
    keyword: ["dapi", "dose"],
    re: /\bd(?:api|ose)[a-fA-F0-9]{32}(?:-\d)?\b/g,
    replace: redactToken,
  },
  { name: "vault", keyword: ["hvs.", "hvb.", "hvr."], re: /\bhv[sbr]\.[A-Za-z0-9_-]{24,400}/g, replace: redactToken },
  { name: "vault-legacy", keyword: "s.", re: /\bs\.[A-Za-z0-9]{24}\b/g, replace: redactIfMixed },
  {
    name: "terraform-cloud",
    keyword: ".atlasv1.",
    re: /\b[A-Za-z0-9]{14}\.atlasv1\.[A-Za-z0-9_=-]{60,70}/g,
    replace: redactToken,
  },
  { name: "grafana-cloud", keyword: "glc_", re: /\bglc_[A-Za-z0-9+/]{32,400}={0,3}/g, replace: redactToken },
  {
    name: "grafana-service-account",
    keyword: "glsa_",
    re: /\bglsa_[A-Za-z0-9]{32}_[A-Fa-f0-9]{8}\b/g,
    replace: redactToken,
  },
  {
    // Legacy API keys: base64 of `{"k":"`, no dots, so the JWT scan does not see them.
    name: "grafana-api-key",
    keyword: "eyJrIjoi",
    re: /\beyJrIjoi[A-Za-z0-9+/]{40,400}={0,3}/g,
    replace: redactToken,
  },
  {
    name: "vercel",
    keyword: ["vca_", "vci_", "vck_", "vcp_", "vcr_"],
    re: /\bvc[aikpr]_[A-Za-z0-9]{24,64}\b/g,
    replace: redactToken,
  },
  {
    // Also after `_` or a digit (`MY_tskey-…`), not inside a word (`abctskey-…`); the start is matched, since a
    // lookbehind costs Bun's regex engine its JIT.
    name: "tailscale",
    keyword: "tskey-",
    re: /(^|[^A-Za-z])(tskey-(?:[a-z]{2,12}-)?[A-Za-z0-9]{6,40}-[A-Za-z0-9]{16,64})\b/g,
    replace: (match, lead = "", token = "") => (isTokenStandIn(token) ? match : `${lead}${REDACTED}`),
  },
  {
    name: "linear",
    keyword: "lin_",
    re: /\blin_(?:api_[A-Za-z0-9]{40}|oauth_[a-f0-9]{64})\b/g,
    replace: redactToken,
  },
  { name: "notion", keyword: "ntn_", re: /\bntn_\d{11}[A-Za-z0-9]{35}\b/g, replace: redactToken },
  { name: "notion-legacy", keyword: "secret_", re: /\bsecret_[A-Za-z0-9]{43}\b/g, replace: redactIfMixed },
  { name: "1password", keyword: "ops_", re: /\bops_eyJ[A-Za-z0-9+/_-]{100,4096}={0,3}/g, replace: redactToken },
  {
    name: "1password-secret-key",
    keyword: "A3-",
    re: /\bA3-[A-Z0-9]{6}-(?:[A-Z0-9]{11}|[A-Z0-9]{6}-[A-Z0-9]{5})-[A-Z0-9]{5}-[A-Z0-9]{5}-[A-Z0-9]{5}\b/g,
    replace: redactToken,
  },
  {
    name: "sourcegraph",
    keyword: "sgp_",
    re: /\bsgp_(?:[a-fA-F0-9]{16}_|local_)?[a-fA-F0-9]{40}\b/g,
    replace: redactToken,
  },
  { name: "facebook", keyword: "EAA", re: /\bEAA[A-Za-z0-9]{90,512}\b/g, replace: redactIfMixed },
  {
    // App access tokens: the app id, `|` (or its URL encoding), the app secret.
    name: "facebook-app-token",
    keyword: ["|", "%7C"],
    re: /\b\d{15,16}(?:\||%7C)[A-Za-z0-9_-]{27,40}\b/g,
    replace: redactIfMixed,
  },
  {
    name: "mapbox",
    keyword: ["sk.eyJ", "pk.eyJ"],
    re: /\b[ps]k\.eyJ[A-Za-z0-9_-]{10,1024}\.[A-Za-z0-9_-]{10,256}/g,
    replace: redactToken,
  },
  { name: "mapbox-legacy", keyword: "pk.", re: /\bpk\.[a-z0-9]{60}\.[a-z0-9]{22}\b/gi, replace: redactToken },
  // Upload tokens are macaroons of some 150 characters and more: a short one is a cut-off sample.
  { name: "pypi", keyword: "pypi-AgE", re: /\bpypi-AgE[A-Za-z0-9_-]{100,1000}/g, replace: redactToken },
  { name: "npm", keyword: "npm_", re: /\bnpm_[A-Za-z0-9]{36}\b/g, replace: redactToken },
  {
    name: "supabase",
    keyword: ["sbp_", "sb_secret_"],
    re: /\bsb(?:p_[a-f0-9]{40}\b|_secret_[A-Za-z0-9_-]{20,80})/g,
    replace: redactToken,
  },
  { name: "postman", keyword: "PMAK-", re: /\bPMAK-[a-f0-9]{24}-[a-f0-9]{34}\b/g, replace: redactToken },
  {
    // User tokens: 64 hex. Organisation tokens: base64 of their JSON claims, `_`, a 43-character secret.
    name: "sentry",
    keyword: ["sntrys_", "sntryu_"],
    re: /\bsntry(?:u_[a-f0-9]{64}|s_eyJ[A-Za-z0-9+/=]{20,400}_[A-Za-z0-9+/_-]{43})(?![\w+/-])/g,
    replace: redactToken,
  },
  { name: "newrelic", keyword: "NRAK-", re: /\bNRAK-[A-Za-z0-9]{27}\b/g, replace: redactToken },
  {
    name: "doppler",
    keyword: ["dp.pt.", "dp.st.", "dp.sa.", "dp.ct.", "dp.scim.", "dp.audit."],
    re: /\bdp\.(?:pt|st|sa|ct|scim|audit)\.[A-Za-z0-9]{40,44}\b/g,
    replace: redactToken,
  },
  {
    name: "planetscale",
    keyword: "pscale_",
    re: /\bpscale_(?:tkn|pw|oauth)_[A-Za-z0-9_.=-]{32,64}/g,
    replace: redactToken,
  },
  { name: "atlassian", keyword: "ATATT3", re: /\bATATT3[A-Za-z0-9_=-]{150,300}/g, replace: redactToken },
  { name: "sonarqube", keyword: ["sqp_", "sqa_", "squ_"], re: /\bsq[pau]_[a-fA-F0-9]{40}\b/g, replace: redactToken },
  {
    name: "square",
    keyword: ["sq0atp-", "sq0csp-", "sq0idp-"],
    re: /\bsq0(?:atp|csp|idp)-[A-Za-z0-9_-]{22,60}/g,
    replace: redactToken,
  },
  {
    name: "figma",
    keyword: ["figd_", "figo_", "figu_"],
    re: /\bfig[dou]_[A-Za-z0-9_-]{40,100}/g,
    replace: redactToken,
  },
  {
    // 40 characters and an 8-digit hex checksum.
    name: "cloudflare",
    keyword: ["cfut_", "cfat_", "cfk_"],
    re: /\bcf(?:ut|at|k)_[A-Za-z0-9]{40}[a-f0-9]{8}\b/g,
    replace: redactToken,
  },
  { name: "docker-hub", keyword: "dckr_", re: /\bdckr_(?:pat|oat)_[A-Za-z0-9_-]{20,64}/g, replace: redactToken },
  {
    name: "fly",
    keyword: ["fo1_", "FlyV1 "],
    re: /\b(?:fo1_[A-Za-z0-9_-]{43}|FlyV1 fm\d[ar]?_[A-Za-z0-9+/=,_-]{100,4096})/g,
    replace: redactToken,
  },
  { name: "aws-bedrock", keyword: "ABSK", re: /\bABSK[A-Za-z0-9+/]{100,4096}={0,2}/g, replace: redactToken },
  { name: "age", keyword: "AGE-SECRET-KEY-1", re: /\bAGE-SECRET-KEY-1[0-9A-Z]{58}\b/g, replace: redactToken },
]

/**
 * Parameters of an Authorization scheme that hold no secret: Digest's user, realm, nonces and counters, OAuth
 * 1's consumer key, nonce and timestamp, AWS Signature 4's credential scope and signed headers, the key id,
 * headers and times of HTTP Signatures and Hawk. Any other parameter goes when its value looks like a secret:
 * Digest's `response`, `oauth_signature`, `oauth_token`, `Signature`, `signature`, Hawk's `mac`, `token="…"`.
 */
const PUBLIC_AUTH_PARAMS = new Set(
  [
    "username realm nonce uri qop nc cnonce opaque algorithm userhash charset stale domain",
    "oauth_consumer_key oauth_nonce oauth_timestamp oauth_version oauth_signature_method oauth_callback",
    "oauth_body_hash credential signedheaders keyid headers created expires id ts hash ext app dlg",
  ]
    .join(" ")
    .split(" "),
)

const AUTH_PARAM_RE = /([a-z_][\w-]{0,40})=(?:(\\?")([^"\\\n]*)\\?"|([^\s"'`,]*))/gi

/**
 * A parameter list with its secret values redacted, or undefined if it is no list: a list has a quoted first
 * value or two parameters or more (`Foo key=value` alone is a scheme and its credential).
 */
function redactAuthParams(list: string): string | undefined {
  // An exec loop, no match arrays spread: on a megabyte of one-parameter lists this is most of the rule's cost.
  AUTH_PARAM_RE.lastIndex = 0
  let out = ""
  let at = 0
  let count = 0
  let firstQuoted = false
  for (let param = AUTH_PARAM_RE.exec(list); param; param = AUTH_PARAM_RE.exec(list)) {
    const [, name = "", quote, quoted, bare] = param
    if (count++ === 0) firstQuoted = quote !== undefined
    const value = quoted ?? bare ?? ""
    if (PUBLIC_AUTH_PARAMS.has(name.toLowerCase()) || !isSecretHeaderValue(value)) continue
    const start = param.index + name.length + 1 + (quote?.length ?? 0)
    out += list.slice(at, start) + REDACTED
    at = start + value.length
  }
  if (count < 2 && !firstQuoted) return undefined
  return at === 0 ? list : out + list.slice(at)
}

/** Whether the generic rule's value is the first name of a parameter list: `Digest username="…"`, `…, `. */
const isAuthParamList = (lead: string, value: string, next: string) =>
  /[a-z][\w-]{1,24}[ \t]+$/i.test(lead) &&
  /^[a-z_][\w-]{0,40}=/i.test(value) &&
  (next === '"' || value.endsWith(",") || value.endsWith("\\"))

/** `<token>:x-oauth-basic@`: the token as the URL's user, a fixed word as its password. */
const isTokenAsUser = (user: string, password: string) =>
  password.toLowerCase() === "x-oauth-basic" && looksRandom(user) && !isNeverSecret(user)

/** Credentials carried by a protocol or a command line rather than by a token format. */
export const CONTEXT_RULES: readonly SecretRule[] = [
  {
    name: "bearer",
    keyword: ["earer", "EARER"],
    re: /\b((?:[Bb]earer|BEARER)[ \t]{1,5})[A-Za-z0-9._~+/-]{16,4096}=*/g,
    replace: redactAfter,
  },
  {
    name: "basic-auth",
    keyword: "asic",
    re: /\b(Basic[ \t]{1,5})[A-Za-z0-9+/]{8,4096}=*/g,
    // Base64 of user:pass has digits, padding or inner capitals; "Basic authentication" has none.
    replace: (m, lead = "") => (/[\d+/=]|.[A-Z]/.test(m.slice(lead.length)) ? redactAfter(m, lead) : m),
  },
  {
    // A scheme whose credentials are a list of parameters (Digest, OAuth 1, AWS Signature 4, HTTP Signatures):
    // the secret ones go, the rest (user, realm, nonce, key id, date) stays readable. No `\b` before it: in a
    // logged string the header follows an escaped line break (`\r\nAuthorization: Digest …`). A HAR file holds
    // it as a name and a value: `"name": "authorization", "value": "Digest …"`.
    name: "authorization-params",
    keyword: ["uthorization", "UTHORIZATION"],
    re: /((?:proxy-)?authorization["']?[ \t]*(?:,[ \t]*["']value["'][ \t]*:|[:=])[ \t]*["'`]?(?!bearer\b|basic\b)[a-z][\w-]{1,24}[ \t]+)([a-z_][\w-]{0,40}=(?:\\?"[^"\\\n]{0,1024}\\?"|[^\s"'`,]{0,1024})(?:[ \t]*,[ \t]*[a-z_][\w-]{0,40}=(?:\\?"[^"\\\n]{0,1024}\\?"|[^\s"'`,]{0,1024})){0,32})/gi,
    replace: (m, lead = "", list = "") => {
      const redacted = redactAuthParams(list)
      return redacted === undefined || redacted === list ? m : `${lead}${redacted}`
    },
  },
  {
    // Any other scheme (`token`, `Bot`, `SSWS`, …) or none at all; Bearer and Basic have their own rules, and
    // so has a list of parameters (above): its first name is no credential.
    name: "authorization",
    keyword: ["uthorization", "UTHORIZATION"],
    re: /\b((?:proxy-)?authorization["']?[ \t]*[:=][ \t]*["'`]?(?:(?!bearer\b|basic\b)[a-z][\w-]{1,24}[ \t]+)?)([^\s"'`]{8,4096})/gi,
    replace: (m, lead = "", value = "", offset, text) =>
      isSecretHeaderValue(value) && !isAuthParamList(lead, value, String(text).charAt(Number(offset) + m.length))
        ? `${lead}${REDACTED}`
        : m,
  },
  {
    // Credentials inside a URL or connection string: postgres://user:pass@host, https://user:token@host.
    name: "url-credentials",
    keyword: "://",
    // Found from `://`: starting at every word to read a scheme would re-read runs of letters and dots.
    // A password of fewer than four characters is never a secret (isNeverSecret): not matched at all, so a run
    // of `://a:b@` costs no call per hit.
    re: /:\/\/([^\s:/@'"`<>]{0,256}):([^\s@/'"`<>]{4,256})@/g,
    // The same word as user and password (`postgres:postgres@`) is a local default. GitHub's `x-oauth-basic`
    // password says the user is the token (`https://<token>:x-oauth-basic@github.com`).
    replace: (m, user = "", password = "") =>
      user === password || (isNeverSecret(password) && !isTokenAsUser(user, password)) ? m : `://${REDACTED}@`,
  },
  {
    // Signed URLs (S3, GCS, Azure SAS); names such as `token` and `api_key` go through the assignment scan.
    name: "url-signature",
    keyword: ["sig=", "SIG=", "ture=", "TURE=", "oken=", "OKEN="],
    re: /([?&](?:sig|signature|x-amz-signature|x-amz-security-token|x-goog-signature)=)([^&#\s"'<>]{8,4096})/gi,
    replace: (m, lead = "", value = "") => (isNeverSecret(value) ? m : `${lead}${REDACTED}`),
  },
  {
    // .netrc on one line: machine host login user password secret.
    name: "netrc",
    keyword: ["machine", "default"],
    re: /(\b(?:machine[ \t]+\S{1,256}|default)(?:[ \t]+(?:login|account|port)[ \t]+\S{1,256}){0,3}[ \t]+password[ \t]+)()(\S{1,256})/g,
    replace: redactQuoted,
  },
  {
    // .netrc spread over lines: a line that is only `password secret`, in a text that names a machine.
    name: "netrc-lines",
    keyword: "password",
    // The condition itself, not a speed filter: it decides whether a bare `password x` line is a secret.
    requires: "machine",
    re: /^([ \t]*password[ \t]+)()(\S{1,256})(?=[ \t]*$)/gm,
    replace: redactQuoted,
  },
  {
    // `vault operator init` prints its unseal (or recovery) keys as `Unseal Key 1: <base64>`.
    name: "vault-unseal-key",
    keyword: ["Unseal Key", "Recovery Key"],
    re: /\b((?:Unseal|Recovery) Key \d{1,2}:[ \t]*)[A-Za-z0-9+/]{20,100}={0,2}/g,
    replace: redactAfter,
  },
  {
    name: "sql-password",
    // The rule ignores case: every spelling the keyword test could meet.
    keyword: ["IDENTIFIED", "identified", "Identified", "PASSWORD", "password", "Password"],
    re: /(\b(?:identified[ \t]+by|password)[ \t]+)(')([^'\n]{1,256})'/gi,
    replace: redactQuoted,
  },
]
