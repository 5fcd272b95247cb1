/**
 * compose.yaml, the balancer's config (deploy/haproxy.cfg) and Prometheus's (deploy/prometheus.yml), checked
 * without a Docker engine (none runs here): parsed, then held to what docs/operations.md promises. Two app
 * services built from our Dockerfile on PostgreSQL and Redis, the apps reachable through the balancer only,
 * every service with a health check (the apps through the image's HEALTHCHECK), the balancer's servers and
 * Prometheus's targets the app services, and no secret in the repository: passwords, the cookie secret and the
 * metrics token come from the environment (or a git-ignored .env), and compose refuses to start without them.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { parse } from 'yaml';
import { ROOT } from '../../support/root.ts';

const read = (file: string) => readFileSync(path.join(ROOT, file), 'utf8');

interface Service {
  build?: string | { context: string };
  secrets?: string[];
  image?: string;
  environment?: Record<string, string>;
  ports?: string[];
  volumes?: string[];
  depends_on?: Record<string, { condition: string }>;
  healthcheck?: { test: string[] | string };
  command?: string[];
}

const compose = parse(read('compose.yaml'), { merge: true }) as {
  services: Record<string, Service>;
  secrets?: Record<string, { environment?: string; file?: string }>;
};
const { services } = compose;
const APPS = ['app1', 'app2'];
const REQUIRED = /^\$\{[A-Z_]+:\?[^}]+\}$/; // ${NAME:?message}: compose refuses to start without it

/** Every string in the file with the key path it sits under. */
function strings(value: unknown, at: string[] = []): { at: string[]; value: string }[] {
  if (typeof value === 'string') return [{ at, value }];
  if (Array.isArray(value)) return value.flatMap((v, i) => strings(v, [...at, String(i)]));
  if (value && typeof value === 'object') return Object.entries(value).flatMap(([k, v]) => strings(v, [...at, k]));
  return [];
}

