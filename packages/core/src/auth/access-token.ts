import { createSecretKey, type KeyObject } from 'node:crypto';
import jwt from 'jsonwebtoken';
import { z } from 'zod';
import { unauthorized } from '../errors';
import { PERFIS } from '../common/user-enums';
import { JWT_ISSUER, type AuthConfig } from './config';

const claimsSchema = z.object({
  sub: z.uuid(),
  perfil: z.enum(PERFIS),
  nickname: z.string(),
  iat: z.number(),
  exp: z.number(),
  iss: z.literal(JWT_ISSUER),
  /** The session (refresh-token family) the token was issued in. */
  sid: z.uuid().optional(),
});
export type AccessTokenClaims = z.infer<typeof claimsSchema>;

/**
 * The HMAC key as a KeyObject, made once per configuration: given a string, jsonwebtoken builds a
 * key object on every call (it first tries to parse it as a public key), which was a quarter of
 * the CPU time of an authenticated request.
 */
const keys = new WeakMap<AuthConfig, KeyObject>();
function keyOf(config: AuthConfig): KeyObject {
  let key = keys.get(config);
  if (!key) {
    key = createSecretKey(Buffer.from(config.jwtSecret, 'utf8'));
    keys.set(config, key);
  }
  return key;
}

export function signAccessToken(
  config: AuthConfig,
  user: { id: string; perfil: AccessTokenClaims['perfil']; nickname: string },
  sessionId?: string,
): string {
  const payload = { perfil: user.perfil, nickname: user.nickname };
  return jwt.sign(sessionId ? { ...payload, sid: sessionId } : payload, keyOf(config), {
    algorithm: 'HS256',
    subject: user.id,
    issuer: JWT_ISSUER,
    expiresIn: config.accessTokenTtl,
  });
}

/** Verifies signature (HS256 only), issuer and expiry; throws 401 otherwise. */
export function verifyAccessToken(config: AuthConfig, token: string): AccessTokenClaims {
  let payload: unknown;
  try {
    payload = jwt.verify(token, keyOf(config), { algorithms: ['HS256'], issuer: JWT_ISSUER });
  } catch (error) {
    if (error instanceof jwt.TokenExpiredError)
      throw unauthorized('Token expirado', 'TOKEN_EXPIRED');
    throw unauthorized('Token inválido', 'TOKEN_INVALID');
  }
  const claims = claimsSchema.safeParse(payload);
  if (!claims.success) throw unauthorized('Token inválido', 'TOKEN_INVALID');
  return claims.data;
}
