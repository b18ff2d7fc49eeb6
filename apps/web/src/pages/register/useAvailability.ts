import { emailSchema, nicknameSchema } from '@campus/core/schemas';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useTRPC } from '../../lib/trpc';

function useDebounced<T>(value: T, ms = 400): T {
  const [debounced, setDebounced] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setDebounced(value), ms);
    return () => clearTimeout(timer);
  }, [value, ms]);
  return debounced;
}

/** "Verificando…", "disponível" or "já em uso"; nothing while the value is empty or malformed. */
export function availabilityNote(
  typed: string,
  asked: string,
  valid: boolean,
  query: { isFetching: boolean; data?: { dados: { disponivel: boolean } } | undefined },
  notes: { free: string; taken: string },
): string {
  if (!typed || !valid) return '';
  if (typed !== asked || query.isFetching || !query.data) return 'Verificando…';
  return query.data.dados.disponivel ? notes.free : notes.taken;
}

/** Live availability of a nickname and an e-mail while they are typed (debounced). */
export function useAvailability(nicknameTyped: string, emailTyped: string) {
  const trpc = useTRPC();
  const nickname = useDebounced(nicknameTyped.trim());
  const email = useDebounced(emailTyped.trim());
  // The API's own rules, so that availability is asked only for well-formed values.
  const nicknameValid = nicknameSchema.safeParse(nickname).success;
  const emailValid = emailSchema.safeParse(email).success;
  const nicknameCheck = useQuery(
    trpc.students.nicknameAvailable.queryOptions({ nickname }, { enabled: nicknameValid }),
  );
  const emailCheck = useQuery(
    trpc.students.emailAvailable.queryOptions({ email }, { enabled: emailValid }),
  );
  return {
    nickname: availabilityNote(nicknameTyped.trim(), nickname, nicknameValid, nicknameCheck, {
      free: 'Nickname disponível.',
      taken: 'Este nickname já está em uso.',
    }),
    email: availabilityNote(emailTyped.trim(), email, emailValid, emailCheck, {
      free: 'E-mail disponível.',
      taken: 'Este e-mail já está cadastrado.',
    }),
  };
}
