import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { LIMITS } from '@campus/core/schemas';
import { ErrorMessage } from '../../components/Alert';
import { Page } from '../../components/Page';
import { PagedList } from '../../components/PagedList';
import { formMessage } from '../../lib/errors';
import { plural } from '../../lib/format';
import { Link, navigate, pageFrom, useLocation } from '../../lib/router';
import { useTRPC, type RouterInputs, type RouterOutputs } from '../../lib/trpc';
import { Avatar } from '../../components/media/Avatar';
import { GROUP_TYPE_LABELS } from './labels';

type GroupItem = RouterOutputs['groups']['list']['data'][number];
type GroupType = NonNullable<RouterInputs['groups']['list']['groupType']>;
const TYPES = Object.keys(GROUP_TYPE_LABELS) as GroupType[];

export function VerifiedBadge({ verified }: { verified: boolean }) {
  return verified ? <span className="badge badge--verified">Verificado</span> : null;
}

function GroupCard({ group }: { group: GroupItem }) {
  return (
    <li>
      <article className="card group-item">
        <h3>
          <Avatar url={group.logoUrl} name={group.name} size={32} />{' '}
          <Link to={`/grupos/${group.id}`}>{group.name}</Link>{' '}
          <VerifiedBadge verified={group.verified} />
        </h3>
        <p className="meta">
          {GROUP_TYPE_LABELS[group.groupType]}
          {group.sports.length ? ` · ${group.sports.join(', ')}` : ''}
        </p>
        <p className="counts">
          {plural(group.membersCount, 'membro', 'membros')} ·{' '}
          {plural(group.followersCount, 'seguidor', 'seguidores')}
        </p>
      </article>
    </li>
  );
}

function CreateGroup() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const create = useMutation(trpc.groups.create.mutationOptions());
  const [name, setName] = useState('');
  const [groupType, setGroupType] = useState<GroupType>('ATHLETIC');
  const [description, setDescription] = useState('');
  const [sports, setSports] = useState('');

  async function submit(event: FormEvent) {
    event.preventDefault();
    const group = await create.mutateAsync({
      name,
      groupType,
      description: description.trim() || null,
      sports: sports
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean),
    });
    await queryClient.invalidateQueries({ queryKey: trpc.groups.pathKey() });
    navigate(`/grupos/${group.id}`);
  }

  return (
    <form onSubmit={(e) => void submit(e).catch(() => {})} noValidate>
      <ErrorMessage>{create.error ? formMessage(create.error) : null}</ErrorMessage>
      <label htmlFor="group-name">Nome</label>
      <input
        id="group-name"
        value={name}
        onChange={(e) => setName(e.target.value)}
        required
        minLength={LIMITS.group.name.min}
        maxLength={LIMITS.group.name.max}
      />
      <label htmlFor="group-type">Tipo</label>
      <select
        id="group-type"
        value={groupType}
        onChange={(e) => setGroupType(e.target.value as GroupType)}
      >
        {TYPES.map((t) => (
          <option key={t} value={t}>
            {GROUP_TYPE_LABELS[t]}
          </option>
        ))}
      </select>
      <label htmlFor="group-description">Descrição</label>
      <textarea
        id="group-description"
        value={description}
        onChange={(e) => setDescription(e.target.value)}
        maxLength={LIMITS.group.description.max}
      />
      <label htmlFor="group-sports">Esportes (separados por vírgula)</label>
      <input id="group-sports" value={sports} onChange={(e) => setSports(e.target.value)} />
      <button type="submit" disabled={create.isPending}>
        Criar grupo
      </button>
    </form>
  );
}

/** Grupos: search by name (case and accents ignored), filter by type or "meus grupos", create. */
export function GroupsPage() {
  const trpc = useTRPC();
  const { query } = useLocation();
  const page = pageFrom(query);
  const q = query.get('busca') ?? '';
  const groupType = TYPES.find((t) => t === query.get('tipo'));
  const mine = query.get('meus') === '1';
  const [search, setSearch] = useState(q);

  const list = useQuery({
    ...trpc.groups.list.queryOptions({
      page,
      limit: 10,
      ...(q ? { q } : {}),
      ...(groupType ? { groupType } : {}),
      ...(mine ? { mine: true } : {}),
    }),
    placeholderData: keepPreviousData,
  });
  const go = (next: { q?: string; tipo?: string | undefined; meus?: boolean; page?: number }) => {
    const params = new URLSearchParams();
    const nq = next.q ?? q;
    const nt = 'tipo' in next ? next.tipo : groupType;
    const nm = next.meus ?? mine;
    if (nq) params.set('busca', nq);
    if (nt) params.set('tipo', nt);
    if (nm) params.set('meus', '1');
    if (next.page && next.page > 1) params.set('pagina', String(next.page));
    const s = params.toString();
    navigate(`/grupos${s ? `?${s}` : ''}`);
  };

  return (
    <Page title="Grupos">
      <details className="card composer">
        <summary>Criar um grupo</summary>
        <CreateGroup />
      </details>
      <form
        className="filters"
        role="search"
        onSubmit={(e) => {
          e.preventDefault();
          go({ q: search.trim(), page: 1 });
        }}
      >
        <label htmlFor="group-search">Buscar por nome</label>
        <input
          id="group-search"
          type="search"
          value={search}
          onChange={(e) => setSearch(e.target.value)}
        />
        <button type="submit">Buscar</button>
        <label htmlFor="group-type-filter">Tipo</label>
        <select
          id="group-type-filter"
          value={groupType ?? ''}
          onChange={(e) => go({ tipo: e.target.value || undefined, page: 1 })}
        >
          <option value="">Todos</option>
          {TYPES.map((t) => (
            <option key={t} value={t}>
              {GROUP_TYPE_LABELS[t]}
            </option>
          ))}
        </select>
        <label className="check">
          <input
            type="checkbox"
            role="switch"
            checked={mine}
            onChange={(e) => go({ meus: e.target.checked, page: 1 })}
          />
          Só os meus grupos
        </label>
      </form>
      <PagedList
        id="groups-title"
        heading="Lista de grupos"
        loading="Carregando grupos…"
        empty="Nenhum grupo encontrado."
        pagesLabel="Páginas de grupos"
        query={list}
        page={page}
        onPage={(p) => go({ page: p })}
      >
        {(group) => <GroupCard key={group.id} group={group} />}
      </PagedList>
    </Page>
  );
}
