import { forgotPasswordInput, resetPasswordInput } from '@campus/core/schemas';
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { ErrorMessage } from '../../components/Alert';
import { FormCard } from '../../components/FormCard';
import { Page } from '../../components/Page';
import { useFormValues, useSubmit } from '../../components/useForm';
import { sameNames } from '../../lib/errors';
import { Link, navigate } from '../../lib/router';
import { useTRPC } from '../../lib/trpc';
import { checked } from '../../lib/validate';
import { NEW_PASSWORD, TextInputs, type TextSpec } from './fields';

const EMAIL_SPECS: TextSpec<'email'>[] = [
  { name: 'email', label: 'E-mail', type: 'email', autoComplete: 'email' },
];
const RESET_SPECS: TextSpec<'senha' | 'confirmacaoSenha'>[] = [
  { name: 'senha', ...NEW_PASSWORD },
  { name: 'confirmacaoSenha', ...NEW_PASSWORD, label: 'Confirme a nova senha', hint: undefined },
];

/** "Esqueci minha senha": the API answers alike whether the e-mail has an account or not. */
export function ForgotPasswordPage() {
  const trpc = useTRPC();
  const form = useFormValues({ email: '' });
  const state = useSubmit(sameNames('email'));
  const [sent, setSent] = useState(false);
  const request = useMutation(trpc.accounts.forgotPassword.mutationOptions());
  const submit = state.handle(async () => {
    await request.mutateAsync(checked(forgotPasswordInput, form.values, 'pt'));
    setSent(true);
  });
  return (
    <Page title="Esqueci minha senha">
      <div className="narrow">
        <p className="intro">
          Informe o e-mail da sua conta. Enviaremos um link para você escolher uma nova senha; ele
          vale por 1 hora e pode ser usado uma vez.
        </p>
        <FormCard
          state={state}
          onSubmit={submit}
          done={
            sent
              ? 'Se houver uma conta com este e-mail, você receberá o link em instantes. Confira também a caixa de spam.'
              : null
          }
          submitLabel="Enviar link"
          busyLabel="Enviando…"
        >
          <TextInputs specs={EMAIL_SPECS} form={form} errors={state.errors} />
        </FormCard>
        <p>
          Lembrou? <Link to="/entrar">Entrar</Link>
        </p>
      </div>
    </Page>
  );
}

/** The token travels in the link's fragment (#token=…), which never reaches a server log. */
const tokenOfLink = () => new URLSearchParams(window.location.hash.slice(1)).get('token') ?? '';

/** The page of the e-mailed link: a new password, then the login. */
export function ResetPasswordPage() {
  const trpc = useTRPC();
  const [token] = useState(tokenOfLink);
  const form = useFormValues({ senha: '', confirmacaoSenha: '' });
  const state = useSubmit(sameNames('senha', 'confirmacaoSenha', 'token'));
  const reset = useMutation(trpc.accounts.resetPassword.mutationOptions());
  const submit = state.handle(async () => {
    await reset.mutateAsync(checked(resetPasswordInput, { ...form.values, token }, 'pt'));
    navigate('/entrar?senha=redefinida', { replace: true });
  });
  return (
    <Page title="Nova senha">
      <div className="narrow">
        {token ? null : (
          <ErrorMessage>
            Este endereço não traz um link de redefinição. Abra o link do e-mail de novo ou{' '}
            <Link to="/esqueci-senha">peça um novo</Link>.
          </ErrorMessage>
        )}
        <FormCard
          state={state}
          onSubmit={submit}
          error={state.errors.token}
          submitLabel="Salvar nova senha"
          busyLabel="Salvando…"
          disabled={!token}
        >
          <TextInputs specs={RESET_SPECS} form={form} errors={state.errors} />
        </FormCard>
        <p>
          O link expirou? <Link to="/esqueci-senha">Peça um novo</Link>
        </p>
      </div>
    </Page>
  );
}
