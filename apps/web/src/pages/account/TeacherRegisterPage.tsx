import { LIMITS, registerTeacherInput } from '@campus/core/schemas';
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { ErrorMessage, StatusMessage } from '../../components/Alert';
import { Page } from '../../components/Page';
import { useFormValues, useSubmit } from '../../components/useForm';
import { sameNames } from '../../lib/errors';
import { Link } from '../../lib/router';
import { useTRPC } from '../../lib/trpc';
import { checked } from '../../lib/validate';
import { TextInput } from './fields';

const INITIAL = {
  nome: '',
  nickname: '',
  email: '',
  senha: '',
  confirmacaoSenha: '',
  instituicao: '',
  departamento: '',
  siape: '',
};
type TeacherField = keyof typeof INITIAL;

const SPECS: {
  name: TeacherField;
  label: string;
  type?: 'email' | 'password';
  autoComplete?: string;
  maxLength?: number;
  hint?: string;
}[] = [
  { name: 'nome', label: 'Nome completo', autoComplete: 'name', maxLength: LIMITS.user.nome.max },
  {
    name: 'nickname',
    label: 'Nickname',
    autoComplete: 'username',
    maxLength: LIMITS.user.nickname.max,
    hint: 'Letras minúsculas, números e _; começa com uma letra.',
  },
  {
    name: 'email',
    label: 'E-mail',
    type: 'email',
    autoComplete: 'email',
    maxLength: LIMITS.user.email.max,
  },
  {
    name: 'senha',
    label: 'Senha',
    type: 'password',
    autoComplete: 'new-password',
    hint: 'Pelo menos 8 caracteres.',
  },
  {
    name: 'confirmacaoSenha',
    label: 'Confirme a senha',
    type: 'password',
    autoComplete: 'new-password',
  },
  { name: 'instituicao', label: 'Instituição', maxLength: LIMITS.user.instituicao.max },
  { name: 'departamento', label: 'Departamento', maxLength: LIMITS.user.departamento.max },
  { name: 'siape', label: 'Matrícula SIAPE', maxLength: 7, hint: '7 dígitos.' },
];

/** Teacher sign-up: the account waits for a site administrator's approval (told by e-mail). */
export function TeacherRegisterPage() {
  const trpc = useTRPC();
  const form = useFormValues(INITIAL);
  const { errors, message, busy, formRef, handle } = useSubmit(sameNames(...Object.keys(INITIAL)));
  const [done, setDone] = useState(false);
  const register = useMutation(trpc.accounts.registerTeacher.mutationOptions());
  const submit = handle(async () => {
    await register.mutateAsync(checked(registerTeacherInput, form.values, 'pt'));
    setDone(true);
  });
  if (done)
    return (
      <Page title="Cadastro enviado">
        <StatusMessage>
          Recebemos seu cadastro de professor. Um administrador vai analisá-lo; você receberá um
          e-mail quando ele for aprovado e então poderá entrar.
        </StatusMessage>
        <p>
          <Link to="/entrar">Ir para a página de entrada</Link>
        </p>
      </Page>
    );
  return (
    <Page title="Cadastro de professor">
      <p>
        Contas de professor são aprovadas por um administrador antes do primeiro acesso. É
        estudante? <Link to="/cadastro">Crie uma conta de estudante</Link>.
      </p>
      <ErrorMessage>{message}</ErrorMessage>
      <form ref={formRef} onSubmit={submit} noValidate className="card stack">
        {SPECS.map((spec) => (
          <TextInput
            key={spec.name}
            {...spec}
            value={form.values[spec.name]}
            onChange={(value) => form.set(spec.name, value)}
            error={errors[spec.name]}
          />
        ))}
        <button type="submit" className="primary" disabled={busy}>
          {busy ? 'Enviando…' : 'Enviar cadastro'}
        </button>
      </form>
    </Page>
  );
}
