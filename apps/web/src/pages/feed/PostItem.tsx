import { LinkedText } from '../../components/LinkedText';
import { Avatar } from '../../components/media/Avatar';
import { PostPhotos } from '../../components/media/PostPhotos';
import { EventTime, RelativeTime } from '../../components/Times';
import { plural } from '../../lib/format';
import { Link } from '../../lib/router';
import type { RouterOutputs } from '../../lib/trpc';
import { PostActions } from './PostActions';

type PostSummary = RouterOutputs['feed']['list']['data'][number];

/** Who a post is by: its group (✓ when verified) when posted in a group's name, and the author. */
export function Byline({
  post,
}: {
  post: Pick<PostSummary, 'author' | 'group' | 'groupId' | 'groupVerified'>;
}) {
  return (
    <>
      {post.group && post.groupId ? (
        <>
          <Link to={`/grupos/${post.groupId}`}>{post.group}</Link>
          {post.groupVerified ? <span aria-label="verificado"> ✓</span> : null} ·{' '}
        </>
      ) : null}
      por @{post.author}
    </>
  );
}

export function EventLine({
  post,
}: {
  post: Pick<PostSummary, 'type' | 'eventDate' | 'eventFinishDate' | 'location'>;
}) {
  if (post.type !== 'EVENT' || !post.eventDate) return null;
  return (
    <p className="event-line">
      <span className="badge">Evento</span> <EventTime iso={post.eventDate} />
      {post.eventFinishDate ? (
        <>
          {' até '}
          <EventTime iso={post.eventFinishDate} />
        </>
      ) : null}
      {post.location ? ` · ${post.location}` : ''}
    </p>
  );
}

/** A post in a list: a card with its title, byline, excerpt, counters and actions. */
export function PostItem({ post }: { post: PostSummary }) {
  const excerpt =
    post.content && post.content.length > 280 ? `${post.content.slice(0, 280)}…` : post.content;
  return (
    <li>
      <article className="card post-item">
        <h3>
          <Link to={`/feed/${post.id}`}>{post.title}</Link>
          {post.hidden ? <span className="badge"> Oculto pela moderação</span> : null}
        </h3>
        <p className="meta">
          <Avatar url={post.authorAvatarUrl} name={post.author} size={24} /> <Byline post={post} />{' '}
          · <RelativeTime iso={post.createdAt} />
        </p>
        <EventLine post={post} />
        <PostPhotos media={post.media} />
        {excerpt ? (
          <p className="content">
            <LinkedText text={excerpt} />
          </p>
        ) : null}
        <p className="counts">
          {plural(post.likesCount, 'curtida', 'curtidas')} ·{' '}
          {plural(post.commentsCount, 'comentário', 'comentários')}
          {post.type === 'EVENT'
            ? ` · ${plural(post.attendancesCount, 'presença', 'presenças')}`
            : ''}
        </p>
        <PostActions post={post} />
      </article>
    </li>
  );
}
