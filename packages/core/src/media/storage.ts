import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { createReadStream } from 'node:fs';
import { mkdir, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Readable } from 'node:stream';

/**
 * Where the re-encoded files live (docs/contract/media.md, Storage): named by the service only
 * (`<key>.webp`, `<key>-t.webp`), never by anything a client sent.
 */
export interface MediaStorage {
  readonly kind: 'disk' | 's3';
  put(name: string, data: Buffer, contentType: string): Promise<void>;
  /** The file's bytes as a stream, or undefined when there is no such file. */
  open(name: string): Promise<Readable | undefined>;
  /** Deletes the files (a missing one is no error). */
  remove(names: readonly string[]): Promise<void>;
}

const isMissing = (error: unknown) => (error as { code?: string }).code === 'ENOENT';

/** Files in one directory (`DATA_DIR/media` by default); a write is a rename, never half a file. */
export function diskStorage(directory: string): MediaStorage {
  const ready = mkdir(directory, { recursive: true });
  return {
    kind: 'disk',
    async put(name, data) {
      await ready;
      const partial = join(directory, `.${name}.${randomBytes(6).toString('hex')}`);
      await writeFile(partial, data);
      await rename(partial, join(directory, name));
    },
    async open(name) {
      // fs's own stream (as express.static's): a FileHandle's stream awaits a promise per read.
      const stream = createReadStream(join(directory, name));
      try {
        await once(stream, 'open');
        return stream;
      } catch (error) {
        stream.destroy();
        if (isMissing(error)) return undefined;
        throw error;
      }
    },
    async remove(names) {
      await Promise.all(names.map((name) => rm(join(directory, name), { force: true })));
    },
  };
}
