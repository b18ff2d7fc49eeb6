import { loginInput } from '@campus/core/schemas';
import { ErrorMessage, StatusMessage } from '../components/Alert';
import { Field } from '../components/Field';
import { Page } from '../components/Page';
import { useFormValues, useSubmit } from '../components/useForm';
import { sameNames } from '../lib/errors';
import { Link, navigate, useLocation } from '../lib/router';
import { checked } from '../lib/validate';
import { useSession } from '../session/SessionProvider';

const FIELDS = sameNames('email', 'senha');

/** Where to go after logging in: the page that asked for it, if it is one of ours. */
export function nextPath(query: URLSearchParams): string {
  const next = query.get('next');
  return next && next.startsWith('/') && !next.startsWith('//') ? next : '/feed';
}

export function LoginPage() {
  const { login, notice, clearNotice } = useSession();
  const { query } = useLocation();
  const form = useFormValues({ email: '', senha: '' });
  const { errors, message, busy, formRef, handle } = useSubmit(FIELDS);
  const submit = handle(async () => {
    const { email, senha } = checked(loginInput, form.values, 'pt');
    await login(email, senha);
    navigate(nextPath(query), { replace: true });
  });

  return (
    <Page title="Entrar">
      <div className="narrow">
        <p className="intro">
          O Campus reúne o feed da universidade, as partidas da turma e seus eventos. Entre com seu
          e-mail de cadastro.
        </p>
        {notice ? (
          <div className="alert alert--info" role="alert">
            {notice}{' '}
            <button type="button" className="link-button" onClick={clearNotice}>
              Fechar
            </button>
          </div>
        ) : null}
        {query.get('senha') === 'redefinida' ? (
          <StatusMessage>Senha redefinida! Entre com a nova senha.</StatusMessage>
        ) : null}
        {query.get('cadastro') === 'ok' ? (
          <StatusMessage>Cadastro realizado! Entre com seu e-mail e senha.</StatusMessage>
        ) : null}
        <ErrorMessage>{message}</ErrorMessage>
        <form ref={formRef} onSubmit={submit} noValidate className="card stack">
          <Field label="E-mail" name="email" error={errors.email} required>
            {(control) => (
              <input
                {...control}
                {...form.bind('email')}
                type="email"
                autoComplete="email"
                required
              />
            )}
          </Field>
          <Field label="Senha" name="senha" error={errors.senha} required>
            {(control) => (
              <input
                {...control}
                {...form.bind('senha')}
                type="password"
                autoComplete="current-password"
                required
              />
            )}
          </Field>
          <button type="submit" className="primary" disabled={busy}>
            {busy ? 'Entrando…' : 'Entrar'}
          </button>
        </form>
        <p>
          <Link to="/esqueci-senha">Esqueci minha senha</Link>
        </p>
        <p>
          Ainda não tem conta? <Link to="/cadastro">Criar conta de estudante</Link> ou{' '}
          <Link to="/cadastro/professor">cadastrar-se como professor</Link>
        </p>
      </div>
    </Page>
  );
}
