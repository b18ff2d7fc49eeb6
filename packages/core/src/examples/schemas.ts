import { z } from 'zod';
import { envelope } from '../common/envelope';
import { dadosListResponse, pageQuery } from '../common/pagination';
import { LIMITS } from '../common/limits';

export const createExampleInput = z
  .object({
    nome: z
      .string({ error: 'obrigatório' })
      .trim()
      .min(LIMITS.example.nome.min, `deve ter no mínimo ${LIMITS.example.nome.min} caracteres`)
      .max(LIMITS.example.nome.max, `deve ter no máximo ${LIMITS.example.nome.max} caracteres`),
    descricao: z
      .string({ error: 'deve ser um texto' })
      .max(
        LIMITS.example.descricao.max,
        `deve ter no máximo ${LIMITS.example.descricao.max} caracteres`,
      )
      .optional(),
  })
  .meta({ examples: [{ nome: 'Primeiro exemplo', descricao: 'Um exemplo de cadastro' }] });
export type CreateExampleInput = z.infer<typeof createExampleInput>;

export const listExamplesInput = pageQuery(100);

export const exampleIdInput = z.object({ id: z.string().min(1) });

export const exampleSchema = z
  .object({
    id: z.uuid(),
    nome: z.string(),
    descricao: z.string().optional(),
    createdAt: z.iso.datetime(),
    updatedAt: z.iso.datetime(),
  })
  .meta({ id: 'Example' });
export type Example = z.infer<typeof exampleSchema>;

export const exampleResponse = envelope(exampleSchema).meta({ id: 'ExampleResponse' });
export const exampleListResponse = dadosListResponse(exampleSchema).meta({ id: 'ExampleList' });
