import * as Tabs from '@radix-ui/react-tabs';
import { useInfiniteQuery } from '@tanstack/react-query';
import { useState, type ReactNode } from 'react';
import { EndlessList } from '../../components/EndlessList';
import { useTRPC } from '../../lib/trpc';
import { PostItem } from '../feed/PostItem';
import { MatchItemCard } from '../matches/MatchesPage';

const next = (last: { meta: { nextCursor: string | null } }) => last.meta.nextCursor ?? undefined;

function GroupPosts({ id, type }: { id: string; type: 'GENERAL' | 'EVENT' }) {
  const trpc = useTRPC();
  const list = useInfiniteQuery(
    trpc.feed.list.infiniteQueryOptions(
      { groupId: id, type, limit: 10 },
      { getNextPageParam: next },
    ),
  );
  const what = type === 'EVENT' ? 'eventos' : 'publicações';
  return (
    <EndlessList
      id={`grupo-${type}`}
      heading={type === 'EVENT' ? 'Eventos do grupo' : 'Publicações do grupo'}
      loading={`Carregando ${what}…`}
      empty={`Nenhum${type === 'EVENT' ? ' evento' : 'a publicação'} do grupo ainda.`}
      query={list}
    >
      {(post) => <PostItem key={post.id} post={post} />}
    </EndlessList>
  );
}

function GroupMatches({ id }: { id: string }) {
  const trpc = useTRPC();
  const list = useInfiniteQuery(
    trpc.matches.list.infiniteQueryOptions({ groupId: id, limit: 10 }, { getNextPageParam: next }),
  );
  return (
    <EndlessList
      id="grupo-partidas"
      heading="Partidas do grupo"
      loading="Carregando partidas…"
      empty="Nenhuma partida do grupo ainda."
      query={list}
    >
      {(match) => <MatchItemCard key={match.id} match={match} />}
    </EndlessList>
  );
}

/**
 * What a group does, in tabs (Radix Tabs: arrow keys between them): its posts, its events, its
 * matches and its members. Each tab reads its list when it is opened.
 */
export function GroupContent({ id, members }: { id: string; members: ReactNode }) {
  const [tab, setTab] = useState('publicacoes');
  const tabs = [
    ['publicacoes', 'Publicações', <GroupPosts key="p" id={id} type="GENERAL" />],
    ['eventos', 'Eventos', <GroupPosts key="e" id={id} type="EVENT" />],
    ['partidas', 'Partidas', <GroupMatches key="m" id={id} />],
    ['membros', 'Membros', members],
  ] as const;
  return (
    <Tabs.Root value={tab} onValueChange={setTab} className="group-tabs">
      <Tabs.List aria-label="Conteúdo do grupo" className="tabs tabs--full">
        {tabs.map(([value, label]) => (
          <Tabs.Trigger key={value} value={value} className="tab">
            {label}
          </Tabs.Trigger>
        ))}
      </Tabs.List>
      {tabs.map(([value, , content]) => (
        <Tabs.Content key={value} value={value} className="tab-panel">
          {tab === value ? content : null}
        </Tabs.Content>
      ))}
    </Tabs.Root>
  );
}
