import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * deploy/Dockerfile without a container engine (this machine has none running): its stages'
 * instructions read from the file and carried out as written, each stage in a folder of its own
 * standing for its file system, over the build context of the committed tree (`git archive HEAD`,
 * what a clone would send). The image's command is then started with the image's environment, and
 * its HEALTHCHECK command run against it. What this cannot prove: the base image itself, and the
 * user switch (USER is read and checked, not taken on).
 */

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const DOCKERFILE = join(ROOT, 'deploy/Dockerfile');

interface Instruction {
  op: string;
  args: string;
}
interface Stage {
  name: string | undefined;
  instructions: Instruction[];
}

/** The Dockerfile's stages: comments dropped, continued lines joined. */
function stagesOf(text: string): Stage[] {
  const lines = text
    .replace(/\\\n/g, ' ')
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line && !line.startsWith('#'));
  const stages: Stage[] = [];
  for (const line of lines) {
    const [, op, args] = /^(\S+)\s+(.*)$/.exec(line)!;
    if (op === 'FROM') stages.push({ name: /\sAS\s+(\S+)$/i.exec(args!)?.[1], instructions: [] });
    else stages.at(-1)!.instructions.push({ op: op!, args: args! });
  }
  return stages;
}

/** `a b c` or `["a", "b"]`, as Docker reads COPY sources and CMD. */
const words = (args: string): string[] => (args.startsWith('[') ? (JSON.parse(args) as string[]) : args.split(/\s+/));

interface Built {
  root: string;
  workdir: string;
  env: Record<string, string>;
  user: string | undefined;
  cmd: string[];
  healthcheck: string[];
}

/** Carries out one stage; `roots` holds the stages already built, by name. */
function build(stage: Stage, context: string, roots: Map<string, string>, into: string): Built {
  const root = mkdtempSync(join(into, `${stage.name ?? 'image'}-`));
  const built: Built = { root, workdir: root, env: {}, user: undefined, cmd: [], healthcheck: [] };
  for (const { op, args } of stage.instructions) {
    switch (op) {
      case 'WORKDIR':
        built.workdir = join(root, args);
        mkdirSync(built.workdir, { recursive: true });
        break;
      case 'COPY': {
        const from = /^--from=(\S+)\s+/.exec(args);
        const paths = words(from ? args.slice(from[0].length) : args);
        const target = paths.pop()!;
        const base = from ? roots.get(from[1]!)! : context;
        for (const source of paths) {
          const to = target.endsWith('/') ? join(built.workdir, target, basename(source)) : join(built.workdir, target);
          cpSync(join(base, source), to, { recursive: true }); // an absolute path is inside the stage's root
        }
        break;
      }
      case 'RUN': {
        const ran = spawnSync('sh', ['-c', args], { cwd: built.workdir, env: { ...process.env, ...built.env }, encoding: 'utf8' });
        expect(ran.status, `RUN ${args}\n${ran.stdout}\n${ran.stderr}`).toBe(0);
        break;
      }
      case 'ENV':
        for (const pair of args.split(/\s+/)) built.env[pair.slice(0, pair.indexOf('='))] = pair.slice(pair.indexOf('=') + 1);
        break;
      case 'USER':
        built.user = args;
        break;
      case 'CMD':
        built.cmd = words(args);
        break;
      case 'HEALTHCHECK':
        built.healthcheck = words(args.slice(args.indexOf('CMD ') + 4));
        break;
    }
  }
  if (stage.name) roots.set(stage.name, root);
  return built;
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

const healthcheck = (image: Built, env: Record<string, string>) =>
  spawnSync(image.healthcheck[0]!, image.healthcheck.slice(1), {
    cwd: image.workdir,
    env: { PATH: process.env.PATH, ...env },
    timeout: 10_000,
  });

describe('the container image as the Dockerfile declares it', () => {
  const text = readFileSync(DOCKERFILE, 'utf8');

  it('is built on one pinned release of a maintained Node LTS, in every stage', () => {
    const bases = [...text.matchAll(/^FROM (\S+)/gm)].map((m) => m[1]!);
    expect(bases).toHaveLength(3);
    expect(new Set(bases).size).toBe(1);
    const [, major] = /^node:(\d+)\.\d+\.\d+-bookworm-slim$/.exec(bases[0]!) ?? [];
    // Even majors are the LTS lines; 20 reached its end of life in April 2026.
    expect(Number(major) % 2).toBe(0);
    expect(Number(major)).toBeGreaterThanOrEqual(22);
    const { engines } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { engines: { node: string } };
    expect(Number(major)).toBeGreaterThanOrEqual(Number(/\d+/.exec(engines.node)![0]));
  });

  it('carries the OCI labels, its version the package’s, and writes JSON log lines', () => {
    const labels = Object.fromEntries(
      [...text.replace(/\\\n/g, ' ').matchAll(/(org\.opencontainers\.image\.[a-z.]+)="([^"]*)"/g)].map((m) => [m[1]!, m[2]!]),
    );
    const { version } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string };
    expect(labels).toMatchObject({ 'org.opencontainers.image.title': 'v1gate', 'org.opencontainers.image.version': version });
    expect(labels['org.opencontainers.image.base.name']).toContain(/^FROM (\S+)/m.exec(text)![1]!);
    expect(text).toMatch(/^ENV .*\bLOG_FORMAT=json\b/m);
  });
});

