import { useState } from 'react';
import { formMessage } from '../lib/errors';

/**
 * A page's two announcement lines (render `status` in a StatusMessage and `error` in an
 * ErrorMessage) and `act`, which clears both, runs an action and announces how it went: `done`
 * (or `done(result)`) on success, the error's message otherwise.
 */
export function useAnnouncements() {
  const [status, setStatus] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);

  async function act<T>(action: () => Promise<T>, done: string | ((result: T) => string)) {
    setError(null);
    setStatus(null);
    try {
      const result = await action();
      setStatus(typeof done === 'string' ? done : done(result));
    } catch (failure) {
      setError(formMessage(failure));
    }
  }

  return { status, setStatus, error, setError, act };
}
