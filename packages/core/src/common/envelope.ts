import { z } from 'zod';

/** `{mensagem, dados}`: the success envelope of the Portuguese endpoints. */
export const envelope = <T extends z.ZodType>(dados: T) =>
  z.object({ mensagem: z.string(), dados });
