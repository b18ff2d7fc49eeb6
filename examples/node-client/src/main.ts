/*
 * A small program using @campus/client as any TypeScript project outside the repository would:
 * CAMPUS_URL=http://localhost:3000 CAMPUS_EMAIL=… CAMPUS_PASSWORD=… npm start
 * It reads public lists, signs in, posts, watches the post live while liking it, and reads the
 * post back over REST. Any step that does not go as expected ends it with exit code 1.
 */
import {
  createClient,
  errorDataOf,
  reasonOf,
  type Post,
  type RouterInputs,
  type Usuario,
} from '@campus/client';
import { createRestClient } from '@campus/client/rest';

const url = process.env.CAMPUS_URL ?? 'http://localhost:3000';
const email = process.env.CAMPUS_EMAIL ?? 'admin@campus.dev';
const senha = process.env.CAMPUS_PASSWORD ?? 'change-me-now';

// A stream that never delivers must not keep the program waiting forever.
setTimeout(() => {
  console.error('example: timed out');
  process.exit(1);
}, 60_000).unref();

function check(condition: boolean, what: string): asserts condition {
  if (!condition) throw new Error(`example: ${what}`);
  console.log(`ok: ${what}`);
}

// Public calls made together travel in one batch.
const anonymous = createClient({ url });
const [estados, sports] = await Promise.all([
  anonymous.localities.estados.query(),
  anonymous.matches.sports.query(),
]);
check(
  estados.dados.some((uf) => uf.sigla === 'SP'),
  'localities.estados lists SP',
);
check(sports.data.length > 0, 'matches.sports lists the sports');

const { dados: session } = await anonymous.auth.login.mutate({ email, senha });
let token = session.accessToken;
const client = createClient({ url, getToken: () => token });
const me: Usuario = (await client.auth.me.query()).dados;
check(me.email === email, 'auth.me answers the signed-in account');

const draft: RouterInputs['feed']['create'] = {
  title: 'Typed from outside the repository',
  type: 'GENERAL',
  content: 'Sent by examples/node-client.',
  author: me.nickname,
  authorId: me.id,
};
const post: Post = await client.feed.create.mutate(draft, {
  context: { idempotencyKey: `example-${Date.now()}` },
});
check(post.title === draft.title, 'feed.create answers the new post');

// A live stream of the post: the counters as they are, then each change.
const likes = await new Promise<number>((resolve, reject) => {
  const seen: number[] = [];
  const subscription = client.streams.post.subscribe(
    { id: post.id },
    {
      onData(event) {
        if (event.kind !== 'post') return;
        seen.push(event.counters.likesCount);
        if (seen.length === 1) client.feed.like.mutate({ id: post.id }).catch(reject);
        else {
          subscription.unsubscribe();
          resolve(event.counters.likesCount);
        }
      },
      onError: reject,
    },
  );
});
check(likes === 1, 'streams.post delivers the like live');

const again = await client.feed.like.mutate({ id: post.id }).catch((error: unknown) => error);
check(reasonOf(again) === 'ALREADY_LIKED', 'a second like is refused with reason ALREADY_LIKED');

const page = await client.feed.list.query({ page: 1, limit: 5 });
check(
  page.data.some((item) => item.id === post.id),
  'feed.list({ page: 1, limit: 5 }) has the post',
);

const refused = await client.feed.list
  .query({
    // @ts-expect-error a count is a number: the compiler refuses text, and so does the server
    limit: 'three',
  })
  .then(() => undefined, errorDataOf);
check(refused?.httpStatus === 400, "feed.list({ limit: 'three' }) is refused with 400");

const rest = createRestClient({ url, getToken: () => token });
const { data: read, response } = await rest.GET('/post/{id}', {
  params: { path: { id: post.id } },
});
check(response.status === 200 && read?.likesCount === 1, 'REST GET /post/{id} reads the like');

token = '';
const { response: anonymousRead } = await rest.GET('/autenticacao/usuario-atual');
check(anonymousRead.status === 401, 'without a token, REST GET /autenticacao/usuario-atual is 401');

console.log('example: every step passed');
