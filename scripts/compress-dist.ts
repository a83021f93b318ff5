// Precompresses the built app for server/static.ts: writes `<file>.br` (brotli, best) and
// `<file>.gz` (gzip, best) beside each text asset of the build, so the server sends them as
// they are, with no compression work per request. Run after `vite build` (npm run build);
// takes the build directory as its argument (default dist). A variant that would not be
// smaller than its file (a tiny file) is not written, and the server then sends the file.
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { extname, join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import { COMPRESSIBLE } from '../server/static';

const brotli = promisify(brotliCompress);
const gz = promisify(gzip);

const filesUnder = async (dir: string) => {
  const entries = await readdir(dir, { withFileTypes: true, recursive: true });
  return entries
    .filter((e) => e.isFile() && COMPRESSIBLE.has(extname(e.name).toLowerCase()))
    .map((e) => join(e.parentPath, e.name));
};

const compress = async (file: string) => {
  const body = await readFile(file);
  const variants: Array<[string, Buffer]> = [
    [
      '.br',
      await brotli(body, {
        params: {
          [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
          [constants.BROTLI_PARAM_SIZE_HINT]: body.length,
        },
      }),
    ],
    ['.gz', await gz(body, { level: constants.Z_BEST_COMPRESSION })],
  ];
  for (const [suffix, data] of variants) {
    if (data.length < body.length) await writeFile(file + suffix, data);
  }
  return body.length;
};

const dir = resolve(process.argv[2] ?? 'dist');
const files = await filesUnder(dir);
let before = 0;
for (const file of files) before += await compress(file);
console.log(
  `compress-dist: ${files.length} files (${Math.round(before / 1024)} KiB) in ${dir} precompressed (.br, .gz)`,
);
