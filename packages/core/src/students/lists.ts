import { CIDADES_POR_UF, ESTADOS, portugueseOrder, type Uf } from '../localities/localities';
import type { CidadesResponse, EstadosResponse } from '../localities/schemas';
import { COURSES } from './data/courses';
import { INSTITUTIONS } from './data/institutions';
import { NATIONALITIES_BY_ISO } from './data/nationalities';
import { ESCOLARIDADE_LABELS } from './escolaridades';
import { precompute, type PrecomputedResponse } from './precomputed';
import type { NacionalidadesResponse, OpcoesAcademicasResponse } from './schemas';

/**
 * The static lists of the registration form, each response body built once per process: the
 * procedures return `.body`, and the server's REST route sends `.bytes` with `.etag`
 * (apps/server/src/http/static-lists.ts). The lists change only with a release.
 */

const BRASILEIRA = NATIONALITIES_BY_ISO.BR!;

export const nacionalidadesList = precompute<NacionalidadesResponse>({
  mensagem: 'Nacionalidades',
  dados: [
    BRASILEIRA,
    ...Object.values(NATIONALITIES_BY_ISO)
      .filter((nacionalidade) => nacionalidade !== BRASILEIRA)
      .sort(portugueseOrder),
  ],
});

export const PERIODOS = Array.from({ length: 12 }, (_, i) => `${i + 1}º período`);
export const NAO_SE_APLICA = 'Não se aplica';

export const opcoesAcademicasList = precompute<OpcoesAcademicasResponse>({
  mensagem: 'Opções acadêmicas',
  dados: {
    escolaridades: [...ESCOLARIDADE_LABELS],
    instituicoes: INSTITUTIONS.map(({ nome, sigla }) => `${nome} (${sigla})`).sort(portugueseOrder),
    cursos: [...COURSES].sort(portugueseOrder),
    periodos: PERIODOS,
    naoSeAplica: NAO_SE_APLICA,
  },
});

export const estadosList = precompute<EstadosResponse>({
  mensagem: 'Estados',
  dados: ESTADOS.map(({ sigla, nome }) => ({ sigla, nome })),
});

const cidadesListByUf: ReadonlyMap<Uf, PrecomputedResponse<CidadesResponse>> = new Map(
  [...CIDADES_POR_UF].map(([uf, cidades]) => [
    uf,
    precompute<CidadesResponse>({
      mensagem: `Cidades de ${uf}`,
      dados: cidades.map((nome) => ({ nome, uf })),
    }),
  ]),
);

/** The municipalities of a UF (upper case), or undefined for anything that is not a UF. */
export const cidadesList = (uf: string): PrecomputedResponse<CidadesResponse> | undefined =>
  cidadesListByUf.get(uf as Uf);
