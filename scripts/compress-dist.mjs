// Precompresses the web build (DESIGN §9): next to every text asset in apps/web/dist (JS, CSS, HTML, SVG,
// JSON) a Brotli `.br` and a gzip `.gz` copy, which the server sends to browsers that accept them.
// Usage: node scripts/compress-dist.mjs [dist folder]
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

const root = resolve(process.argv[2] ?? 'apps/web/dist');
const TEXT = /\.(js|css|html|svg|json|txt|map)$/;

function* files(dir) {
  for (const name of readdirSync(dir)) {
    const file = join(dir, name);
    if (statSync(file).isDirectory()) yield* files(file);
    else if (TEXT.test(name)) yield file;
  }
}

let count = 0;
for (const file of files(root)) {
  const data = readFileSync(file);
  if (data.length < 1024) continue;
  writeFileSync(`${file}.br`, brotliCompressSync(data, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }));
  writeFileSync(`${file}.gz`, gzipSync(data, { level: 9 }));
  count++;
}
console.log(`compress-dist: ${count} files precompressed in ${root}`);
