import { LIMITS, registerTeacherInput } from '@campus/core/schemas';
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { StatusMessage } from '../../components/Alert';
import { FormCard } from '../../components/FormCard';
import { Page } from '../../components/Page';
import { useFormValues, useSubmit } from '../../components/useForm';
import { sameNames } from '../../lib/errors';
import { nextReason, withNext } from '../../lib/next';
import { Link, useLocation } from '../../lib/router';
import { useTRPC } from '../../lib/trpc';
import { checked } from '../../lib/validate';
import { TextInputs, type TextSpec } from './fields';

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

const SPECS: TextSpec<TeacherField>[] = [
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
  const state = useSubmit(sameNames(...Object.keys(INITIAL)));
  const [done, setDone] = useState(false);
  // A shared link opened before signing up: the login after the approval leads there.
  const next = useLocation().query.get('next');
  const reason = nextReason(next, 'Crie sua conta');
  const register = useMutation(trpc.accounts.registerTeacher.mutationOptions());
  const submit = state.handle(async () => {
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
          <Link to={withNext('/entrar', next)}>Ir para a página de entrada</Link>
        </p>
      </Page>
    );
  return (
    <Page title="Cadastro de professor">
      {reason ? <p className="alert alert--info">{reason}</p> : null}
      <p>
        Contas de professor são aprovadas por um administrador antes do primeiro acesso. É
        estudante? <Link to={withNext('/cadastro', next)}>Crie uma conta de estudante</Link>.
      </p>
      <FormCard state={state} onSubmit={submit} submitLabel="Enviar cadastro" busyLabel="Enviando…">
        <TextInputs specs={SPECS} form={form} errors={state.errors} />
      </FormCard>
    </Page>
  );
}