describe('the container image, its stages carried out as the Dockerfile writes them', () => {
  let image: Built;
  let gateway: ChildProcess | undefined;
  let output = '';
  let env: Record<string, string>;
  let into: string;

  beforeAll(() => {
    into = mkdtempSync(join(tmpdir(), 'v1gate-image-'));
    const context = join(into, 'context');
    mkdirSync(context);
    const archive = spawnSync('sh', ['-c', `git archive HEAD | tar -x -C "${context}"`], { cwd: ROOT, encoding: 'utf8' });
    expect(archive.status, archive.stderr).toBe(0);
    const roots = new Map<string, string>();
    const stages = stagesOf(readFileSync(DOCKERFILE, 'utf8'));
    expect(stages.map((s) => s.name)).toEqual(['build', 'deps', undefined]);
    for (const stage of stages) image = build(stage, context, roots, into);
  }, 600_000);

  afterAll(() => {
    if (gateway?.exitCode === null) gateway.kill('SIGKILL');
    // Two installs of node_modules: hundreds of megabytes a run.
    rmSync(into, { recursive: true, force: true });
  });

  it('holds only the compiled JS, the production dependencies and package.json, and runs as a user that is not root', () => {
    expect(readdirSync(image.workdir).sort()).toEqual(['dist', 'node_modules', 'package.json']);
    const modules = readdirSync(join(image.workdir, 'node_modules'));
    for (const production of ['hono', 'pino', 'ioredis', 'undici', 'zod']) expect(modules, production).toContain(production);
    for (const dev of ['vitest', 'typescript', 'tsx', 'eslint', 'kubernetes-models']) expect(modules, dev).not.toContain(dev);
    expect(existsSync(join(image.workdir, 'dist/src/main.js'))).toBe(true);
    // The offline SDK's browser script, which tsc does not copy, is beside its compiled module.
    expect(existsSync(join(image.workdir, 'dist/src/sandbox/sdk/meeting-sdk.js'))).toBe(true);
    expect(image.user).toBeDefined();
    expect(['root', '0']).not.toContain(image.user);
  });

  it(
    'starts with its command and environment, and its HEALTHCHECK passes; it fails once the gateway is gone',
    { timeout: 120_000 },
    async () => {
      // The image's environment; this machine's free port, and loopback for what it serves here.
      env = { ...image.env, PORT: String(await freePort()), HOST: '127.0.0.1', LOG_LEVEL: 'warn' };
      expect(image.env).toMatchObject({ NODE_ENV: 'production', PORT: '8080' });
      gateway = spawn(image.cmd[0]!, image.cmd.slice(1), { cwd: image.workdir, env: { PATH: process.env.PATH, ...env } });
      gateway.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
      gateway.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
      for (let waited = 0; waited < 60_000 && !output.includes('v1gate listening on'); waited += 100) {
        expect(gateway.exitCode, output).toBeNull();
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      expect(output).toContain(`v1gate listening on http://127.0.0.1:${env.PORT}/v1`);
      expect(healthcheck(image, env).status).toBe(0);

      const exited = new Promise<number | null>((resolve) => gateway!.once('exit', resolve));
      gateway.kill('SIGTERM'); // STOPSIGNAL
      expect(await exited).toBe(0);
      expect(output).toMatch(/v1gate stopped/);
      expect(healthcheck(image, env).status).toBe(1);
    },
  );
});
