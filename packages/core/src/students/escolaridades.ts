/**
 * Escolaridades (docs/contract/accounts.md, Student registration): the one table of codes and
 * labels. Registration accepts either form and stores the code; /opcoes-academicas lists the labels
 * in this order.
 */
export const ESCOLARIDADES = {
  ENSINO_FUNDAMENTAL: 'Ensino Fundamental',
  ENSINO_MEDIO: 'Ensino Médio',
  ENSINO_TECNICO: 'Ensino Técnico',
  GRADUACAO: 'Graduação',
  POS_GRADUACAO: 'Pós-graduação',
  MESTRADO: 'Mestrado',
  DOUTORADO: 'Doutorado',
  OUTRO: 'Outro',
} as const;

export type EscolaridadeCode = keyof typeof ESCOLARIDADES;
export type EscolaridadeLabel = (typeof ESCOLARIDADES)[EscolaridadeCode];

export const ESCOLARIDADE_CODES = Object.keys(ESCOLARIDADES) as EscolaridadeCode[];
export const ESCOLARIDADE_LABELS = Object.values(ESCOLARIDADES) as EscolaridadeLabel[];

const codeByLabel = new Map<string, EscolaridadeCode>(
  ESCOLARIDADE_CODES.map((code) => [ESCOLARIDADES[code], code]),
);

/** The code of an escolaridade given as its code or as its label. */
export function toEscolaridadeCode(value: EscolaridadeCode | EscolaridadeLabel): EscolaridadeCode {
  return value in ESCOLARIDADES ? (value as EscolaridadeCode) : codeByLabel.get(value)!;
}
