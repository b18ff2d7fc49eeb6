/**
 * Where the time of a CPU profile goes: self and inclusive time by function and by package.
 *
 *   node --cpu-prof --cpu-prof-dir=bench/results/profiles apps/server/dist/main.js   (then SIGTERM)
 *   cd bench && npx tsx src/profile.ts results/profiles/<file>.cpuprofile [top=30] [filter] [--requests=N]
 *
 * (`BENCH_CPU_PROF=1 pnpm bench -- --only=post` runs the main server that way.) Inclusive time
 * counts a function once per sample even when it recurses. "Package" is the npm package of the
 * frame's file, `server` for the bundle, `node:` for Node's internals, `(gc)`, `(idle)`, …
 */
import { readFileSync } from 'node:fs';

interface Node {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
interface Profile {
  nodes: Node[];
  samples: number[];
  timeDeltas: number[];
}

function packageOf(url: string, name: string): string {
  if (!url) return name.startsWith('(') ? name : '(native)';
  if (url.startsWith('node:')) return 'node:';
  const match = /node_modules\/(?:\.pnpm\/[^/]+\/node_modules\/)?((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (match) return match[1]!;
  if (url.includes('/dist/main.js')) return 'server (bundle)';
  return url.replace(/^file:\/\//, '');
}

const args = process.argv.slice(2);
const requests = Number(args.find((a) => a.startsWith('--requests='))?.slice(11) ?? 0);
const [file, topArg, filter] = args.filter((a) => !a.startsWith('--'));
if (!file) {
  console.error('usage: tsx src/profile.ts <file.cpuprofile> [top] [filter]');
  process.exit(1);
}
const top = Number(topArg ?? 30);
const profile = JSON.parse(readFileSync(file, 'utf8')) as Profile;
const byId = new Map(profile.nodes.map((n) => [n.id, n]));
const parent = new Map<number, number>();
for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);

const self = new Map<number, number>();
profile.samples.forEach((id, i) =>
  self.set(id, (self.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0)),
);
const total = [...self.values()].reduce((a, b) => a + b, 0);

const fnKey = (n: Node) => {
  const { functionName, url, lineNumber } = n.callFrame;
  const where = url ? `${url.split('/').slice(-2).join('/')}:${lineNumber + 1}` : '';
  return `${functionName || '(anonymous)'} ${where} [${packageOf(url, functionName)}]`;
};

const fnSelf = new Map<string, number>();
const fnIncl = new Map<string, number>();
const pkgSelf = new Map<string, number>();
const pkgIncl = new Map<string, number>();
for (const [id, time] of self) {
  const node = byId.get(id)!;
  fnSelf.set(fnKey(node), (fnSelf.get(fnKey(node)) ?? 0) + time);
  const pkg = packageOf(node.callFrame.url, node.callFrame.functionName);
  pkgSelf.set(pkg, (pkgSelf.get(pkg) ?? 0) + time);
  // Walk to the root, counting each function and package once per sample.
  const seenFn = new Set<string>();
  const seenPkg = new Set<string>();
  for (let cur: number | undefined = id; cur !== undefined; cur = parent.get(cur)) {
    const n = byId.get(cur)!;
    const key = fnKey(n);
    if (!seenFn.has(key)) {
      seenFn.add(key);
      fnIncl.set(key, (fnIncl.get(key) ?? 0) + time);
    }
    const p = packageOf(n.callFrame.url, n.callFrame.functionName);
    if (!seenPkg.has(p)) {
      seenPkg.add(p);
      pkgIncl.set(p, (pkgIncl.get(p) ?? 0) + time);
    }
  }
}

// With --requests=N: µs per request (what each part costs a request) instead of % of the samples.
const pct = (t: number) =>
  requests
    ? `${(t / requests).toFixed(1).padStart(7)} µs`
    : `${((100 * t) / total).toFixed(1).padStart(5)}%`;
function print(title: string, map: Map<string, number>, n: number) {
  console.log(`\n## ${title}`);
  [...map]
    .filter(([k]) => !filter || k.includes(filter))
    .sort((a, b) => b[1] - a[1])
    .slice(0, n)
    .forEach(([k, t]) => console.log(`${pct(t)}  ${k}`));
}
const idle = pkgSelf.get('(idle)') ?? 0;
console.log(
  `${file}: ${(total / 1e6).toFixed(1)} s sampled, ${((total - idle) / 1e6).toFixed(1)} s busy` +
    (requests ? `, ${((total - idle) / requests).toFixed(0)} µs busy per request` : ''),
);
print('self time by package', pkgSelf, 20);
print('inclusive time by package', pkgIncl, 20);
print('self time by function', fnSelf, top);
print('inclusive time by function', fnIncl, top);
