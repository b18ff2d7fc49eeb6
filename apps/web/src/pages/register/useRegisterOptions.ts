import { useQuery } from '@tanstack/react-query';
import { useTRPC } from '../../lib/trpc';

const once = { staleTime: Infinity };

/** The registration's lists: nationalities, academic options, states, and the state's cities. */
export function useRegisterOptions(estado: string) {
  const trpc = useTRPC();
  const nacionalidades = useQuery(trpc.students.nacionalidades.queryOptions(undefined, once));
  const opcoes = useQuery(trpc.students.opcoesAcademicas.queryOptions(undefined, once));
  const estados = useQuery(trpc.localities.estados.queryOptions(undefined, once));
  const cidades = useQuery(
    trpc.localities.cidades.queryOptions({ uf: estado }, { ...once, enabled: estado !== '' }),
  );
  const academic = opcoes.data?.dados;
  // "Não se aplica" first in every academic list.
  const withNone = (list: string[] | undefined) => [
    ...(academic ? [academic.naoSeAplica] : []),
    ...(list ?? []),
  ];
  return {
    nacionalidades: nacionalidades.data?.dados ?? [],
    escolaridades: (academic?.escolaridades ?? []).map((e) => ({ value: e, label: e })),
    suggestions: {
      instituicao: withNone(academic?.instituicoes),
      curso: withNone(academic?.cursos),
      periodo: withNone(academic?.periodos),
    },
    estados: (estados.data?.dados ?? []).map((uf) => ({
      value: uf.sigla,
      label: `${uf.nome} (${uf.sigla})`,
    })),
    cidades: (cidades.data?.dados ?? []).map((c) => ({ value: c.nome, label: c.nome })),
    cidadesLoading: cidades.isFetching,
    cidadesPending: cidades.isPending,
  };
}
