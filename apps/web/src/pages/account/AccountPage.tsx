import {
  changePasswordInput,
  deleteAccountInput,
  LIMITS,
  updateProfileInput,
} from '@campus/core/schemas';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { ErrorMessage, StatusMessage } from '../../components/Alert';
import { Page } from '../../components/Page';
import { useFormValues, useSubmit } from '../../components/useForm';
import { formMessage, sameNames } from '../../lib/errors';
import { navigate } from '../../lib/router';
import { useTRPC, useTRPCClient } from '../../lib/trpc';
import { checked } from '../../lib/validate';
import { useSession } from '../../session/SessionProvider';
import { TextInput } from './fields';

const PROFILE = { nome: '', instituicao: '', curso: '', periodo: '', estado: '', cidade: '' };
type ProfileField = keyof typeof PROFILE;
const PROFILE_SPECS: { name: ProfileField; label: string; maxLength: number; hint?: string }[] = [
  { name: 'nome', label: 'Nome', maxLength: LIMITS.user.nome.max },
  { name: 'instituicao', label: 'Instituição', maxLength: LIMITS.user.instituicao.max },
  { name: 'curso', label: 'Curso', maxLength: LIMITS.user.curso.max },
  { name: 'periodo', label: 'Período', maxLength: LIMITS.user.periodo.max },
  { name: 'estado', label: 'Estado (UF)', maxLength: 2, hint: 'A sigla, como DF ou SP.' },
  { name: 'cidade', label: 'Cidade', maxLength: LIMITS.user.cidade.max },
];

/** The fields that changed, as the API takes them (estado and cidade travel together). */
function changes(values: typeof PROFILE, saved: typeof PROFILE) {
  const out: Partial<typeof PROFILE> = {};
  for (const name of Object.keys(PROFILE) as ProfileField[])
    if (values[name] !== saved[name]) out[name] = values[name];
  if (out.estado !== undefined || out.cidade !== undefined) {
    out.estado = values.estado;
    out.cidade = values.cidade;
  }
  return out;
}

function ProfileForm() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const data = useQuery(trpc.accounts.exportData.queryOptions());
  const conta = data.data?.dados.conta as Partial<Record<ProfileField, string | null>> | undefined;
  const saved = Object.fromEntries(
    (Object.keys(PROFILE) as ProfileField[]).map((name) => [name, conta?.[name] ?? '']),
  ) as typeof PROFILE;
  const form = useFormValues(PROFILE);
  const { setValues } = form;
  const loaded = JSON.stringify(saved);
  useEffect(() => setValues(JSON.parse(loaded) as typeof PROFILE), [loaded, setValues]);
  const { errors, message, busy, formRef, handle } = useSubmit(sameNames(...Object.keys(PROFILE)));
  const [ok, setOk] = useState(false);
  const update = useMutation(trpc.accounts.updateProfile.mutationOptions());
  const submit = handle(async () => {
    setOk(false);
    await update.mutateAsync(checked(updateProfileInput, changes(form.values, saved), 'pt'));
    await queryClient.invalidateQueries({ queryKey: trpc.accounts.exportData.queryKey() });
    setOk(true);
  });
  return (
    <section aria-labelledby="perfil-titulo" className="stack">
      <h2 id="perfil-titulo">Perfil</h2>
      <StatusMessage>{ok ? 'Perfil atualizado.' : null}</StatusMessage>
      <ErrorMessage>{message}</ErrorMessage>
      <form ref={formRef} onSubmit={submit} noValidate className="card stack">
        {PROFILE_SPECS.map((spec) => (
          <TextInput
            key={spec.name}
            {...spec}
            required={false}
            value={form.values[spec.name]}
            onChange={(value) => form.set(spec.name, value)}
            error={errors[spec.name]}
          />
        ))}
        <button type="submit" className="primary" disabled={busy || data.isPending}>
          {busy ? 'Salvando…' : 'Salvar perfil'}
        </button>
      </form>
    </section>
  );
}

