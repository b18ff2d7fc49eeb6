import { useEffect } from 'react';
import { ErrorMessage, StatusMessage } from '../components/Alert';
import { Field } from '../components/Field';
import { Page } from '../components/Page';
import { useFormValues, useSubmit } from '../components/useForm';
import { sameNames } from '../lib/errors';
import { nextPath, nextReason, withNext } from '../lib/next';
import { Link, navigate, useLocation } from '../lib/router';
import { useSession } from '../session/SessionProvider';

const FIELDS = sameNames('email', 'senha');
const loadCheck = () => import('./login-check');

export function LoginPage() {
  const { login, notice, clearNotice } = useSession();
  const { query } = useLocation();
  const next = query.get('next');
  const reason = nextReason(next, 'Entre');
  const form = useFormValues({ email: '', senha: '' });
  const { errors, message, busy, formRef, handle } = useSubmit(FIELDS);
  // Fetched after the page shows, so it is there by the time the form is sent.
  useEffect(() => void loadCheck(), []);
  const submit = handle(async () => {
    const { email, senha } = (await loadCheck()).checkLogin(form.values);
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
        {reason ? <p className="alert alert--info">{reason}</p> : null}
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
          Ainda não tem conta?{' '}
          <Link to={withNext('/cadastro', next)}>Criar conta de estudante</Link> ou{' '}
          <Link to={withNext('/cadastro/professor', next)}>cadastrar-se como professor</Link>
        </p>
      </div>
    </Page>
  );
}
