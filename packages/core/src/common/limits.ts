/**
 * Every length and size limit of a field, defined once. The zod schemas (what the API accepts),
 * the drizzle `varchar(n)` columns (what the database stores) and the web's `maxLength`/`min`/`max`
 * (what a form lets one type) all read these numbers; a test in apps/web proves the three agree.
 * Text limits count characters. Browser-safe: exported by `@campus/core/schemas`.
 */
export const LIMITS = {
  user: {
    nome: { max: 120 },
    nickname: { min: 3, max: 30 },
    /** RFC 5321's longest deliverable address. */
    email: { max: 254 },
    senha: { min: 8, max: 128 },
    instituicao: { max: 160 },
    curso: { max: 120 },
    periodo: { max: 40 },
    nacionalidade: { max: 80 },
    /** A UF: two letters. */
    estado: { max: 2 },
    cidade: { max: 100 },
    /** The stored escolaridade code (ENSINO_MEDIO, …). */
    escolaridade: { max: 40 },
    /** A teacher's department (docs/contract/accounts.md). */
    departamento: { min: 1, max: 120 },
  },
  /** Admin's user search text. */
  userSearch: { min: 1, max: 120 },
  refreshToken: { max: 200 },
  post: {
    title: { min: 1, max: 200 },
    content: { max: 10_000 },
    /** Accepted for compatibility in the body; the stored author is a nickname (user.nickname). */
    author: { min: 1, max: 120 },
    /** The name of the post's group, stored from the group (group.name). */
    group: { max: 120 },
    location: { min: 1, max: 200 },
    /** `q` of GET /post. */
    search: { max: 200 },
  },
  comment: { content: { min: 1, max: 2000 } },
  /** Photos (docs/contract/media.md): an upload's description, the photos of one post, sizes. */
  media: {
    alt: { max: 300 },
    perPost: { max: 4 },
    /** An upload's bytes, and its decoded pixels. */
    uploadBytes: { max: 10 * 1024 * 1024 },
    pixels: { max: 40_000_000 },
    /** Uploads one user may make per day. */
    perDay: { max: 100 },
  },
  report: { reason: { min: 1, max: 500 } },
  match: {
    title: { min: 3, max: 120 },
    description: { min: 2, max: 1000 },
    location: { min: 1, max: 200 },
    teamName: { min: 1, max: 50 },
    /** A number of players, not a length. */
    maxPlayers: { min: 2, max: 100 },
    /** A team's score, not a length. */
    score: { min: 0, max: 999 },
  },
  group: {
    name: { min: 3, max: 60 },
    description: { max: 1000 },
    /** One sport's name, and how many a group lists. */
    sport: { min: 1, max: 40 },
    sports: { max: 10 },
  },
  example: { nome: { min: 3, max: 120 }, descricao: { max: 500 } },
  /** The Idempotency-Key header. */
  idempotencyKey: { min: 1, max: 255 },
} as const;
