// Vendors' published token formats, each whole: a token rule's match that fills one is redacted as it stands.

/**
 * For each token rule (by name) whose vendor publishes the token's whole shape, that shape anchored: its prefix,
 * its length, its alphabet. A rule's own regex is often looser (a range of lengths, so a token cut or run on is
 * still seen); only a match that fills the published shape exactly is taken as it stands. Rules without an entry
 * have no published length (OpenAI's `sk-` keys, Vault's, Vercel's, PyPI's macaroons), no prefix of their own
 * (Mailgun's hex triplets, Discord's bot tokens), or a prefix too short to say much alone (`s.`, `EAA`): their
 * matches still pass the stand-in test of `redactToken`.
 */
export const PUBLISHED_FORMATS: ReadonlyMap<string, RegExp> = new Map([
  // GitHub's token formats: a prefix and 36 characters; fine-grained ones 22 and 59 after `github_pat_`.
  ["github", /^gh[pousr]_[A-Za-z0-9]{36}$/],
  ["github-pat", /^github_pat_[A-Za-z0-9]{22}_[A-Za-z0-9]{59}$/],
  // GitLab's fixed kinds (the routable and agent tokens vary in length).
  [
    "gitlab",
    /^gl(?:(?:pat|dt|rt|ft|soat|ffct)-[\w-]{20}|cbt-[0-9a-f]{1,5}_[\w-]{20}|ptt-[0-9a-f]{40}|imt-[\w-]{25}|oas-[\w-]{64})$/,
  ],
  ["gitlab-runner-registration", /^GR1348941[\w-]{20}$/],
  ["sk-key", /^sk-ant-(?:api|admin)\d\d-[A-Za-z0-9_-]{93}AA$/],
  ["groq", /^gsk_[A-Za-z0-9]{52}$/],
  ["xai", /^xai-[A-Za-z0-9]{80}$/],
  ["perplexity", /^pplx-[A-Za-z0-9]{48}$/],
  ["replicate", /^r8_[A-Za-z0-9]{37}$/],
  ["huggingface", /^hf_[A-Za-z]{34}$/],
  ["huggingface-org", /^api_org_[A-Za-z]{34}$/],
  ["slack", /^xox(?:b-\d{10,13}-\d{10,13}-[A-Za-z0-9]{24}|p-\d{10,13}-\d{10,13}-\d{10,13}-[a-f0-9]{32})$/],
  ["slack-app", /^xapp-\d-A[A-Z0-9]{8,12}-\d{10,13}-[a-f0-9]{64}$/],
  ["slack-webhook", /^hooks\.slack\.com\/services\/T[A-Z0-9]{8,10}\/B[A-Z0-9]{8,10}\/[A-Za-z0-9]{24}$/],
  ["telegram-bot", /^\d{5,16}:A[A-Za-z0-9_-]{34}$/],
  // Stripe: 24 characters after the prefix in older keys, 99 in today's.
  ["stripe", /^(?:sk|rk)_(?:live|test|prod)_(?:[A-Za-z0-9]{24}|[A-Za-z0-9]{99})$/],
  ["stripe-webhook", /^whsec_[A-Za-z0-9]{32}$/],
  ["shopify", /^shp(?:at|ca|pa|ss)_[a-fA-F0-9]{32}$/],
  ["sendgrid", /^SG\.[A-Za-z0-9_-]{22}\.[A-Za-z0-9_-]{43}$/],
  ["twilio", /^(?:SK|AC)(?:[0-9a-fA-F]{32}|x{32})$/],
  ["mailgun", /^(?:pub)?key-[a-f0-9]{32}$/],
  ["google-api", /^AIza[0-9A-Za-z_-]{35}$/],
  ["google-oauth-secret", /^GOCSPX-[A-Za-z0-9_-]{28}$/],
  ["aws-key-id", /^(?:AKIA|ASIA|ABIA|ACCA|A3T[A-Z0-9])[A-Z0-9]{16}$/],
  ["digitalocean", /^do[oprst]_v1_[a-f0-9]{64}$/],
  ["heroku", /^HRKU-AA[0-9A-Za-z_-]{58}$/],
  ["databricks", /^d(?:api|ose)[a-fA-F0-9]{32}(?:-\d)?$/],
  ["terraform-cloud", /^[A-Za-z0-9]{14}\.atlasv1\.[A-Za-z0-9_=-]{67}$/],
  ["grafana-service-account", /^glsa_[A-Za-z0-9]{32}_[A-Fa-f0-9]{8}$/],
  ["linear", /^lin_(?:api_[A-Za-z0-9]{40}|oauth_[a-f0-9]{64})$/],
  ["notion", /^ntn_\d{11}[A-Za-z0-9]{35}$/],
  [
    "1password-secret-key",
    /^A3-[A-Z0-9]{6}-(?:[A-Z0-9]{11}|[A-Z0-9]{6}-[A-Z0-9]{5})-[A-Z0-9]{5}-[A-Z0-9]{5}-[A-Z0-9]{5}$/,
  ],
  ["sourcegraph", /^sgp_(?:[a-fA-F0-9]{16}_|local_)?[a-fA-F0-9]{40}$/],
  ["npm", /^npm_[A-Za-z0-9]{36}$/],
  ["supabase", /^sbp_[a-f0-9]{40}$/],
  ["postman", /^PMAK-[a-f0-9]{24}-[a-f0-9]{34}$/],
  ["sentry", /^sntryu_[a-f0-9]{64}$/],
  ["newrelic", /^NRAK-[A-Za-z0-9]{27}$/],
  ["doppler", /^dp\.(?:pt|st|sa|ct|scim|audit)\.[A-Za-z0-9]{43}$/],
  ["sonarqube", /^sq[pau]_[a-fA-F0-9]{40}$/],
  ["square", /^sq0(?:atp-[\w-]{22}|csp-[\w-]{43})$/],
  ["cloudflare", /^cf(?:ut|at|k)_[A-Za-z0-9]{40}[a-f0-9]{8}$/],
  ["docker-hub", /^dckr_pat_[\w-]{27}$/],
  ["fly", /^fo1_[\w-]{43}$/],
  ["age", /^AGE-SECRET-KEY-1[0-9A-Z]{58}$/],
  // The further vendors of vendors.ts whose formats are a prefix and a fixed length.
  ["adobe", /^p8e-[A-Za-z0-9]{32}$/],
  ["airtable", /^pat[A-Za-z0-9]{14}\.[a-f0-9]{64}$/],
  ["alibaba", /^LTAI[A-Za-z0-9]{20}$/],
  ["artifactory", /^(?:AKCp[A-Za-z0-9]{69}|cmVmdGtu[A-Za-z0-9]{56})$/],
  ["clojars", /^CLOJARS_[a-z0-9]{60}$/i],
  ["cloudflare-origin-ca", /^v1\.0-[a-f0-9]{24}-[a-f0-9]{146}$/],
  ["defined-networking", /^dnkey-[a-z0-9=_-]{26}-[a-z0-9=_-]{52}$/i],
  ["duffel", /^duffel_(?:test|live)_[A-Za-z0-9_=-]{43}$/],
  ["dynatrace", /^dt0c01\.[A-Za-z0-9]{24}\.[A-Za-z0-9]{64}$/],
  ["easypost", /^EZ[AT]K[A-Za-z0-9]{54}$/],
  ["frameio", /^fio-u-[A-Za-z0-9_=-]{64}$/],
  ["harness", /^(?:pat|sat)\.[A-Za-z0-9_-]{22}\.[A-Za-z0-9]{24}\.[A-Za-z0-9]{20}$/],
  ["intra42", /^s-s4t2(?:ud|af)-[a-f0-9]{64}$/],
  ["lob", /^(?:live|test)_(?:pub_[a-f0-9]{31}|[a-f0-9]{35})$/],
  ["openshift", /^sha256~[A-Za-z0-9_-]{43}$/],
  ["plaid", /^access-(?:sandbox|development|production)-[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/],
  ["openrouter", /^sk-or-v1-[a-f0-9]{64}$/],
  ["prefect", /^pnu_[A-Za-z0-9]{36}$/],
  ["pulumi", /^pul-[a-f0-9]{40}$/],
  ["readme", /^rdme_[a-z0-9]{70}$/],
  ["rubygems", /^rubygems_[a-f0-9]{48}$/],
  ["scalingo", /^tk-us-[A-Za-z0-9_-]{48}$/],
  ["sendinblue", /^xkeysib-[a-f0-9]{64}-[A-Za-z0-9]{16}$/],
  ["settlemint", /^sm_(?:aat|pat|sat)_[A-Za-z0-9]{16}$/],
  ["shippo", /^shippo_(?:live|test)_[a-f0-9]{40}$/],
  ["typeform", /^tfp_[A-Za-z0-9_.=-]{59}$/],
])

/**
 * Whether a token rule's match fills its vendor's published format exactly. Such a value is redacted even when
 * its body reads as a stand-in or has little entropy (`ghp_` and 36 x's, `AKIAIOSFODNN7EXAMPLE`, `ghp_` and
 * `Ab3` twelve times): a real token may be written so, the judge may be a third party, and a redacted
 * placeholder costs the judge nothing. What is plainly no value never fills a format: an ellipsis or a cut
 * (`ghp_...`, `sk-…`), a name in brackets or braces (`<YOUR_TOKEN>`, `${GITHUB_TOKEN}`), a reference, a prefix
 * alone. A masked display (`ghp_1a2b***`) is kept before this is asked.
 */
export const inPublishedFormat = (rule: string, match: string): boolean =>
  PUBLISHED_FORMATS.get(rule)?.test(match) ?? false
