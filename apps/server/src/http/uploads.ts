import { LIMITS, type ReceivedUpload } from '@campus/core';
import busboy from 'busboy';
import type { Request, RequestHandler } from 'express';
import { randomBytes } from 'node:crypto';
import { createWriteStream, mkdirSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

declare module 'node:http' {
  interface IncomingMessage {
    /** An upload route's `file` part, as received (set by `receiveUpload`). */
    upload?: ReceivedUpload;
  }
}

/** Room for the multipart framing and the `alt` part beside the 10 MB of the image. */
const FRAMING_BYTES = 64 * 1024;
const uploadDir = join(tmpdir(), 'campus-uploads');
mkdirSync(uploadDir, { recursive: true });

/**
 * Upload routes (docs/contract/media.md): a `multipart/form-data` body is parsed by busboy as it
 * arrives. The `file` part streams to a temporary file (deleted when the answer is sent), never
 * into memory; at 10 MB (or a declared length beyond it) reading stops and the connection closes
 * after the 413. The text parts become the call's input: `req.body` as an object (REST) or as
 * JSON text with a JSON type (/trpc, so that tRPC reads it as any call's input; a logo's group
 * comes as an `id` part there).
 */
export function receiveUpload(isUploadRoute: (req: Request) => boolean): RequestHandler {
  return function receiveMultipart(req, res, next) {
    if (!isUploadRoute(req) || !req.is('multipart/form-data')) return next();
    const fields: Record<string, string> = {};
    let done = false;
    const finish = (upload: ReceivedUpload) => {
      if (done) return;
      done = true;
      req.upload = upload;
      if (upload.status === 'too-large') {
        // Not a byte more is read: the answer closes the connection.
        req.unpipe();
        res.setHeader('Connection', 'close');
      }
      const trpc = req.baseUrl.toLowerCase() === '/trpc';
      if (trpc) req.headers['content-type'] = 'application/json';
      req.body = trpc ? JSON.stringify(fields) : { ...fields };
      next();
    };
    if (Number(req.headers['content-length']) > LIMITS.media.uploadBytes.max + FRAMING_BYTES)
      return finish({ status: 'too-large' });
    let parser: busboy.Busboy;
    try {
      parser = busboy({
        headers: req.headers,
        limits: { fileSize: LIMITS.media.uploadBytes.max, files: 1, fields: 4, fieldSize: 4096 },
      });
    } catch {
      return finish({ status: 'missing' }); // no boundary: no part can be read
    }
    let file: Promise<ReceivedUpload> = Promise.resolve({ status: 'missing' });
    parser.on('field', (name, value) => {
      // `id`: the group of a logo over /trpc (REST has it in the path).
      if (name === 'alt' || name === 'id') fields[name] = value;
    });
    parser.on('file', (name, stream) => {
      if (name !== 'file') return void stream.resume();
      const path = join(uploadDir, randomBytes(12).toString('hex'));
      res.on('close', () => void rm(path, { force: true }));
      let bytes = 0;
      const out = createWriteStream(path);
      stream.on('data', (chunk: Buffer) => (bytes += chunk.length));
      stream.on('limit', () => {
        stream.unpipe();
        out.destroy();
        finish({ status: 'too-large' });
      });
      file = new Promise<ReceivedUpload>((resolve, reject) => {
        out.on('error', reject);
        out.on('finish', () => resolve({ status: 'file', path, bytes }));
        stream.pipe(out);
      });
      // After a 413 the file is given up (its write may fail): the answer is on its way already.
      file.catch(() => {});
    });
    parser.on('close', () => {
      file.then(finish, (error: unknown) => done || next(error));
    });
    parser.on('error', () => finish({ status: 'missing' }));
    req.pipe(parser);
  };
}
