import { z } from 'zod';
import { LIMITS } from '../common/limits';
import { envelope } from '../common/envelope';
import { usuarioSchema } from '../users/schemas';

/* Photos (docs/contract/media.md). Browser-safe: exported by `@campus/core/schemas`. */

const alt = z
  .string({ error: 'alt must be a string' })
  .max(LIMITS.media.alt.max, `alt must have at most ${LIMITS.media.alt.max} characters`);

/** The text parts of `POST /media` (the `file` part travels beside them, see the host). */
export const uploadMediaInput = z.object({
  alt: alt.optional().describe('A description of the image for screen readers (0-300 characters)'),
});
export type UploadMediaInput = z.infer<typeof uploadMediaInput>;

/** A photo's id in the path (`/media/{id}`). */
export const mediaIdInput = z.object({ id: z.uuid('id must be a UUID') });

/** A photo as a post carries it. */
export const mediaItemSchema = z
  .object({
    id: z.uuid(),
    url: z.string().describe('The image, longest side ≤ 1600 px (WebP, no metadata)'),
    thumbnailUrl: z.string().describe('The same, longest side ≤ 800 px'),
    width: z.number().int().describe("url's image width"),
    height: z.number().int().describe("url's image height"),
    thumbnailWidth: z.number().int().describe("thumbnailUrl's image width (for srcset)"),
    alt: z.string().nullable(),
  })
  .meta({ id: 'MediaItem' });
export type MediaItem = z.infer<typeof mediaItemSchema>;

/** `POST /media`'s answer. */
export const mediaUploadSchema = mediaItemSchema
  .extend({ contentType: z.string(), createdAt: z.iso.datetime() })
  .meta({ id: 'MediaUpload' });
export type MediaUpload = z.infer<typeof mediaUploadSchema>;

/** A post's photos by upload id, in order: 0-4, each once. */
export const mediaIdsInput = z
  .array(z.uuid('mediaIds must hold UUIDs'), { error: 'mediaIds must be an array' })
  .max(LIMITS.media.perPost.max, `mediaIds must hold at most ${LIMITS.media.perPost.max} ids`)
  .refine((ids) => new Set(ids).size === ids.length, 'mediaIds must not repeat an id')
  .describe('Uploads by the caller (POST /media) that no other post uses, in display order');

/** A photo as the database lists it beside its post (`postMediaJson`). */
export interface MediaItemRow {
  id: string;
  key: string;
  width: number;
  height: number;
  thumbWidth: number;
  alt: string | null;
}

/** PUT /autenticacao/usuario-atual/avatar's answer: the account with its new avatar. */
export const usuarioWithAvatarSchema = usuarioSchema
  .extend({ avatarUrl: z.string().nullable().describe('O avatar (quadrado de 256 px)') })
  .meta({ id: 'UsuarioComAvatar' });
export const avatarResponse = envelope(usuarioWithAvatarSchema);
