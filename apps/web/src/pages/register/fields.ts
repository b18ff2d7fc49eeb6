import { LIMITS } from '@campus/core/schemas';
import type { InputSpec } from '../../components/InputField';

const L = LIMITS.user;

export const INITIAL = {
  nome: '',
  nickname: '',
  email: '',
  senha: '',
  confirmacaoSenha: '',
  dataNascimento: '',
  nacionalidade: 'Brasileira',
  escolaridade: '',
  instituicao: '',
  curso: '',
  periodo: '',
  estado: '',
  cidade: '',
};
export type RegisterValues = typeof INITIAL;
export type RegisterField = keyof RegisterValues;

type Spec = InputSpec & { name: RegisterField };
const FREE_TEXT = 'Escolha da lista ou escreva.';

/** The text fields of the registration, in order; the limits are the API's (core LIMITS). */
export const ACCOUNT_FIELDS: Spec[] = [
  { name: 'nome', label: 'Nome completo', autoComplete: 'name', maxLength: L.nome.max },
  {
    name: 'nickname',
    label: 'Nickname',
    autoComplete: 'username',
    maxLength: L.nickname.max,
    hint: `De ${L.nickname.min} a ${L.nickname.max} caracteres: comece com uma letra; use letras minúsculas, números e _.`,
  },
  { name: 'email', label: 'E-mail', type: 'email', autoComplete: 'email', maxLength: L.email.max },
  {
    name: 'senha',
    label: 'Senha',
    type: 'password',
    autoComplete: 'new-password',
    maxLength: L.senha.max,
    hint: `No mínimo ${L.senha.min} caracteres.`,
  },
  {
    name: 'confirmacaoSenha',
    label: 'Confirme a senha',
    type: 'password',
    autoComplete: 'new-password',
    maxLength: L.senha.max,
  },
];

export const birthDateField = (today: string): Spec => ({
  name: 'dataNascimento',
  label: 'Data de nascimento',
  type: 'date',
  min: '1900-01-01',
  max: today,
});

export const NACIONALIDADE_FIELD: Spec = {
  name: 'nacionalidade',
  label: 'Nacionalidade',
  list: 'lista-nacionalidades',
  maxLength: L.nacionalidade.max,
  hint: FREE_TEXT,
};

/** Free text with suggestions from the API's helper lists (plus "Não se aplica"). */
export const EDUCATION_FIELDS: (Spec & { name: 'instituicao' | 'curso' | 'periodo' })[] = [
  {
    name: 'instituicao',
    label: 'Instituição',
    list: 'lista-instituicoes',
    maxLength: L.instituicao.max,
    hint: FREE_TEXT,
  },
  { name: 'curso', label: 'Curso', list: 'lista-cursos', maxLength: L.curso.max, hint: FREE_TEXT },
  {
    name: 'periodo',
    label: 'Período',
    list: 'lista-periodos',
    maxLength: L.periodo.max,
    hint: FREE_TEXT,
  },
];
