/**
 * Ordinary code and configuration that holds no secret, in the syntaxes redaction reads: it must come out
 * of redaction unchanged, line for line. Placeholders, references, paths, versions and the names of secrets
 * are here on purpose: they are what a scanner most often mistakes for a secret.
 */

export const CLEAN_CORPUS: ReadonlyArray<readonly [name: string, text: string]> = [
  [
    ".env.example",
    `# Copy to .env and fill in
DATABASE_URL=postgres://localhost:5432/app
DB_PASSWORD=
GITHUB_API_KEY=
NEXT_LINE_STAYS=true
API_KEY=your-api-key-here
SECRET_KEY=changeme
STRIPE_SECRET_KEY=sk_test_...
OPENAI_API_KEY=<your-openai-key>
SESSION_SECRET=...
AUTH_TOKEN=${"$"}{AUTH_TOKEN}
TOKEN_TTL=3600
MAX_TOKENS=4096
PASSWORD_MIN_LENGTH=12
JWT_EXPIRES_IN=15m
API_KEY_HEADER=X-Api-Key
SECRET_KEY_FILE=/run/secrets/secret_key
MYSQL_ROOT_PASSWORD_FILE=/run/secrets/db-password
PWD=/home/app
ENABLE_TOKEN_AUTH=false
`,
  ],
  [
    "docker-compose.yml",
    `services:
  db:
    image: postgres:16
    environment:
      POSTGRES_USER: postgres
      POSTGRES_PASSWORD: postgres
      POSTGRES_PASSWORD_FILE: /run/secrets/db_password
      MYSQL_ROOT_PASSWORD_FILE: /run/secrets/db-password
    secrets:
      - db_password
  app:
    build: .
    environment:
      - DATABASE_PASSWORD=${"$"}{DATABASE_PASSWORD}
      - API_TOKEN=${"$"}{API_TOKEN:?set it in .env}
      - SECRET_KEY_BASE
    env_file: .env
secrets:
  db_password:
    file: ./secrets/db_password.txt
`,
  ],
  [
    "GitHub Actions workflow",
    `name: release
on:
  push:
    tags: ["v*"]
permissions:
  id-token: write
  contents: read
jobs:
  publish:
    runs-on: ubuntu-latest
    services:
      postgres:
        image: postgres:16
        env:
          POSTGRES_PASSWORD: postgres
    steps:
      - uses: actions/checkout@v4
      - uses: actions/setup-node@v4
        with:
          node-version: 22
          registry-url: https://registry.npmjs.org
      - run: npm publish --provenance
        env:
          NODE_AUTH_TOKEN: ${"$"}{{ secrets.NPM_TOKEN }}
      - uses: docker/login-action@v3
        with:
          username: ${"$"}{{ github.actor }}
          password: ${"$"}{{ secrets.GITHUB_TOKEN }}
      - name: Deploy
        env:
          AWS_ACCESS_KEY_ID: ${"$"}{{ secrets.AWS_ACCESS_KEY_ID }}
          AWS_SECRET_ACCESS_KEY: ${"$"}{{ secrets.AWS_SECRET_ACCESS_KEY }}
          token: ${"$"}{{ github.token }}
        run: ./scripts/deploy.sh
      - uses: some/action@v1
        with:
          github-token: ${"$"}{{ secrets.GITHUB_TOKEN }}
          secrets: inherit
`,
  ],
  [
    "Kubernetes deployment",
    `apiVersion: apps/v1
kind: Deployment
metadata:
  name: api
spec:
  template:
    spec:
      containers:
        - name: api
          image: ghcr.io/acme/api:1.4.2
          env:
            - name: DB_PASSWORD
              valueFrom:
                secretKeyRef:
                  name: db-credentials
                  key: password
            - name: API_TOKEN
              valueFrom:
                secretKeyRef: {name: api-secrets, key: token}
            - name: LOG_LEVEL
              value: info
          envFrom:
            - secretRef:
                name: app-secrets
---
apiVersion: v1
kind: ConfigMap
metadata:
  name: settings
data:
  TOKEN_ISSUER: https://auth.example.test/
  PASSWORD_POLICY: strict
`,
  ],
  [
    "sealed secret and external secret",
    `apiVersion: external-secrets.io/v1beta1
kind: ExternalSecret
metadata:
  name: db
spec:
  secretStoreRef:
    name: vault
    kind: ClusterSecretStore
  target:
    name: db-credentials
  data:
    - secretKey: password
      remoteRef:
        key: prod/db/password
`,
  ],
  [
    "Helm values",
    `auth:
  existingSecret: redis-auth
  existingSecretPasswordKey: redis-password
  password: ""
  token: {{ .Values.global.token | quote }}
postgresql:
  auth:
    username: app
    password: "{{ .Values.db.password }}"
    secretKeys:
      adminPasswordKey: postgres-password
      userPasswordKey: password
`,
  ],
  [
    "Terraform",
    `variable "db_password" {
  type      = string
  sensitive = true
}

resource "aws_db_instance" "default" {
  username = "app"
  password = var.db_password
  password_wo = ephemeral.random_password.db.result
}

output "connection" {
  value     = "${"$"}{aws_db_instance.default.password}"
  sensitive = true
}

resource "aws_iam_access_key" "ci" {
  user    = aws_iam_user.ci.name
  pgp_key = "keybase:ci"
}

provider "github" {
  token = var.github_token
}
`,
  ],
  [
    "Django settings",
    `import os
import environ

env = environ.Env()

SECRET_KEY = env('SECRET_KEY',
    default=None)
SECRET_KEY = os.environ["DJANGO_SECRET_KEY"]
DEBUG = env.bool("DEBUG", default=False)
DATABASES = {
    "default": {
        "ENGINE": "django.db.backends.postgresql",
        "PASSWORD": os.environ.get("DB_PASSWORD"),
        "HOST": env("DB_HOST"),
    }
}
AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
]
PASSWORD_HASHERS = ["django.contrib.auth.hashers.Argon2PasswordHasher"]
SESSION_COOKIE_SECURE = True
CSRF_COOKIE_NAME = "csrftoken"
`,
  ],
  [
    "Python code",
    `from getpass import getpass

import jwt
import requests


def login(username: str, password: str) -> str:
    """Exchanges a password for a token."""
    token = jwt.encode({"sub": username}, key=settings.SECRET_KEY, algorithm="HS256")
    password = getpass("Password: ")
    api_key = os.getenv("API_KEY")
    secret = kwargs.pop("secret", None)
    headers = {"Authorization": f"Bearer {token}", "X-API-Key": api_key}
    response = requests.post(url, auth=(username, password), headers=headers, timeout=10)
    token = response.json()["access_token"]
    if not token:
        raise ValueError("missing token")
    return token


class Settings(BaseSettings):
    api_key: str = Field(..., env="API_KEY")
    db_password: SecretStr
    token_url: str = "https://oauth2.example.test/token"
`,
  ],
  [
    "Node config",
    `import { z } from "zod"

export const config = {
  port: Number(process.env.PORT ?? 3000),
  database: {
    host: process.env.DATABASE_HOST,
    password: process.env.DATABASE_PASSWORD,
    user: "app",
  },
  github: { token: process.env.GITHUB_TOKEN!, apiKey: import.meta.env.VITE_API_KEY },
  session: { secret: requireEnv("SESSION_SECRET"), maxAge: 86_400 },
}

const schema = z.object({ password: z.string().min(12), token: z.string().optional() })

export interface Credentials {
  username: string
  password: string
  token?: string
  apiKey: ApiKey
  secret: Buffer
}

export async function login(password: string): Promise<string> {
  const token = await getToken()
  const { accessToken } = await exchange(password)
  localStorage.setItem("token", accessToken)
  return token
}

const TOKEN_KEY = "auth_token"
const API_KEY_HEADER = "x-api-key"
const headers = { Authorization: ${"`"}Bearer ${"$"}{token}${"`"}, "X-Api-Key": apiKey }
`,
  ],
  [
    "regex constants",
    String.raw`export const GITHUB_TOKEN_PATTERN = /gh[pousr]_[A-Za-z0-9]{36}/
export const SLACK_TOKEN_PATTERN = /xox[baprs]-[0-9a-zA-Z-]{10,48}/g
const API_KEY_RE = /^[A-Za-z0-9]{32}$/
password_regex = r"^(?=.*[A-Z])(?=.*\d).{12,}$"
TOKEN_FORMAT = re.compile(r"^glpat-[0-9A-Za-z_-]{20}$")
`,
  ],
  [
    "package.json",
    `{
  "name": "auth-server",
  "version": "2.3.0",
  "dependencies": {
    "pbkdf2-password": "^1.2.1",
    "jsonwebtoken": "^9.0.2",
    "passport": "0.7.0",
    "passport-http-bearer": "~1.0.1",
    "keytar": "7.9.0",
    "secret-handshake": "workspace:*",
    "@auth/core": "npm:@auth/core@0.37.0",
    "csrf-tokens": "latest"
  },
  "scripts": { "token": "node scripts/token.js" }
}
`,
  ],
  [
    "package-lock excerpt",
    `    "node_modules/pbkdf2-password": {
      "version": "1.2.1",
      "resolved": "https://registry.npmjs.org/pbkdf2-password/-/pbkdf2-password-1.2.1.tgz",
      "integrity": "sha512-Q0Wd2FkNtyeDC8N2gVb/6O5hX9xKp7fG3jL4mN5pQ6rS7tU8vW9xY0zA1bC2dE3fG4hI5jK6lM7nO8pQ9rS0tU1vW2xY3zA4bC5dE6fA7==",
      "dependencies": {
        "base64-js": "^1.5.1"
      }
    },
`,
  ],
  [
    "yarn.lock excerpt",
    `pbkdf2-password@^1.2.1:
  version "1.2.1"
  resolved "https://registry.yarnpkg.com/pbkdf2-password/-/pbkdf2-password-1.2.1.tgz#0b9e2f0ae6f0c3bd1a7d8a1e3c07f4d1e9b9d3a2"
  integrity sha512-Q0Wd2FkNtyeDC8N2gVb/6O5hX9xKp7fG3jL4mN5pQ6rS7tU8vW9xY0zA1bC2dE3fG4hI5jK6lM7nO8pQ9rS0tU1vW2xY3zA4bC5dE6fA7==
`,
  ],
  [
    "requirements and Cargo",
    `django-secret-key==1.0.0
keyring>=24.3
python-jose[cryptography]==3.3.0

[dependencies]
secret-service = "3.0"
keyring = { version = "2", features = ["apple-native"] }
jsonwebtoken = "9.3.0"
`,
  ],
  [
    "Go code",
    `package auth

import "os"

var ErrInvalidToken = errors.New("invalid token")

const tokenPrefix = "Bearer "

type Config struct {
	APIKey   string ${"`"}json:"api_key" env:"API_KEY"${"`"}
	Password string ${"`"}yaml:"password"${"`"}
	Token    string
}

func Load() Config {
	token := os.Getenv("TOKEN")
	password := flag.String("password", "", "database password")
	var apiKey string = cfg.APIKey
	secret, err := client.GetSecret(ctx, "prod/api-key")
	return Config{Token: token, Password: *password, APIKey: apiKey}
}
`,
  ],
  [
    "Java and Spring",
    `@Value("${"$"}{api.key}")
private String apiKey;

private static final String TOKEN_HEADER = "Authorization";
private static final String PASSWORD_PARAM = "password";

public String login(HttpServletRequest request) {
    String password = request.getParameter("password");
    String token = jwtService.createToken(user);
    System.setProperty("javax.net.ssl.trustStorePassword", System.getenv("TRUSTSTORE_PASSWORD"));
    return token;
}
`,
  ],
  [
    "application.yml and properties",
    `spring:
  datasource:
    url: jdbc:postgresql://db:5432/app
    username: app
    password: ${"$"}{DB_PASSWORD}
  security:
    oauth2:
      client:
        registration:
          github:
            client-id: ${"$"}{GITHUB_CLIENT_ID}
            client-secret: ${"$"}{GITHUB_CLIENT_SECRET:}

spring.datasource.password=${"$"}{DB_PASSWORD}
jwt.secret=${"$"}{JWT_SECRET}
server.ssl.key-store-password=${"$"}{KEYSTORE_PASSWORD}
server.ssl.key-store=classpath:keystore.p12
`,
  ],
  [
    "C# and appsettings",
    `public class AuthOptions
{
    public string ApiKey { get; set; } = string.Empty;
    public string Password { get; init; }
}

var token = await tokenProvider.GetTokenAsync(cancellationToken);
var password = Environment.GetEnvironmentVariable("DB_PASSWORD");
CancellationToken cancellationToken = default;
[JsonProperty("api_key")]

{
  "ConnectionStrings": {
    "Default": "Server=db;Database=app;Trusted_Connection=True;"
  },
  "Jwt": { "Key": "", "Issuer": "https://auth.example.test" },
  "KeyVault": { "Uri": "https://acme.vault.azure.net/", "SecretName": "db-password" }
}
`,
  ],
  [
    "PHP",
    `<?php
define('DB_PASSWORD', getenv('DB_PASSWORD'));
define('AUTH_KEY', 'put your unique phrase here');
$password = $_POST['password'];
$token = bin2hex(random_bytes(32));
$hashed = password_hash($password, PASSWORD_DEFAULT);
return [
    'password' => Hash::make($request->password),
    'api_key' => env('API_KEY'),
    'secret' => config('services.stripe.secret'),
];
`,
  ],
  [
    "Ruby and Rails",
    `Rails.application.configure do
  config.secret_key_base = Rails.application.credentials.secret_key_base
  config.api_key = ENV.fetch("API_KEY")
end

class User < ApplicationRecord
  has_secure_password
  validates :password, length: { minimum: 12 }
  def token
    @token ||= SecureRandom.hex(20)
  end
end

password: ENV["DB_PASSWORD"]
`,
  ],
  [
    "shell script",
    `#!/usr/bin/env bash
set -euo pipefail
read -rs -p "Password: " PASSWORD
TOKEN=$(cat /run/secrets/token)
export GITHUB_TOKEN="${"$"}{GITHUB_TOKEN:-}"
export API_KEY=$API_KEY
echo "$DOCKER_PASSWORD" | docker login -u "$DOCKER_USER" --password-stdin ghcr.io
docker login -u ci -p "$REGISTRY_PASSWORD" registry.example.test
curl -u "$USER:$API_TOKEN" https://api.example.test/me
mysql -u root -p app < schema.sql
mysql -u root -p"$MYSQL_PASSWORD" app
mkdir -p /tmp/build && docker run -p 8080:80 -u 1000:1000 nginx
ssh -p 2222 deploy@host
kubectl create secret generic db --from-literal=password="$DB_PASSWORD"
`,
  ],
  [
    "Makefile",
    `REGISTRY ?= ghcr.io/acme
TOKEN ?= $(shell cat .token)
API_KEY := $(API_KEY)
SECRETS_DIR ::= ./secrets
deploy:
	TOKEN=$(TOKEN) ./deploy.sh
`,
  ],
  [
    "nginx and Apache",
    `location /api/ {
    proxy_set_header Authorization $http_authorization;
    proxy_pass http://backend;
    auth_basic "Restricted";
    auth_basic_user_file /etc/nginx/.htpasswd;
}
<Directory "/var/www">
    AuthType Basic
    AuthUserFile /etc/apache2/.htpasswd
    Require valid-user
</Directory>
`,
  ],
  [
    "HTML form",
    `<form method="post" action="/login">
  <label for="password">Password</label>
  <input type="password" id="password" name="password" autocomplete="current-password" required>
  <input type="hidden" name="csrf_token" value="{{ csrf_token }}">
  <button type="submit">Sign in</button>
</form>
`,
  ],
  [
    "XML config",
    `<configuration>
  <appSettings>
    <add key="ApiKey" value="" />
    <add key="Password" value="${"$"}(DB_PASSWORD)" />
    <add key="TokenLifetime" value="3600" />
  </appSettings>
  <connectionStrings>
    <add name="Default" connectionString="Server=db;Database=app;Integrated Security=true" />
  </connectionStrings>
  <password>${"$"}{env.DB_PASSWORD}</password>
  <secretName>db-password</secretName>
</configuration>
`,
  ],
  [
    "i18n strings",
    `{
  "password": "Password",
  "password_hint": "At least 12 characters",
  "forgot_password": "Forgot your password?",
  "token_expired": "Your session has expired",
  "api_key": "API key",
  "secret": "Secret",
  "new_password": "New password"
}
`,
  ],
  [
    "JSON schema and OpenAPI",
    `{
  "type": "object",
  "properties": {
    "password": { "type": "string", "format": "password", "minLength": 12 },
    "token": { "type": "string", "description": "The access token" }
  },
  "required": ["password"]
}
components:
  securitySchemes:
    apiKey:
      type: apiKey
      in: header
      name: X-API-Key
    bearerAuth:
      type: http
      scheme: bearer
      bearerFormat: JWT
`,
  ],
  [
    "AWS examples from the docs",
    `[default]
aws_access_key_id = <access-key-id>
aws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY
region = us-east-1
[profile ci]
credential_process = /opt/bin/aws-vault export --format=json ci
role_arn = arn:aws:iam::123456789012:role/ci
`,
  ],
  [
    "placeholders in docs",
    `Set the token: ghp_...
GitLab tokens look like glpat-… or, for triggers, glptt-xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx.
Runner registration: GR1348941<token>, GR1348941…
password = "somefakekey"
api_key = "YOUR_API_KEY"
token: "<token>"
secret: '********'
Authorization: Bearer <token>
Authorization: Bearer ${"$"}TOKEN
curl -H "Authorization: token $GITHUB_TOKEN" https://api.github.com/user
curl https://api.example.test/items?key=value&page=2
Pass ?key=value in the query, or &token=... for the legacy endpoint.
postgres://user:password@localhost:5432/db
mongodb+srv://<username>:<password>@cluster0.example.mongodb.net/
https://${"$"}{GITHUB_USER}:${"$"}{GITHUB_TOKEN}@github.com/acme/repo.git
`,
  ],
  [
    "prose about credentials",
    `## Authentication

Every request needs an API key. Pass it in the X-Api-Key header; the key is shown once.
The token expires after one hour. Rotate the secret with ` +
      "`acme secrets rotate`" +
      `.
A ghp_ prefix marks a personal access token; AKIA marks an AWS key id.
Password: must be at least 12 characters.
Note: the password is never logged. Secret: see the vault.
Basic authentication (RFC 7617) sends the password base64-encoded.
Bearer token authentication is required for every request.
| Name | Type | Description |
|------|------|-------------|
| token | string | The access token |
| password | string | Minimum 12 characters |
`,
  ],
  [
    "SQL",
    `CREATE TABLE users (
  id bigserial PRIMARY KEY,
  email text NOT NULL,
  password_hash text NOT NULL,
  api_key_id uuid REFERENCES api_keys (id)
);
SELECT id, token_type, expires_at FROM tokens WHERE user_id = $1;
ALTER USER app WITH PASSWORD :'db_password';
`,
  ],
  [
    "CI logs",
    `2024-05-01T10:00:00Z INFO token refreshed, expires_in=3600
2024-05-01T10:00:01Z WARN retrying with key rotation (attempt 2/5)
2024-05-01T10:00:02Z INFO cache key=user:42:profile hit
npm notice Publishing to https://registry.npmjs.org/ with tag latest and default access
Run docker/login-action@v3
Logging into ghcr.io...
Login Succeeded!
commit 9fceb02d0ae598e95dc970b74767f19372d61af8 (HEAD -> main)
request 123e4567-e89b-12d3-a456-426614174000 failed with 401 Unauthorized
sha256:e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855
`,
  ],
  [
    "notes about key markers",
    `| where | input | before | after |
|---|---|---|---|
| the BEGIN search ran again for every END | \`-----END PRIVATE KEY-----\` repeated, no BEGIN | 1.7 s | 22 ms |
| a BEGIN with no END | \`-----BEGIN PRIVATE KEY-----\` then a megabyte of text | 0.4 ms | 0.4 ms |

Redaction keeps the text around a lone -----BEGIN OPENSSH PRIVATE KEY----- marker.
`,
  ],
  [
    "TypeScript with keys",
    `const keys = Object.keys(record)
for (const key of keys) map.set(key, record[key])
type Key = keyof typeof TABLE
const cacheKey = ${"`"}${"$"}{userId}:${"$"}{page}${"`"}
const sortKey: "createdAt" | "name" = "createdAt"
const primaryKey = "id"
export const STORAGE_KEY = "app.settings.v2"
<li key={item.id}>{item.label}</li>
const hotkey = "mod+k"
monkey.patch(turkey, { key: "value" })
const passthrough = true
const bypassCache = false
`,
  ],
  [
    "Compose: assignments in quoted values that hold no secret",
    `services:
  web:
    image: nginx:1.27
    environment:
      - "LOG_LEVEL=info"
      - "API_KEY_FILE=/run/secrets/api_key"
      - "DB_PASSWORD=${"$"}{DB_PASSWORD}"
    command: ["sh", "-c", "DB_PASSWORD=$$DB_PASSWORD ./run"]
    env: "TOKEN_TTL=3600"
  worker:
    command: ["worker", "--token", "$(cat /run/secrets/token)", "--password-file", "/run/secrets/db"]
`,
  ],
  [
    "key-event handlers and empty-value checks (TypeScript)",
    `function onKeyDown(event: KeyboardEvent, key: string) {
  if (event.key === "Escape") closeDialog()
  if (event.key == "Enter" && !event.shiftKey) submit()
  if (key === "ArrowDown" || key === "ArrowUp") moveFocus(key)
  if (e.key !== "Backspace") return
  const isSubmitKey = key === "Enter"
  switch (event.key) {
    case "Tab":
      break
  }
}
document.addEventListener("keydown", (e) => {
  if (e.key === "k" && (e.metaKey || e.ctrlKey)) openPalette()
  if (e.code === "KeyS" && e.altKey) save()
})
if (password === "") setError("Enter a password")
if (password !== confirmPassword) setError(t("password.mismatch"))
if (typeof options.password == "string") validate(options.password)
if (secret == null || token === undefined) throw new Error("missing")
if (authMode === "popup") openPopup()
if (tokenType === "Bearer") headers.Authorization = \`Bearer ${"$"}{token}\`
const stored = await keychain.getPassword("app", user)
`,
  ],
  [
    "a lexer's token checks (TypeScript)",
    `while (token.type !== "eof") {
  if (token.type === "string") parts.push(token.value)
  if (token.kind == "Identifier" && token.value === "async") isAsync = true
  if (token === "=>") return parseArrow()
  if (tok.value == "while") return parseWhile()
  if (nextToken === "function" || nextToken === "class") break
  if (token.text == "select") mode = "query"
  if (this.token === "import" || this.token === "export") return this.parseModuleItem()
  if (current.token !== "else") break
  tokens.push(new Token(TokenType.STRING, "while", line))
  expect(lexer.token("if")).toBe(true)
  token = this.next()
}
`,
  ],
  [
    "a tokenizer's token checks (Python)",
    `for token in tokenize(source):
    if token == "(":
        depth += 1
    elif token == "import":
        imports.append(next(tokens))
    elif token == "return" or token == "yield":
        returns += 1
    if tok.type == "NAME" and tok.string == "lambda":
        lambdas += 1
    if self.token == "def":
        self.parse_function()
`,
  ],
  [
    "Spring: the password from a variable, getters, credential calls without literals",
    `@Bean
public DataSource dataSource(@Value("${"$"}{spring.datasource.password}") String password) {
    HikariDataSource ds = new HikariDataSource();
    ds.setJdbcUrl(env.getProperty("spring.datasource.url"));
    ds.setUsername(env.getProperty("spring.datasource.username"));
    ds.setPassword(password);
    ds.setPassword(env.getProperty("spring.datasource.password"));
    ds.setPassword(System.getenv("DB_PASSWORD"));
    ds.setPasswordEncoder(passwordEncoder());
    return ds;
}

public void register(User user, String password, String confirmPassword) {
    if (!password.equals(confirmPassword)) throw new IllegalArgumentException("Passwords differ");
    if (!passwordEncoder.matches(password, user.getPassword())) throw new BadCredentialsException("Bad credentials");
    user.setPassword(passwordEncoder.encode(password));
    String stored = user.getPassword();
    Connection conn = DriverManager.getConnection(url, username, password);
    Connection pooled = dataSource.getConnection();
    PasswordAuthentication auth = new PasswordAuthentication(username, password.toCharArray());
    keyStore.load(in, keyStorePassword.toCharArray());
    Authentication token = new UsernamePasswordAuthenticationToken(principal, null, authorities);
    http.httpBasic(Customizer.withDefaults()).formLogin(form -> form.loginPage("/login").permitAll());
    Assertions.assertThat(user.getPassword()).isNotEqualTo(password);
}
`,
  ],
  [
    "a Python client passing credentials it read from the environment",
    `import os
import smtplib

import requests
from requests.auth import HTTPBasicAuth

user = os.environ["API_USER"]
password = os.environ["API_PASSWORD"]
r = requests.get(url, auth=(user, password), timeout=10)
r = requests.post(url, auth=HTTPBasicAuth(user, password), json=payload)
session.auth = (user, os.getenv("API_TOKEN"))
es = Elasticsearch(hosts, basic_auth=(cfg.user, cfg.password))
with smtplib.SMTP_SSL(host, 465) as server:
    server.login(user, password)
ftp = FTP("ftp.example.test")
ftp.login()
imap.login(cfg["user"], cfg["password"])
stored = keyring.get_password("deploy", user)
keyring.set_password("deploy", user, password)
token = fetch_token(url)
secret = get_secret("db/creds")
if token is None or token == "":
    raise SystemExit("no token")
if hmac.compare_digest(token, expected):
    return True
label = _("Password")
prompt = t("password")
`,
  ],
  [
    "GitLab CI with script blocks",
    `stages: [build, deploy]
variables:
  DOCKER_DRIVER: overlay2
build:
  stage: build
  script: |
    echo "building $CI_COMMIT_SHA"
    docker login -u "$CI_REGISTRY_USER" -p "$CI_REGISTRY_PASSWORD" "$CI_REGISTRY"
    make build
  after_script:
    - echo done
deploy:
  before_script: >-
    apk add --no-cache curl
  script:
    - curl -H "PRIVATE-TOKEN: $API_TOKEN" https://gitlab.example.test/api/v4/projects
`,
  ],
  [
    "GitHub Actions: cache keys and run blocks",
    `jobs:
  build:
    steps:
      - uses: actions/cache@v4
        with:
          path: ~/.npm
          key: ${"$"}{{ runner.os }}-node-${"$"}{{ hashFiles('**/package-lock.json') }}
          restore-keys: |
            ${"$"}{{ runner.os }}-node-
      - name: deploy
        env:
          TOKEN: ${"$"}{{ secrets.DEPLOY_TOKEN }}
        run: |
          echo "token length ${"$"}{#TOKEN}"
          ./deploy.sh --token "$TOKEN"
      - name: notes
        with:
          description: |
            Rotate the token and the password every month.
          key: |
            npm-cache-v1
`,
  ],
  [
    "cloud-init: a public key block under key",
    `apt:
  sources:
    docker.list:
      source: deb [arch=amd64] https://download.docker.com/linux/ubuntu $RELEASE stable
      keyid: 9DC858229FC7DD38854AE2D88D81803C0EBFCD88
      key: |
        -----BEGIN PGP PUBLIC KEY BLOCK-----
        mQINBFit2ioBEADhWpZ8/wvZ6hUTiXOwQHXMAlaFHcPH9hAtr4F1y2+OYdbtMuth
        lqqwp028AqyY+PRfVMtSYMbjuQuu5byyKR01BbqYhuS3jtqQmljZ/bJvXqnmiVXh
        -----END PGP PUBLIC KEY BLOCK-----
`,
  ],
  [
    "release script, passwords from the environment",
    `#!/usr/bin/env bash
set -euo pipefail
echo "${"$"}REGISTRY_TOKEN" | docker login -u "${"$"}REGISTRY_USER" --password-stdin registry.example.test
printf '%s' "${"$"}HELM_PASSWORD" | helm registry login oci.example.test -u ci --password-stdin
aws ecr get-login-password --region eu-west-1 | docker login --username AWS --password-stdin 123456789012.dkr.ecr.eu-west-1.amazonaws.com
oras login registry.example.test -u ci --password-stdin <<< "${"$"}ORAS_TOKEN"
keytool -genkeypair -alias release -keystore release.jks -storepass:env KEYSTORE_PASSWORD -keypass:env KEY_PASSWORD -dname "CN=Release"
jarsigner -keystore release.jks -storepass:file /run/secrets/storepass app.apk release
keytool -list -keystore "${"$"}JAVA_HOME/lib/security/cacerts" -storepass changeit
sqlcmd -S "${"$"}DB_HOST" -U sa -P "${"$"}SA_PASSWORD" -i migrate.sql
bcp dbo.audit out audit.dat -S db -T -c
zip -r artifacts.zip dist/
zip -P "${"$"}ARCHIVE_PASSWORD" -r backup.zip backup/
unzip -o artifacts.zip -d out/
7z a -p"${"$"}ARCHIVE_PASSWORD" -mhe=on backup.7z backup/
7z x -p backup.7z
ssh-keygen -t ed25519 -N "" -f deploy_key -C "ci@example.test"
ssh-keygen -t rsa -b 4096 -N '' -f legacy_key
ssh-keygen -p -f deploy_key -P "${"$"}OLD_PASSPHRASE" -N "${"$"}NEW_PASSPHRASE"
htpasswd -bc /etc/nginx/.htpasswd "${"$"}BASIC_USER" "${"$"}BASIC_PASSWORD"
htpasswd -B -C 12 /etc/nginx/.htpasswd admin
gh secret set DEPLOY_KEY < deploy_key
gh secret set API_TOKEN --body "${"$"}API_TOKEN"
gh pr create --title "Release ${"$"}VERSION" --body "Automated release for the login service"
gh issue create -t "Nightly failed" -b "See run 2024-05-01 for the logs"
git checkout -b release/2024-05
cp -P config/*.yml /etc/app/
grep -P '^\\d+\\.\\d+\\.\\d+$' VERSION
find -P . -name '*.log' -print0 | xargs -0 -P 4 gzip
ls -N --color=never dist
mkdir -p build && docker run -p 8080:80 -d nginx:1.27
mysql -h db -P 3306 -u app -p app < schema.sql
scp -P 2222 backup.7z deploy@backup.example.test:/srv/backups/
`,
  ],
  [
    "Windows batch file",
    `@echo off
net user %SVC_USER% %SVC_PASSWORD% /add
net user backup * /add
net user guest /active:no
net localgroup administrators backup /add
sqlcmd -S %DB_HOST% -U sa -P %SA_PASSWORD% -Q "SELECT name FROM sys.databases"
"C:\\Program Files\\7-Zip\\7z.exe" a -p%ARCHIVE_PASSWORD% backup.7z C:\\backup
rem The ASP.NET user store keeps the accounts.
`,
  ],
  [
    "HTTP log with cookies and challenges",
    `> GET /api/items HTTP/1.1
> Host: app.example.test
> User-Agent: curl/8.5.0
> Accept: */*
> Cookie: _ga=GA1.2.1234567890.1700000000; _gid=GA1.2.987654321.1700000000; theme=dark; lang=en-US
>
< HTTP/1.1 401 Unauthorized
< WWW-Authenticate: Digest realm="api@example.test", qop="auth", algorithm=SHA-256, nonce="Zk3xP9qL2vT8mN4rW7yB1cD6", opaque="Hj5sK8dF2gL9pQ4wE7rT1yU3"
< WWW-Authenticate: Bearer realm="api", error="invalid_token", error_description="The access token expired"
< Proxy-Authenticate: Basic realm="corp-proxy"
< Set-Cookie: theme=dark; Path=/; Max-Age=31536000; SameSite=Lax
< Set-Cookie: sessionid=""; expires=Thu, 01 Jan 1970 00:00:00 GMT; Max-Age=0; Path=/
< Set-Cookie: sid=deleted; Path=/; Expires=Thu, 01 Jan 1970 00:00:00 GMT; HttpOnly
< Set-Cookie: AWSALB=Qm9ZtXr4Lk8Wp2Vn6Hs1Jd5F; Expires=Wed, 21 Oct 2026 07:28:00 GMT; Path=/
< Set-Cookie: __cf_bm=Ty7Uk2Lp9Qw4Er8Zx1Cv5Bn3; path=/; expires=Wed, 21 Oct 2026 07:58:00 GMT; domain=.example.test; HttpOnly; Secure; SameSite=None
< Content-Type: application/json
curl -b cookies.txt -c cookies.txt https://app.example.test/login
`,
  ],
  [
    "session setup in Express",
    `app.use(session({
  name: "sid",
  secret: process.env.SESSION_SECRET,
  resave: false,
  cookie: { httpOnly: true, secure: true, sameSite: "lax", maxAge: 86400000 },
}))
res.cookie("theme", "dark", { maxAge: 31536000 })
res.clearCookie("sid", { path: "/" })
res.append("Set-Cookie", "lang=en; Path=/")
const cookie = req.headers.cookie ?? ""
document.cookie = "lang=en; path=/; max-age=31536000"
document.cookie = ${"`"}session=${"$"}{sessionId}; path=/; secure${"`"}
cookie, err := r.Cookie("session_id")
await context.addCookies([{ name: "theme", value: "dark", url: "https://app.example.test" }])
`,
  ],
  [
    "cookie jar without sessions",
    `# Netscape HTTP Cookie File
# https://curl.se/docs/http-cookies.html
# This file was generated by libcurl! Edit at your own risk.

.example.test\tTRUE\t/\tFALSE\t1798761600\t_ga\tGA1.2.1234567890.1700000000
.example.test\tTRUE\t/\tFALSE\t1798761600\ttheme\tdark
#HttpOnly_app.example.test\tFALSE\t/\tTRUE\t0\tsessionid\tdeleted
`,
  ],
]
