import { useMutation, useQuery } from '@tanstack/react-query';
import { useRef, useState, type FormEvent } from 'react';
import { ErrorMessage } from '../../components/Alert';
import { Field } from '../../components/Field';
import { Page } from '../../components/Page';
import { useFormValues } from '../../components/useForm';
import { fieldErrors, formMessage, sameNames } from '../../lib/errors';
import { focusFirstInvalid } from '../../lib/focus';
import { Link, navigate } from '../../lib/router';
import { useTRPC, type RouterInputs } from '../../lib/trpc';
import { useSession } from '../../session/SessionProvider';
import { useAvailability } from './useAvailability';

const INITIAL = {
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
const FIELDS = sameNames(...Object.keys(INITIAL));

export function RegisterPage() {
  const trpc = useTRPC();
  const { login } = useSession();
  const form = useFormValues(INITIAL);
  const { values } = form;
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [message, setMessage] = useState<string | null>(null);
  const formRef = useRef<HTMLFormElement>(null);

  const nacionalidades = useQuery(
    trpc.students.nacionalidades.queryOptions(undefined, { staleTime: Infinity }),
  );
  const opcoes = useQuery(
    trpc.students.opcoesAcademicas.queryOptions(undefined, { staleTime: Infinity }),
  );
  const estados = useQuery(
    trpc.localities.estados.queryOptions(undefined, { staleTime: Infinity }),
  );
  const cidades = useQuery(
    trpc.localities.cidades.queryOptions(
      { uf: values.estado },
      { enabled: values.estado !== '', staleTime: Infinity },
    ),
  );

  const availability = useAvailability(values.nickname, values.email);

  const register = useMutation(trpc.students.register.mutationOptions());

  async function submit(event: FormEvent) {
    event.preventDefault();
    setMessage(null);
    try {
      // escolaridade comes from the list; the API checks it anyway and answers a field error.
      await register.mutateAsync(values as RouterInputs['students']['register']);
    } catch (error) {
      setErrors(fieldErrors(error, FIELDS));
      setMessage(formMessage(error, FIELDS));
      focusFirstInvalid(formRef.current);
      return;
    }
    try {
      await login(values.email, values.senha);
      navigate('/feed?bemvindo=1', { replace: true });
    } catch {
      navigate('/entrar?cadastro=ok', { replace: true });
    }
  }

  /** Editing a field clears its error. */
  const bind = (name: keyof typeof INITIAL) => ({
    ...form.bind(name),
    onChange: (event: { target: { value: string } }) => {
      form.set(name, event.target.value);
      if (errors[name]) setErrors(({ [name]: _dropped, ...rest }) => rest);
    },
  });

  const naoSeAplica = opcoes.data?.dados.naoSeAplica;
  const suggestions = (list: string[] | undefined) => [
    ...(naoSeAplica ? [naoSeAplica] : []),
    ...(list ?? []),
  ];
  const today = new Date().toISOString().slice(0, 10);

  return (
    <Page title="Criar conta de estudante">
      <p>
        Já tem conta? <Link to="/entrar">Entrar</Link>. Campos marcados com * são obrigatórios.
      </p>
      <ErrorMessage>{message}</ErrorMessage>
      <form ref={formRef} onSubmit={submit} noValidate className="card form-grid">
        <fieldset>
          <legend>Conta</legend>
          <Field label="Nome completo" name="nome" error={errors.nome} required>
            {(c) => <input {...c} {...bind('nome')} autoComplete="name" maxLength={120} required />}
          </Field>
          <Field
            label="Nickname"
            name="nickname"
            error={errors.nickname}
            required
            hint="De 3 a 30 caracteres: comece com uma letra; use letras minúsculas, números e _."
            status={availability.nickname}
          >
            {(c) => (
              <input {...c} {...bind('nickname')} autoComplete="username" maxLength={30} required />
            )}
          </Field>
          <Field
            label="E-mail"
            name="email"
            error={errors.email}
            required
            status={availability.email}
          >
            {(c) => <input {...c} {...bind('email')} type="email" autoComplete="email" required />}
          </Field>
          <Field
            label="Senha"
            name="senha"
            error={errors.senha}
            required
            hint="No mínimo 8 caracteres."
          >
            {(c) => (
              <input
                {...c}
                {...bind('senha')}
                type="password"
                autoComplete="new-password"
                required
              />
            )}
          </Field>
          <Field
            label="Confirme a senha"
            name="confirmacaoSenha"
            error={errors.confirmacaoSenha}
            required
          >
            {(c) => (
              <input
                {...c}
                {...bind('confirmacaoSenha')}
                type="password"
                autoComplete="new-password"
                required
              />
            )}
          </Field>
        </fieldset>

        <fieldset>
          <legend>Sobre você</legend>
          <Field
            label="Data de nascimento"
            name="dataNascimento"
            error={errors.dataNascimento}
            required
          >
            {(c) => (
              <input
                {...c}
                {...bind('dataNascimento')}
                type="date"
                min="1900-01-01"
                max={today}
                required
              />
            )}
          </Field>
          <Field
            label="Nacionalidade"
            name="nacionalidade"
            error={errors.nacionalidade}
            required
            hint="Escolha da lista ou escreva."
          >
            {(c) => (
              <input
                {...c}
                {...bind('nacionalidade')}
                list="lista-nacionalidades"
                maxLength={80}
                required
              />
            )}
          </Field>
          <datalist id="lista-nacionalidades">
            {nacionalidades.data?.dados.map((n) => (
              <option key={n} value={n} />
            ))}
          </datalist>
          <Field label="Estado" name="estado" error={errors.estado} required>
            {(c) => (
              <select
                {...c}
                value={values.estado}
                onChange={(event) => {
                  form.setValues((current) => ({
                    ...current,
                    estado: event.target.value,
                    cidade: '',
                  }));
                  setErrors(({ estado: _e, cidade: _c, ...rest }) => rest);
                }}
                required
              >
                <option value="">Selecione o estado</option>
                {estados.data?.dados.map((uf) => (
                  <option key={uf.sigla} value={uf.sigla}>
                    {uf.nome} ({uf.sigla})
                  </option>
                ))}
              </select>
            )}
          </Field>
          <Field
            label="Cidade"
            name="cidade"
            error={errors.cidade}
            required
            hint={
              values.estado
                ? undefined
                : 'Escolha o estado primeiro: a lista de cidades segue o estado.'
            }
          >
            {(c) => (
              <select
                {...c}
                {...bind('cidade')}
                disabled={!values.estado || cidades.isPending}
                required
              >
                <option value="">
                  {cidades.isFetching ? 'Carregando cidades…' : 'Selecione a cidade'}
                </option>
                {cidades.data?.dados.map((cidade) => (
                  <option key={cidade.nome} value={cidade.nome}>
                    {cidade.nome}
                  </option>
                ))}
              </select>
            )}
          </Field>
        </fieldset>

        <fieldset>
          <legend>Formação</legend>
          <Field label="Escolaridade" name="escolaridade" error={errors.escolaridade} required>
            {(c) => (
              <select {...c} {...bind('escolaridade')} required>
                <option value="">Selecione</option>
                {opcoes.data?.dados.escolaridades.map((e) => (
                  <option key={e} value={e}>
                    {e}
                  </option>
                ))}
              </select>
            )}
          </Field>
          <Field
            label="Instituição"
            name="instituicao"
            error={errors.instituicao}
            required
            hint="Escolha da lista ou escreva."
          >
            {(c) => (
              <input
                {...c}
                {...bind('instituicao')}
                list="lista-instituicoes"
                maxLength={160}
                required
              />
            )}
          </Field>
          <datalist id="lista-instituicoes">
            {suggestions(opcoes.data?.dados.instituicoes).map((i) => (
              <option key={i} value={i} />
            ))}
          </datalist>
          <Field
            label="Curso"
            name="curso"
            error={errors.curso}
            required
            hint="Escolha da lista ou escreva."
          >
            {(c) => (
              <input {...c} {...bind('curso')} list="lista-cursos" maxLength={120} required />
            )}
          </Field>
          <datalist id="lista-cursos">
            {suggestions(opcoes.data?.dados.cursos).map((curso) => (
              <option key={curso} value={curso} />
            ))}
          </datalist>
          <Field
            label="Período"
            name="periodo"
            error={errors.periodo}
            required
            hint="Escolha da lista ou escreva."
          >
            {(c) => (
              <input {...c} {...bind('periodo')} list="lista-periodos" maxLength={40} required />
            )}
          </Field>
          <datalist id="lista-periodos">
            {suggestions(opcoes.data?.dados.periodos).map((p) => (
              <option key={p} value={p} />
            ))}
          </datalist>
        </fieldset>

        <button type="submit" className="primary" disabled={register.isPending}>
          {register.isPending ? 'Cadastrando…' : 'Criar conta'}
        </button>
      </form>
    </Page>
  );
}
