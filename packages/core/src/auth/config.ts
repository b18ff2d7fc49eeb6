/** What the auth service needs from the server's configuration. */
export interface AuthConfig {
  jwtSecret: string;
  /** Access token lifetime, seconds. */
  accessTokenTtl: number;
  /** Refresh token lifetime, seconds. */
  refreshTokenTtl: number;
  /** log2 of scrypt's N for new password hashes. */
  passwordCost: number;
}

export const JWT_ISSUER = 'campus-api';
