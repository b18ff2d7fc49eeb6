import { LIMITS } from '@campus/core/schemas';
import { ErrorMessage } from '../../components/Alert';
import { Field } from '../../components/Field';
import { FormActions } from '../../components/FormActions';
import { useFormValues, useSubmit } from '../../components/useForm';
import { sameNames } from '../../lib/errors';
import { fromLocalInput, toLocalInput } from '../../lib/format';
import type { RouterOutputs } from '../../lib/trpc';
import { useSession } from '../../session/SessionProvider';
import { ManagedGroupField } from './ManagedGroupField';
import { PhotoPicker, type ChosenPhoto } from '../../components/media/PhotoPicker';
import { useState } from 'react';

type Post = RouterOutputs['feed']['get'];
export type PostType = Post['type'];

/** What the form hands over: the fields of a post as the API takes them. */
export interface PostFields {
  title: string;
  content: string | null;
  type: PostType;
  eventDate: string | null;
  eventFinishDate: string | null;
  location: string | null;
  /** The group to post in the name of (its OWNER or ADMIN only); null: the author alone. */
  groupId: string | null;
  /** Photos chosen in the composer (a new post only), sent when it is published. */
  photos?: ChosenPhoto[];
}

const FIELDS = sameNames(
  'title',
  'content',
  'type',
  'eventDate',
  'eventFinishDate',
  'location',
  'groupId',
);

export function initialPostValues(post?: Post) {
  return {
    title: post?.title ?? '',
    content: post?.content ?? '',
    type: (post?.type ?? 'GENERAL') as string,
    eventDate: toLocalInput(post?.eventDate),
    eventFinishDate: toLocalInput(post?.eventFinishDate),
    location: post?.location ?? '',
    groupId: post?.groupId ?? '',
  };
}

/** Form values → API fields: a GENERAL post has no event fields; empty optional text is null. */
export function toPostFields(values: ReturnType<typeof initialPostValues>): PostFields {
  const event = values.type === 'EVENT';
  return {
    title: values.title,
    content: values.content.trim() ? values.content : null,
    type: event ? 'EVENT' : 'GENERAL',
    eventDate: event ? (fromLocalInput(values.eventDate) ?? null) : null,
    eventFinishDate: event ? (fromLocalInput(values.eventFinishDate) ?? null) : null,
    location: event && values.location.trim() ? values.location : null,
    groupId: values.groupId || null,
  };
}

interface PostFormProps {
  post?: Post;
  submitLabel: string;
  onSubmit: (fields: PostFields) => Promise<unknown>;
  onCancel?: () => void;
}

/** Create or edit a post or an event; the API's field errors show beside the fields. */
export function PostForm({ post, submitLabel, onSubmit, onCancel }: PostFormProps) {
  const form = useFormValues(initialPostValues(post));
  const { user } = useSession();
  const { errors, message, busy, formRef, handle } = useSubmit(FIELDS);
  const isEvent = form.values.type === 'EVENT';
  const [photos, setPhotos] = useState<ChosenPhoto[]>([]);
  const submit = handle(async () => {
    await onSubmit(post ? toPostFields(form.values) : { ...toPostFields(form.values), photos });
    if (!post) {
      form.reset();
      setPhotos([]);
    }
  });

  return (
    <form ref={formRef} onSubmit={submit} noValidate className="stack">
      <ErrorMessage>{message}</ErrorMessage>
      <Field label="Título" name="title" error={errors.title} required>
        {(c) => <input {...c} {...form.bind('title')} maxLength={LIMITS.post.title.max} required />}
      </Field>
      <Field label="Texto" name="content" error={errors.content}>
        {(c) => (
          <textarea {...c} {...form.bind('content')} rows={4} maxLength={LIMITS.post.content.max} />
        )}
      </Field>
      <ManagedGroupField
        label="Publicar como"
        none={`@${user?.nickname} (você)`}
        current={post ? { id: post.groupId, name: post.group } : undefined}
        error={errors.groupId}
        control={form.bind('groupId')}
      />
      <Field label="Tipo" name="type" error={errors.type}>
        {(c) => (
          <select {...c} {...form.bind('type')}>
            <option value="GENERAL">Publicação</option>
            <option value="EVENT">Evento</option>
          </select>
        )}
      </Field>
      {isEvent ? (
        <fieldset>
          <legend>Evento</legend>
          <Field label="Início" name="eventDate" error={errors.eventDate} required>
            {(c) => <input {...c} {...form.bind('eventDate')} type="datetime-local" required />}
          </Field>
          <Field label="Término" name="eventFinishDate" error={errors.eventFinishDate}>
            {(c) => <input {...c} {...form.bind('eventFinishDate')} type="datetime-local" />}
          </Field>
          <Field label="Local" name="location" error={errors.location} required>
            {(c) => (
              <input
                {...c}
                {...form.bind('location')}
                maxLength={LIMITS.post.location.max}
                required
              />
            )}
          </Field>
        </fieldset>
      ) : null}
      {post ? null : <PhotoPicker photos={photos} onChange={setPhotos} />}
      <FormActions busy={busy} submitLabel={submitLabel} {...(onCancel ? { onCancel } : {})} />
    </form>
  );
}
