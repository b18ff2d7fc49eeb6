import { diskStorage } from '@campus/core';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe } from 'vitest';
import { photoBehaviours } from './behaviours';

describe('photos on disk storage', () => {
  photoBehaviours(async () => {
    const directory = mkdtempSync(join(tmpdir(), 'campus-media-test-'));
    return {
      options: { storage: diskStorage(directory) },
      stop: async () => rmSync(directory, { recursive: true, force: true }),
    };
  });
});
