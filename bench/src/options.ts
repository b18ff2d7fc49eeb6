/** The run's options (command line and environment) and the seeds' sizes. */
import { signAccessToken } from '@campus/core';
import type { Timing } from './ratios';
import type { SeededUser } from './seed';
import { JWT_SECRET } from './support';

export const QUICK = process.argv.includes('--quick');
export const ONLY = process.argv
  .find((a) => a.startsWith('--only='))
  ?.slice(7)
  .split(',');
export const wants = (group: string) => !ONLY || ONLY.includes(group);
export const REUSE = process.env.BENCH_REUSE_DB === '1';
export const POOL_MAX = process.env.BENCH_POOL_MAX ?? '20';

export const scale = QUICK
  ? { users: 1_000, smallPosts: 1_000, largePosts: 20_000, matches: 100, contention: 1_000 }
  : { users: 10_000, smallPosts: 10_000, largePosts: 1_000_000, matches: 1_000, contention: 1_000 };
export const timing: Timing = QUICK
  ? { rounds: 1, seconds: 1, warmup: 1 }
  : { rounds: 3, seconds: 4, warmup: 2 };
export const PASSWORD = 'bench-password-0000';
export const READ_POST = 'Post 5000';
export const MATCH_PLAYERS = 20;
/** BENCH_DB_SUFFIX keeps the databases of parallel runs (several branches on one machine) apart. */
const DB_SUFFIX = process.env.BENCH_DB_SUFFIX ?? '';
export const DB = {
  small: `campus_bench_small${DB_SUFFIX}`,
  large: `campus_bench_large${DB_SUFFIX}`,
};

export const authConfig = {
  jwtSecret: JWT_SECRET,
  accessTokenTtl: 3 * 3600,
  refreshTokenTtl: 3600,
  passwordCost: 17,
};
export const tokenOf = (u: SeededUser) => signAccessToken(authConfig, { ...u, perfil: 'ALUNO' });
