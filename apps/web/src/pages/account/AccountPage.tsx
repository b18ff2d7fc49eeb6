import {
  changePasswordInput,
  deleteAccountInput,
  LIMITS,
  updateProfileInput,
} from '@campus/core/schemas';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { ErrorMessage } from '../../components/Alert';
import { FormCard } from '../../components/FormCard';
import { Page } from '../../components/Page';
import { useFormValues, useSubmit } from '../../components/useForm';
import { formMessage, sameNames } from '../../lib/errors';
import { Link, navigate } from '../../lib/router';
import { useTRPC, useTRPCClient } from '../../lib/trpc';
import { checked } from '../../lib/validate';
import { PushSettings } from '../../push/PushSettings';
import { useSession } from '../../session/SessionProvider';
import { SelectField } from '../../components/InputField';
import { useRegisterOptions } from '../register/useRegisterOptions';
import { AvatarEditor } from './AvatarEditor';
import { CURRENT_PASSWORD, NEW_PASSWORD, TextInputs, type TextSpec } from './fields';

const PROFILE = { nome: '', instituicao: '', curso: '', periodo: '', estado: '', cidade: '' };
type ProfileField = keyof typeof PROFILE;
const PROFILE_SPECS: TextSpec<Exclude<ProfileField, 'estado' | 'cidade'>>[] = [
  { name: 'nome', label: 'Nome', maxLength: LIMITS.user.nome.max },
  { name: 'instituicao', label: 'Instituição', maxLength: LIMITS.user.instituicao.max },
  { name: 'curso', label: 'Curso', maxLength: LIMITS.user.curso.max },
  { name: 'periodo', label: 'Período', maxLength: LIMITS.user.periodo.max },
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

/** State and city from the same lists as the sign-up (a new state empties the city). */
function PlaceFields({
  form,
  errors,
}: {
  form: ReturnType<typeof useFormValues<typeof PROFILE>>;
  errors: Record<string, string>;
}) {
  const { values } = form;
  const options = useRegisterOptions(values.estado);
  return (
    <>
      <SelectField
        name="estado"
        label="Estado"
        value={values.estado}
        onChange={(e) => form.setValues((v) => ({ ...v, estado: e.target.value, cidade: '' }))}
        error={errors.estado}
        placeholder="Selecione o estado"
        options={options.estados}
      />
      <SelectField
        name="cidade"
        label="Cidade"
        value={values.cidade}
        onChange={(e) => form.set('cidade', e.target.value)}
        error={errors.cidade}
        placeholder={options.cidadesLoading ? 'Carregando cidades…' : 'Selecione a cidade'}
        // The saved city stays offered while the state's list loads.
        options={
          options.cidades.length || !values.cidade
            ? options.cidades
            : [{ value: values.cidade, label: values.cidade }]
        }
        disabled={!values.estado}
      />
    </>
  );
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
  const state = useSubmit(sameNames(...Object.keys(PROFILE)));
  const [ok, setOk] = useState(false);
  const update = useMutation(trpc.accounts.updateProfile.mutationOptions());
  const submit = state.handle(async () => {
    setOk(false);
    await update.mutateAsync(checked(updateProfileInput, changes(form.values, saved), 'pt'));
    await queryClient.invalidateQueries({ queryKey: trpc.accounts.exportData.queryKey() });
    setOk(true);
  });
  return (
    <FormCard
      {...{ title: 'Perfil', submitLabel: 'Salvar perfil', busyLabel: 'Salvando…' }}
      state={state}
      onSubmit={submit}
      done={ok ? 'Perfil atualizado.' : null}
      disabled={data.isPending}
    >
      <TextInputs specs={PROFILE_SPECS} form={form} errors={state.errors} required={false} />
      <PlaceFields form={form} errors={state.errors} />
    </FormCard>
  );
}

const PASSWORD_SPECS: TextSpec<'senhaAtual' | 'novaSenha'>[] = [
  { name: 'senhaAtual', ...CURRENT_PASSWORD },
  { name: 'novaSenha', ...NEW_PASSWORD },
];

function PasswordForm() {
  const trpc = useTRPC();
  const form = useFormValues({ senhaAtual: '', novaSenha: '' });
  const state = useSubmit(sameNames('senhaAtual', 'novaSenha'));
  const [ok, setOk] = useState(false);
  const change = useMutation(trpc.accounts.changePassword.mutationOptions());
  const submit = state.handle(async () => {
    setOk(false);
    await change.mutateAsync(checked(changePasswordInput, form.values, 'pt'));
    form.reset();
    setOk(true);
  });
  return (
    <FormCard
      {...{ title: 'Senha', submitLabel: 'Trocar senha', busyLabel: 'Trocando…' }}
      done={ok ? 'Senha trocada. As outras sessões foram encerradas.' : null}
      state={state}
      onSubmit={submit}
    >
      <TextInputs specs={PASSWORD_SPECS} form={form} errors={state.errors} />
    </FormCard>
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
  const state = useSubmit(sameNames('senha'));
  const remove = state.handle(async () => {
    if (!window.confirm('Excluir sua conta? Isso não pode ser desfeito.')) return;
    await client.accounts.deleteAccount.mutate(checked(deleteAccountInput, form.values, 'pt'));
    signOut(
      'Sua conta foi excluída. Seus posts e comentários aparecem como de "Usuário removido".',
      { left: true },
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
      <FormCard
        state={state}
        onSubmit={remove}
        submitLabel="Excluir minha conta"
        busyLabel="Excluindo…"
        danger
      >
        <TextInputs
          specs={[{ name: 'senha', ...CURRENT_PASSWORD, label: 'Sua senha' }]}
          form={form}
          errors={state.errors}
        />
      </FormCard>
    </section>
  );
}

/** Who is logged in, the administration's pages (for an ADMIN) and the way out. */
function SessionSection() {
  const { user, logout } = useSession();
  return (
    <section aria-labelledby="sessao-titulo" className="card stack">
      <h2 id="sessao-titulo" className="visually-hidden">
        Sessão
      </h2>
      <p className="row">
        <span>
          Conectado como <strong>@{user?.nickname}</strong>
        </span>
      </p>
      <AvatarEditor name={user?.nickname ?? ''} />
      {user?.perfil === 'ADMIN' ? (
        <nav aria-label="Administração do site" className="row wrap">
          <Link to="/administracao" className="button-link">
            Administração
          </Link>
          <Link to="/administracao/denuncias" className="button-link">
            Denúncias
          </Link>
        </nav>
      ) : null}
      <p>
        <button type="button" onClick={() => void logout()}>
          Sair
        </button>
      </p>
    </section>
  );
}

/** "Minha conta": the session, profile, password, notifications, data export and deletion. */
export function AccountPage() {
  return (
    <Page title="Minha conta">
      <div className="narrow stack">
        <SessionSection />
        <ProfileForm />
        <PasswordForm />
        <PushSettings />
        <DataSection />
      </div>
    </Page>
  );
}
