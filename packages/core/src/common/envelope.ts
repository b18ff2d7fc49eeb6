import { z } from 'zod';

/** `{mensagem, dados}`: the success envelope of the Portuguese endpoints. */
export const envelope = <T extends z.ZodType>(dados: T) =>
  z.object({ mensagem: z.string(), dados });

export const uuidParam = z.object({ id: z.uuid('deve ser um UUID') });
