import type { z } from 'zod';
import { pt } from 'zod/locales';

/*
 * Zod issues in Portuguese (browser-safe: exported by `@campus/core/schemas`). Apart from the
 * reasons' copy (messages.ts), so that a page that only shows an API's reason does not carry
 * zod's locale in its JS.
 */

const ptLocale = pt().localeError;
const plural = (n: number | bigint) => (Number(n) === 1 ? '' : 's');

/**
 * A zod issue in Portuguese, from its structure (code, bounds, format), not from its message:
 * the feed and match schemas speak English to the API's clients, and a form shows Portuguese.
 * The house phrasing for the usual cases ("deve ter no máximo 200 caracteres"); anything else in
 * zod's own Portuguese locale.
 */
export function portugueseIssue(issue: z.core.$ZodIssue): string {
  switch (issue.code) {
    case 'too_small':
      if (issue.origin === 'string')
        return Number(issue.minimum) <= 1
          ? 'obrigatório'
          : `deve ter no mínimo ${issue.minimum} caractere${plural(issue.minimum)}`;
      if (issue.origin === 'number') return `deve ser no mínimo ${issue.minimum}`;
      break;
    case 'too_big':
      if (issue.origin === 'string') return `deve ter no máximo ${issue.maximum} caracteres`;
      if (issue.origin === 'number') return `deve ser no máximo ${issue.maximum}`;
      break;
    case 'invalid_type':
      if (issue.expected === 'string') return 'obrigatório';
      if (issue.expected === 'number') return 'deve ser um número';
      if (issue.expected === 'int') return 'deve ser um número inteiro';
      break;
    case 'invalid_format':
      if (issue.format === 'datetime') return 'data e hora inválidas';
      if (issue.format === 'uuid') return 'identificador inválido';
      if (issue.format === 'email') return 'e-mail inválido';
      break;
  }
  const message = ptLocale(issue as Parameters<typeof ptLocale>[0]);
  return (typeof message === 'string' ? message : message?.message) ?? 'valor inválido';
}
