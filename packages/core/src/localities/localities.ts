import { getMunicipalities, getStates, type StateCode } from '@brazilian-utils/brazilian-utils';

/**
 * Brazilian states and municipalities, from IBGE's localities service as packaged by
 * `@brazilian-utils/brazilian-utils` (version pinned in pnpm-workspace.yaml; see
 * docs/data-sources.md). Everything here is computed once, at module load.
 */
export type Uf = StateCode;

/** Portuguese alphabetical order ("Álvares" beside "Alvorada", not after "Z"). */
export const portugueseOrder = new Intl.Collator('pt-BR').compare;

export const ESTADOS: readonly { sigla: Uf; nome: string }[] = getStates()
  .map((state) => ({ sigla: state.code, nome: state.name }))
  .sort((a, b) => portugueseOrder(a.nome, b.nome));

const UFS: ReadonlySet<string> = new Set(ESTADOS.map((estado) => estado.sigla));

/** True for one of the 27 UFs, upper case ("SP"; "sp" is not). */
export const isUf = (value: string): value is Uf => UFS.has(value);

/** Every municipality of each UF, official IBGE spelling, in Portuguese order. */
export const CIDADES_POR_UF: ReadonlyMap<Uf, readonly string[]> = new Map(
  ESTADOS.map(({ sigla }) => [
    sigla,
    getMunicipalities(sigla)
      .map((municipality) => municipality.name)
      .sort(portugueseOrder),
  ]),
);

/**
 * The form a typed city name is compared in: without accents, lower case, hyphens and
 * apostrophes as spaces, spaces collapsed. "SAO JOAO D'ALIANCA", "são joão d’aliança" and
 * "Sao Joao d Alianca" all become "sao joao d alianca". No two municipalities of one UF share a
 * normalised name (tested), so the lookup below is unambiguous.
 */
export function normalizeLocalityName(name: string): string {
  return name
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[-'’‘`´]/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}

const officialNameByUf: ReadonlyMap<Uf, ReadonlyMap<string, string>> = new Map(
  [...CIDADES_POR_UF].map(([uf, cidades]) => [
    uf,
    new Map(cidades.map((cidade) => [normalizeLocalityName(cidade), cidade])),
  ]),
);

/** The official spelling of a municipality of `uf` named loosely, or undefined when none. */
export function officialCityName(uf: Uf, name: string): string | undefined {
  return officialNameByUf.get(uf)?.get(normalizeLocalityName(name));
}
