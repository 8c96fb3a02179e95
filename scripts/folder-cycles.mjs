#!/usr/bin/env node
// Lists the pairs of folders inside a lib that import each other (a two-way dependency), so that a
// lib built as one-way slices (docs/ci.md "Code layout") stays that way.
//
//   node scripts/folder-cycles.mjs ci            one lib: every pair, with the importing files; exit 1 if any
//   node scripts/folder-cycles.mjs --all         every lib under libs/: one line per lib with its count
//   node scripts/folder-cycles.mjs --check       every lib: silent when none has a pair, else the pairs; exit 1 (npm run lint)
//
// A folder is the first path segment under libs/<lib>/src/; the files directly in src/ (index.ts,
// the module, ...) count as the folder "(root)". Relative imports of every .ts file are read,
// tests included (import/export ... from, import(), require(), jest.mock()).
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
// LIBS_DIR: another tree of libs (the script's own test builds one).
const libsDir = process.env.LIBS_DIR ?? join(root, 'libs');

function tsFiles(dir) {
  const out = [];
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) out.push(...tsFiles(path));
    else if (name.endsWith('.ts')) out.push(path);
  }
  return out;
}

const IMPORT = /(?:\bfrom\s*|\bimport\s*\(\s*|\brequire\s*\(\s*|\bjest\.mock\s*\(\s*|^\s*import\s+)['"](\.{1,2}\/[^'"]*)['"]/gm;

function folderOf(src, path) {
  const rel = relative(src, path);
  if (rel.startsWith('..')) return null;
  const parts = rel.split(sep);
  // `../entities` names the folder (its index.ts), not a file of the root.
  if (parts.length === 1 && !statSync(path, { throwIfNoEntry: false })?.isDirectory()) return '(root)';
  return parts[0];
}

/** Map "a -> b" to the list of files in a that import something in b. */
export function folderEdges(lib) {
  const src = join(libsDir, lib, 'src');
  const edges = new Map();
  for (const file of tsFiles(src)) {
    const from = folderOf(src, file);
    const text = readFileSync(file, 'utf8');
    for (const match of text.matchAll(IMPORT)) {
      const to = folderOf(src, resolve(dirname(file), match[1]));
      if (to === null || to === from) continue;
      const key = `${from} -> ${to}`;
      if (!edges.has(key)) edges.set(key, new Set());
      edges.get(key).add(relative(src, file));
    }
  }
  return edges;
}

/** The pairs [a, b] (a < b) where a imports b and b imports a. */
export function folderCycles(lib) {
  const edges = folderEdges(lib);
  const pairs = [];
  for (const key of edges.keys()) {
    const [a, b] = key.split(' -> ');
    if (a < b && edges.has(`${b} -> ${a}`)) pairs.push({ a, b, ab: [...edges.get(key)], ba: [...edges.get(`${b} -> ${a}`)] });
  }
  return pairs.sort((x, y) => `${x.a} ${x.b}`.localeCompare(`${y.a} ${y.b}`));
}

const args = process.argv.slice(2);
if (args.length === 0 || args.includes('--help')) {
  console.log('usage: node scripts/folder-cycles.mjs <lib>... | --all | --check');
  process.exit(args.length === 0 ? 2 : 0);
}
if (args.includes('--all')) {
  let total = 0;
  for (const lib of readdirSync(libsDir).sort()) {
    if (!statSync(join(libsDir, lib, 'src'), { throwIfNoEntry: false })?.isDirectory()) continue;
    const count = folderCycles(lib).length;
    total += count;
    console.log(`${lib.padEnd(20)} ${count}`);
  }
  console.log(`${'total'.padEnd(20)} ${total}`);
  process.exit(0);
}
const libs = () =>
  readdirSync(libsDir)
    .filter((lib) => statSync(join(libsDir, lib, 'src'), { throwIfNoEntry: false })?.isDirectory())
    .sort();
const checked = args.includes('--check') ? libs().filter((lib) => folderCycles(lib).length > 0) : args;
let found = 0;
for (const lib of checked) {
  const pairs = folderCycles(lib);
  found += pairs.length;
  console.log(`libs/${lib}: ${pairs.length} folder pair(s) importing each other`);
  for (const { a, b, ab, ba } of pairs) {
    console.log(`  ${a} <-> ${b}`);
    console.log(`    ${a} -> ${b}: ${ab.join(', ')}`);
    console.log(`    ${b} -> ${a}: ${ba.join(', ')}`);
  }
}
process.exit(found > 0 ? 1 : 0);