function PasswordForm() {
  const trpc = useTRPC();
  const form = useFormValues({ senhaAtual: '', novaSenha: '' });
  const { errors, message, busy, formRef, handle } = useSubmit(
    sameNames('senhaAtual', 'novaSenha'),
  );
  const [ok, setOk] = useState(false);
  const change = useMutation(trpc.accounts.changePassword.mutationOptions());
  const submit = handle(async () => {
    setOk(false);
    await change.mutateAsync(checked(changePasswordInput, form.values, 'pt'));
    form.reset();
    setOk(true);
  });
  return (
    <section aria-labelledby="senha-titulo" className="stack">
      <h2 id="senha-titulo">Senha</h2>
      <StatusMessage>
        {ok ? 'Senha trocada. As outras sessões foram encerradas.' : null}
      </StatusMessage>
      <ErrorMessage>{message}</ErrorMessage>
      <form ref={formRef} onSubmit={submit} noValidate className="card stack">
        <TextInput
          label="Senha atual"
          name="senhaAtual"
          type="password"
          autoComplete="current-password"
          value={form.values.senhaAtual}
          onChange={(v) => form.set('senhaAtual', v)}
          error={errors.senhaAtual}
        />
        <TextInput
          label="Nova senha"
          name="novaSenha"
          type="password"
          autoComplete="new-password"
          hint="Pelo menos 8 caracteres."
          value={form.values.novaSenha}
          onChange={(v) => form.set('novaSenha', v)}
          error={errors.novaSenha}
        />
        <button type="submit" className="primary" disabled={busy}>
          {busy ? 'Trocando…' : 'Trocar senha'}
        </button>
      </form>
    </section>
  );
}

/** LGPD: a download of every personal datum, and the account's deletion (with the password). */
function DataSection() {
  const client = useTRPCClient();
  const { signOut } = useSession();
  const [error, setError] = useState<string | null>(null);
  const download = async () => {
    setError(null);
    try {
      const { dados } = await client.accounts.exportData.query();
      const blob = new Blob([JSON.stringify(dados, null, 2)], { type: 'application/json' });
      const link = document.createElement('a');
      link.href = URL.createObjectURL(blob);
      link.download = `meus-dados-${dados.geradoEm.slice(0, 10)}.json`;
      link.click();
      URL.revokeObjectURL(link.href);
    } catch (failure) {
      setError(formMessage(failure));
    }
  };
  const form = useFormValues({ senha: '' });
  const { errors, message, busy, formRef, handle } = useSubmit(sameNames('senha'));
  const remove = handle(async () => {
    if (!window.confirm('Excluir sua conta? Isso não pode ser desfeito.')) return;
    await client.accounts.deleteAccount.mutate(checked(deleteAccountInput, form.values, 'pt'));
    signOut(
      'Sua conta foi excluída. Seus posts e comentários aparecem como de "Usuário removido".',
    );
    navigate('/entrar', { replace: true });
  });
  return (
    <section aria-labelledby="dados-titulo" className="stack">
      <h2 id="dados-titulo">Meus dados</h2>
      <p>Baixe tudo o que o Campus guarda sobre você, num arquivo JSON (LGPD, art. 18).</p>
      <ErrorMessage>{error}</ErrorMessage>
      <p>
        <button type="button" onClick={() => void download()}>
          Baixar meus dados
        </button>
      </p>
      <h3>Excluir conta</h3>
      <p>
        Seus dados pessoais são apagados e seu e-mail e nickname ficam livres. Posts e comentários
        continuam, como de &quot;Usuário removido&quot;. Se você for o único dono de um grupo, passe
        a posse a outro membro antes.
      </p>
      <ErrorMessage>{message}</ErrorMessage>
      <form ref={formRef} onSubmit={remove} noValidate className="card stack">
        <TextInput
          label="Sua senha"
          name="senha"
          type="password"
          autoComplete="current-password"
          value={form.values.senha}
          onChange={(v) => form.set('senha', v)}
          error={errors.senha}
        />
        <button type="submit" className="danger" disabled={busy}>
          {busy ? 'Excluindo…' : 'Excluir minha conta'}
        </button>
      </form>
    </section>
  );
}

/** "Minha conta": profile, password, data export and deletion. */
export function AccountPage() {
  return (
    <Page title="Minha conta">
      <div className="narrow stack">
        <ProfileForm />
        <PasswordForm />
        <DataSection />
      </div>
    </Page>
  );
}
