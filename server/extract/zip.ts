// Reading OOXML packages (zip), bounded: a part is inflated by zlib with a cap on its output,
// so reading stops once a part passes MAX_PART_BYTES or the parts read pass MAX_TOTAL_BYTES,
// whatever the zip's directory declares: a zip bomb ends as a reason, never as an exhausted
// heap.

import { inflateRawSync } from 'node:zlib';

export const MAX_PART_BYTES = 64 * 1024 * 1024;
export const MAX_TOTAL_BYTES = 256 * 1024 * 1024;

export class ZipError extends Error {}

export interface ZipEntry {
  name: string;
  method: number;
  flags: number;
  compressedSize: number;
  size: number;
  localOffset: number;
}

function u16(b: Uint8Array, o: number): number {
  return b[o]! | (b[o + 1]! << 8);
}
function u32(b: Uint8Array, o: number): number {
  return (b[o]! | (b[o + 1]! << 8) | (b[o + 2]! << 16)) + b[o + 3]! * 0x1000000;
}

const utf8 = new TextDecoder('utf-8');
const latin1 = new TextDecoder('latin1');

/** The central directory's entries; throws ZipError when the file is not a whole zip. */
export function zipEntries(data: Uint8Array): Map<string, ZipEntry> {
  let eocd = -1;
  const stop = Math.max(0, data.length - 65557);
  for (let i = data.length - 22; i >= stop; i--) {
    if (data[i] === 0x50 && data[i + 1] === 0x4b && data[i + 2] === 0x05 && data[i + 3] === 0x06) {
      eocd = i;
      break;
    }
  }
  if (eocd < 0)
    throw new ZipError('the file is incomplete or damaged (its zip directory is missing)');
  const count = u16(data, eocd + 10);
  const cdOffset = u32(data, eocd + 16);
  if (cdOffset === 0xffffffff || count === 0xffff)
    throw new ZipError('the file is too large to read');
  const entries = new Map<string, ZipEntry>();
  let p = cdOffset;
  for (let i = 0; i < count; i++) {
    if (p + 46 > data.length || u32(data, p) !== 0x02014b50) {
      throw new ZipError('the file is incomplete or damaged (its zip directory is broken)');
    }
    const flags = u16(data, p + 8);
    const nameLen = u16(data, p + 28);
    const nameBytes = data.subarray(p + 46, p + 46 + nameLen);
    const name = (flags & 0x800 ? utf8 : latin1).decode(nameBytes);
    entries.set(name, {
      name,
      flags,
      method: u16(data, p + 10),
      compressedSize: u32(data, p + 20),
      size: u32(data, p + 24),
      localOffset: u32(data, p + 42),
    });
    p += 46 + nameLen + u16(data, p + 30) + u16(data, p + 32);
  }
  return entries;
}

/** A package's parts read on demand, with the decompressed bytes counted against the limits. */
export class ZipReader {
  readonly entries: Map<string, ZipEntry>;
  private total = 0;
  constructor(private readonly data: Uint8Array) {
    this.entries = zipEntries(data);
  }

  has(name: string): boolean {
    return this.entries.has(name);
  }

  bytes(name: string): Uint8Array | undefined {
    const e = this.entries.get(name);
    if (!e) return undefined;
    if (e.flags & 1) throw new ZipError('the file is password-protected');
    // What the directory declares is refused at once; a part that declares less than it holds
    // is stopped while inflating, below.
    if (e.size > MAX_PART_BYTES)
      throw new ZipError('the file expands to more than 64 MB of content (a zip bomb?)');
    const d = this.data;
    const lo = e.localOffset;
    if (lo + 30 > d.length || u32(d, lo) !== 0x04034b50)
      throw new ZipError('the file is incomplete or damaged');
    const start = lo + 30 + u16(d, lo + 26) + u16(d, lo + 28);
    const end = start + e.compressedSize;
    if (end > d.length) throw new ZipError('the file is incomplete or damaged (it was cut short)');
    const raw = d.subarray(start, end);
    if (e.method === 0) {
      this.count(raw.length);
      return raw;
    }
    if (e.method !== 8)
      throw new ZipError(`the file uses a compression this reader does not know (${e.method})`);
    // Native inflate, stopped by zlib itself once the part passes the bound.
    const bound = Math.min(MAX_PART_BYTES, MAX_TOTAL_BYTES - this.total);
    let out: Buffer;
    try {
      out = inflateRawSync(raw, { maxOutputLength: bound + 1 });
    } catch (err) {
      if ((err as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE' || err instanceof RangeError) {
        throw new ZipError(
          bound < MAX_PART_BYTES
            ? 'the file expands to more than 256 MB of content (a zip bomb?)'
            : 'the file expands to more than 64 MB of content (a zip bomb?)',
        );
      }
      throw new ZipError('the file is damaged (a part cannot be decompressed)');
    }
    if (out.length > bound)
      throw new ZipError('the file expands to more than 64 MB of content (a zip bomb?)');
    this.count(out.length);
    return new Uint8Array(out.buffer, out.byteOffset, out.length);
  }

  text(name: string): string | undefined {
    const b = this.bytes(name);
    return b === undefined ? undefined : utf8.decode(b);
  }

  private count(n: number): void {
    this.total += n;
    if (this.total > MAX_TOTAL_BYTES) {
      throw new ZipError('the file expands to more than 256 MB of content (a zip bomb?)');
    }
  }
}