describe('compose.yaml', () => {
  test('two apps built from our Dockerfile, PostgreSQL, Redis and a balancer', () => {
    expect(Object.keys(services).sort()).toEqual(['app1', 'app2', 'balancer', 'postgres', 'prometheus', 'redis']);
    for (const name of APPS) {
      expect(services[name]!.build).toBe('.');
      expect(existsSync(path.join(ROOT, 'Dockerfile'))).toBe(true);
    }
    expect(services.postgres!.image).toMatch(/^postgres:\d+/);
    expect(services.redis!.image).toMatch(/^redis:\d+/);
    expect(services.balancer!.image).toMatch(/^haproxy:\d/);
    expect(services.prometheus!.image).toMatch(/^prom\/prometheus:v\d+\.\d+\.\d+$/); // a pinned version
  });

  test('the apps are wired to PostgreSQL, Redis and one cookie secret, and trust the private network only', () => {
    for (const name of APPS) {
      const env = services[name]!.environment!;
      const url = new URL(env.DATABASE_URL!.replace(/\$\{[^}]+\}/, 'PASSWORD'));
      expect(url.protocol).toBe('postgres:');
      expect(url.hostname).toBe('postgres');
      expect(url.username).toBe(services.postgres!.environment!.POSTGRES_USER);
      expect(url.pathname).toBe(`/${services.postgres!.environment!.POSTGRES_DB}`);
      expect(env.DATABASE_URL).toContain('${POSTGRES_PASSWORD:?'); // the same password as the database's
      expect(env.REDIS_URL).toBe('redis://redis:6379');
      expect(env.COOKIE_SECRET).toMatch(REQUIRED);
      expect(env.TRUST_PROXY).toBe('uniquelocal');
      expect(env.METRICS_TOKEN).toMatch(REQUIRED);
      expect(services[name]!.depends_on?.postgres?.condition).toBe('service_healthy');
      expect(services[name]!.depends_on?.redis).toBeDefined();
      expect(services[name]!.ports).toBeUndefined(); // reachable through the balancer only
    }
    expect(services.app1!.environment).toEqual(services.app2!.environment);
  });

  test('every service has a health check; the balancer waits for healthy apps', () => {
    for (const name of ['postgres', 'redis', 'balancer', 'prometheus'])
      expect(services[name]!.healthcheck?.test).toBeDefined();
    expect(String(services.prometheus!.healthcheck!.test)).toContain('/-/healthy');
    expect(String(services.postgres!.healthcheck!.test)).toContain('pg_isready');
    expect(String(services.redis!.healthcheck!.test)).toContain('ping');
    expect(read('Dockerfile')).toMatch(/^HEALTHCHECK [\s\S]*?\/healthz/m); // the apps' check comes with the image
    for (const name of APPS) expect(services.balancer!.depends_on?.[name]?.condition).toBe('service_healthy');
  });

  test('the balancer alone publishes a port to others, and its config balances over the two apps', () => {
    expect(services.balancer!.ports).toEqual(['${BALANCER_PORT:-8080}:8080']);
    expect(services.prometheus!.ports).toEqual(['127.0.0.1:${PROMETHEUS_PORT:-9090}:9090']); // this host only
    for (const name of ['postgres', 'redis']) expect(services[name]!.ports).toBeUndefined();
    const mount = services.balancer!.volumes!.find((v) => v.endsWith(':/usr/local/etc/haproxy/haproxy.cfg:ro'));
    expect(mount).toBeDefined();
    const config = read(mount!.split(':')[0]!);
    expect(config).toMatch(/^\s*bind :8080$/m);
    expect(config).toMatch(/^\s*balance roundrobin$/m);
    expect(config).toMatch(/^\s*option httpchk GET \/healthz$/m);
    expect(config).toMatch(/monitor-uri \/balancer-health/);
    expect(String(services.balancer!.healthcheck!.test)).toContain('/balancer-health');
    const servers = [...config.matchAll(/^\s*server (\S+) (\S+) check$/gm)].map((m) => [m[1], m[2]]);
    expect(servers).toEqual(APPS.map((name) => [name, `${name}:3000`]));
  });

  test('Prometheus scrapes /metrics of every app with the token, which it reads from a secret', () => {
    const prometheus = services.prometheus!;
    const mount = prometheus.volumes!.find((v) => v.endsWith(':/etc/prometheus/prometheus.yml:ro'));
    expect(mount).toBeDefined();
    expect(prometheus.command).toContain('--config.file=/etc/prometheus/prometheus.yml');
    const config = parse(read(mount!.split(':')[0]!)) as {
      global: { scrape_interval: string; scrape_timeout: string };
      scrape_configs: {
        job_name: string;
        metrics_path?: string;
        authorization?: { type: string; credentials_file?: string; credentials?: string };
        static_configs: { targets: string[] }[];
      }[];
    };
    const job = config.scrape_configs.find((c) => c.job_name === 'mahjong');
    expect(job).toBeDefined();
    expect(job!.metrics_path).toBe('/metrics');
    // Each process directly (the balancer would give another one each time), the same list as the balancer's.
    expect(job!.static_configs.flatMap((c) => c.targets)).toEqual(APPS.map((name) => `${name}:3000`));
    // The token: a file from a compose secret whose source is the apps' own METRICS_TOKEN.
    expect(job!.authorization).toEqual({ type: 'Bearer', credentials_file: '/run/secrets/metrics_token' });
    expect(prometheus.secrets).toEqual(['metrics_token']);
    expect(compose.secrets?.metrics_token).toEqual({ environment: 'METRICS_TOKEN' });
    for (const name of APPS) expect(services[name]!.environment!.METRICS_TOKEN).toContain('${METRICS_TOKEN:?');
    // A scrape must end before the next one starts.
    const seconds = (text: string): number => Number(/^(\d+)s$/.exec(text)![1]);
    expect(seconds(config.global.scrape_timeout)).toBeLessThan(seconds(config.global.scrape_interval));
  });

  test('the balancer settings a rolling restart needs (docs/operations.md, "Rolling restart")', () => {
    const config = read('deploy/haproxy.cfg')
      .split('\n')
      .map((line) => line.replace(/\s+#.*$/, ''))
      .filter((line) => !/^\s*#/.test(line))
      .join('\n'); // the settings, without the comments that explain them
    const setting = (name: string) => new RegExp(`^\\s*${name}(?:\\s|$)`, 'm');
    // Out within the apps' drain (DRAIN_MS, 5 s): inter + (fall - 1) × fastinter = 2.5 s.
    const server = /^\s*default-server (.*)$/m.exec(config)?.[1] ?? '';
    expect(server).toMatch(/\binter 2s\b/);
    expect(server).toMatch(/\bfastinter 500ms\b/);
    expect(server).toMatch(/\bdowninter 1s\b/);
    expect(server).toMatch(/\bfall 2\b/);
    expect(server).toMatch(/\brise 2\b/);
    expect(config).not.toMatch(/shutdown-sessions/); // requests on an app taken out finish there
    expect(config).toMatch(setting('retries 2'));
    expect(config).toMatch(setting('option redispatch 1'));
    expect(config).toMatch(setting('retry-on conn-failure empty-response'));
    // Every app out: the balancer's own 503, with Retry-After, in the API's shape for /api/.
    const own = [...config.matchAll(/^\s*http-request return status 503 (.*) if (.*)$/gm)];
    expect(own).toHaveLength(2);
    for (const [, answer, condition] of own) {
      expect(answer).toMatch(/hdr retry-after 2/);
      expect(condition).toMatch(/\{ nbsrv\(app\) eq 0 \}/);
    }
    const json = /string '(\{.*\})'/.exec(own[0]![1]!)?.[1];
    expect(JSON.parse(json!)).toMatchObject({ code: 'ERR_UNAVAILABLE' });
    expect(own[0]![2]).toMatch(/path_beg \/api\//);
  });

  test('no secret is committed: passwords and secrets are required variables, .env is ignored', () => {
    for (const { at, value } of strings(compose)) {
      const key = at.at(-1) ?? '';
      if (/PASSWORD|SECRET|TOKEN|KEY/i.test(key)) expect(value, at.join('.')).toMatch(REQUIRED);
      // A URL with a password carries it as a variable, never written out.
      const auth = /^[a-z]+:\/\/[^:@/]+:([^@]+)@/.exec(value);
      if (auth) expect(auth[1], at.join('.')).toMatch(REQUIRED);
    }
    expect(read('.gitignore')).toMatch(/^\.env\*?$/m);
    expect(read('.dockerignore')).toMatch(/^\.env\*$/m);
  });
});
