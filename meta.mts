import { buildSync } from 'esbuild';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
const root = process.cwd();
const { bundleOptions, areas } = await import(join(root, 'infra/area-bundle.ts'));
const area = process.argv[2] ?? 'status';
const routes = areas().get(area);
const out = mkdtempSync(join(tmpdir(), 'meta-'));
const r = buildSync({ ...bundleOptions(area, routes, out), metafile: true, minify: true });
const entry = Object.entries(r.metafile.outputs).find(([k]) => k.endsWith('index.mjs'))!;
const inputs: Record<string, number> = {};
for (const [k, v] of Object.entries(entry[1].inputs)) inputs[k] = (v as any).bytesInOutput;
// the chunks imported statically by the entry
const seen = new Set<string>([entry[0]]); const stack = [entry[0]];
while (stack.length) { const o = r.metafile.outputs[stack.pop()!]; for (const i of o.imports) if (i.kind === "import-statement" && !i.external && r.metafile.outputs[i.path] && !seen.has(i.path)) { seen.add(i.path); stack.push(i.path); } }
for (const p of seen) if (p !== entry[0]) for (const [k, v] of Object.entries(r.metafile.outputs[p].inputs)) inputs[k] = (inputs[k] ?? 0) + (v as any).bytesInOutput;
console.log(JSON.stringify(inputs));
