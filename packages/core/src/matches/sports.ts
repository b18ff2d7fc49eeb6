import { precompute } from '../students/precomputed';
import { SPORT_NAMES, type SportList } from './schemas';
import { SPORTS } from './enums';

/** `GET /match/sports`, computed once: served from memory with an ETag like the other static lists. */
export const sportsList = precompute<SportList>({
  data: SPORTS.map((code) => ({ code, name: SPORT_NAMES[code] })),
});
