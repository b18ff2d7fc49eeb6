import { registerStudentInput } from '@campus/core/schemas';
import { useMutation } from '@tanstack/react-query';
import { ErrorMessage } from '../../components/Alert';
import { InputField, SelectField, type InputSpec } from '../../components/InputField';
import { Page } from '../../components/Page';
import { useFormValues, useSubmit } from '../../components/useForm';
import { sameNames } from '../../lib/errors';
import { nextReason, safeNext, withNext } from '../../lib/next';
import { Link, navigate, useLocation } from '../../lib/router';
import { useTRPC, type RouterInputs } from '../../lib/trpc';
import { checked } from '../../lib/validate';
import { useSession } from '../../session/SessionProvider';
import {
  ACCOUNT_FIELDS,
  birthDateField,
  EDUCATION_FIELDS,
  INITIAL,
  NACIONALIDADE_FIELD,
  type RegisterField,
} from './fields';
import { useAvailability } from './useAvailability';
import { useRegisterOptions } from './useRegisterOptions';

const FIELDS = sameNames(...Object.keys(INITIAL));

export function RegisterPage() {
  const trpc = useTRPC();
  const { login } = useSession();
  const form = useFormValues(INITIAL);
  const { values } = form;
  const { errors, setErrors, message, formRef, handle } = useSubmit(FIELDS);
  const options = useRegisterOptions(values.estado);
  const availability = useAvailability(values.nickname, values.email);
  const register = useMutation(trpc.students.register.mutationOptions());
  // A shared link opened before signing up (`?next=`): the new account lands there.
  const next = useLocation().query.get('next');
  const reason = nextReason(next, 'Crie sua conta');

  const submit = handle(async () => {
    // Checked here with the API's own schema; the API checks again.
    const input = checked(registerStudentInput, values, 'pt');
    await register.mutateAsync(input as RouterInputs['students']['register']);
    // Registered: a failed login only sends to the login page.
    await login(values.email, values.senha).then(
      () => navigate(safeNext(next) ?? '/feed?bemvindo=1', { replace: true }),
      () => navigate(withNext('/entrar', next, { cadastro: 'ok' }), { replace: true }),
    );
  });

  /** Editing a field clears its error (and a new state clears the city). */
  const change = (name: RegisterField) => (event: { target: { value: string } }) => {
    const value = event.target.value;
    if (name === 'estado') form.setValues((current) => ({ ...current, estado: value, cidade: '' }));
    else form.set(name, value);
    const cleared = name === 'estado' ? ['estado', 'cidade'] : [name];
    if (cleared.some((field) => errors[field]))
      setErrors((current) =>
        Object.fromEntries(Object.entries(current).filter(([field]) => !cleared.includes(field))),
      );
  };
  const input = (spec: InputSpec & { name: RegisterField }, suggestions?: readonly string[]) => (
    <InputField
      key={spec.name}
      spec={spec}
      value={values[spec.name]}
      onChange={change(spec.name)}
      error={errors[spec.name]}
      status={
        spec.name === 'nickname' || spec.name === 'email' ? availability[spec.name] : undefined
      }
      suggestions={suggestions}
    />
  );
  const select = (name: RegisterField, label: string) => ({
    name,
    label,
    value: values[name],
    onChange: change(name),
    error: errors[name],
  });

  return (
    <Page title="Criar conta de estudante">
      {reason ? <p className="alert alert--info">{reason}</p> : null}
      <p>
        Já tem conta? <Link to={withNext('/entrar', next)}>Entrar</Link>. Campos marcados com * são
        obrigatórios.
      </p>
      <ErrorMessage>{message}</ErrorMessage>
      <form ref={formRef} onSubmit={submit} noValidate className="card form-grid">
        <fieldset>
          <legend>Conta</legend>
          {ACCOUNT_FIELDS.map((spec) => input(spec))}
        </fieldset>

        <fieldset>
          <legend>Sobre você</legend>
          {input(birthDateField(new Date().toISOString().slice(0, 10)))}
          {input(NACIONALIDADE_FIELD, options.nacionalidades)}
          <SelectField
            {...select('estado', 'Estado')}
            placeholder="Selecione o estado"
            options={options.estados}
          />
          <SelectField
            {...select('cidade', 'Cidade')}
            hint={
              values.estado
                ? undefined
                : 'Escolha o estado primeiro: a lista de cidades segue o estado.'
            }
            placeholder={options.cidadesLoading ? 'Carregando cidades…' : 'Selecione a cidade'}
            options={options.cidades}
            disabled={!values.estado || options.cidadesPending}
          />
        </fieldset>

        <fieldset>
          <legend>Formação</legend>
          <SelectField
            {...select('escolaridade', 'Escolaridade')}
            placeholder="Selecione"
            options={options.escolaridades}
          />
          {EDUCATION_FIELDS.map((spec) => input(spec, options.suggestions[spec.name]))}
        </fieldset>

        <button type="submit" className="primary" disabled={register.isPending}>
          {register.isPending ? 'Cadastrando…' : 'Criar conta'}
        </button>
      </form>
    </Page>
  );
}
