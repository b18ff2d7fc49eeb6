import { z } from 'zod';
import { envelope } from '../common/envelope';
import { isUf } from './localities';

/** A UF in any case, trimmed; the value is the upper-case UF ("sp" → "SP"). */
export const ufSchema = z
  .string({ error: 'obrigatório' })
  .trim()
  .toUpperCase()
  .refine(isUf, 'escolha um estado brasileiro (por exemplo, SP)')
  .meta({ description: 'Sigla da UF, em maiúsculas ou minúsculas', examples: ['SP'] });

export const estadoSchema = z
  .object({ sigla: z.string(), nome: z.string() })
  .meta({ id: 'Estado' });
export const cidadeSchema = z.object({ nome: z.string(), uf: z.string() }).meta({ id: 'Cidade' });

export const cidadesInput = z.object({ uf: ufSchema });

export const estadosResponse = envelope(z.array(estadoSchema));
export type EstadosResponse = z.infer<typeof estadosResponse>;
export const cidadesResponse = envelope(z.array(cidadeSchema));
export type CidadesResponse = z.infer<typeof cidadesResponse>;
