import { forgotPasswordInput, resetPasswordInput } from '@campus/core/schemas';
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { ErrorMessage, StatusMessage } from '../../components/Alert';
import { Page } from '../../components/Page';
import { useFormValues, useSubmit } from '../../components/useForm';
import { sameNames } from '../../lib/errors';
import { Link, navigate } from '../../lib/router';
import { useTRPC } from '../../lib/trpc';
import { checked } from '../../lib/validate';
import { TextInput } from './fields';

/** "Esqueci minha senha": the API answers alike whether the e-mail has an account or not. */
export function ForgotPasswordPage() {
  const trpc = useTRPC();
  const form = useFormValues({ email: '' });
  const { errors, message, busy, formRef, handle } = useSubmit(sameNames('email'));
  const [sent, setSent] = useState(false);
  const request = useMutation(trpc.accounts.forgotPassword.mutationOptions());
  const submit = handle(async () => {
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
        <StatusMessage>
          {sent
            ? 'Se houver uma conta com este e-mail, você receberá o link em instantes. Confira também a caixa de spam.'
            : null}
        </StatusMessage>
        <ErrorMessage>{message}</ErrorMessage>
        <form ref={formRef} onSubmit={submit} noValidate className="card stack">
          <TextInput
            label="E-mail"
            name="email"
            type="email"
            autoComplete="email"
            value={form.values.email}
            onChange={(value) => form.set('email', value)}
            error={errors.email}
          />
          <button type="submit" className="primary" disabled={busy}>
            {busy ? 'Enviando…' : 'Enviar link'}
          </button>
        </form>
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
  const { errors, message, busy, formRef, handle } = useSubmit(
    sameNames('senha', 'confirmacaoSenha', 'token'),
  );
  const reset = useMutation(trpc.accounts.resetPassword.mutationOptions());
  const submit = handle(async () => {
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
        <ErrorMessage>{errors.token ?? message}</ErrorMessage>
        <form ref={formRef} onSubmit={submit} noValidate className="card stack">
          <TextInput
            label="Nova senha"
            name="senha"
            type="password"
            autoComplete="new-password"
            hint="Pelo menos 8 caracteres."
            value={form.values.senha}
            onChange={(value) => form.set('senha', value)}
            error={errors.senha}
          />
          <TextInput
            label="Confirme a nova senha"
            name="confirmacaoSenha"
            type="password"
            autoComplete="new-password"
            value={form.values.confirmacaoSenha}
            onChange={(value) => form.set('confirmacaoSenha', value)}
            error={errors.confirmacaoSenha}
          />
          <button type="submit" className="primary" disabled={busy || !token}>
            {busy ? 'Salvando…' : 'Salvar nova senha'}
          </button>
        </form>
        <p>
          O link expirou? <Link to="/esqueci-senha">Peça um novo</Link>
        </p>
      </div>
    </Page>
  );
}
