import { createECDH, randomBytes } from 'node:crypto';
import type { TestApp, TestUser } from '../support/app';
import { createEvent, createPost, generalBody } from '../support/feed';
import { createGroup, groupBody, join } from '../support/groups';
import { createMatch, matchBody } from '../support/matches';
import { registration } from '../support/students';
import { documentedOperations } from './support';

/** A browser's push subscription on an allowed push service, with real P-256 and auth keys. */
const pushSubscription = {
  endpoint: 'https://fcm.googleapis.com/fcm/send/fuzz-fixture',
  keys: {
    p256dh: createECDH('prime256v1').generateKeys('base64url'),
    auth: randomBytes(16).toString('base64url'),
  },
};

/** One request to a REST operation: path parameters, query string and JSON body. */
export interface RestInput {
  params: Record<string, string>;
  query: Record<string, string>;
  body?: Record<string, unknown>;
}

/**
 * Objects for the valid requests to point at, made over HTTP by `owner`: a post with a comment, an
 * EVENT post, a match and an example.
 */
export async function createFixtures(t: TestApp, owner: TestUser) {
  const post = await createPost(t, owner);
  const event = await createEvent(t, owner);
  const match = await createMatch(t, owner);
  const comment = (
    await t.request.post(`/post/${post.id}/comment`).set(owner.auth).send({ content: 'Oi' })
  ).body as { id: string };
  const example = (await t.request.post('/exemplos').set(owner.auth).send({ nome: 'Exemplo fixo' }))
    .body.dados as { id: string };
  // The comment by someone else notifies the owner: a notification to point at.
  const commenter = await t.createUser();
  await t.request.post(`/post/${post.id}/comment`).set(commenter.auth).send({ content: 'Olá' });
  const notification = (await t.request.get('/notifications').set(owner.auth)).body.data[0] as {
    id: string;
  };
  // A group `owner` is OWNER of, with a MEMBER and a pending request; and one of another user,
  // where `owner` has a pending request.
  const [member, asker] = [await t.createUser(), await t.createUser()];
  const group = await createGroup(t, owner);
  await join(t, group.id, owner, member);
  const request = (await t.request.post(`/group/${group.id}/requests`).set(asker.auth)).body as {
    id: string;
  };
  const otherGroup = await createGroup(t, asker);
  // The VAPID pair is made at its first use and kept: made here, before anything is counted.
  await t.request.get('/notifications/push/public-key');
  await t.request.post(`/group/${otherGroup.id}/requests`).set(owner.auth);
  return {
    owner,
    post,
    event,
    match,
    comment,
    example,
    notification,
    group,
    member,
    request,
    otherGroup,
  };
}
export type Fixtures = Awaited<ReturnType<typeof createFixtures>>;

/**
 * A request that every operation accepts (as an ADMIN, who may act on any object), keyed
 * `METHOD /path`. The security tests break one part of it at a time, so that the broken part is
 * the only reason for a refusal.
 */
export function validRequests(f: Fixtures): Record<string, RestInput> {
  const page = { page: '1', limit: '10' };
  const none = { params: {}, query: {} };
  const id = (value: string) => ({ params: { id: value }, query: {} });
  const requests: Record<string, RestInput> = {
    'POST /autenticacao/login': {
      ...none,
      body: { email: f.owner.email, senha: f.owner.password },
    },
    'POST /autenticacao/atualizar-token': { ...none, body: { refreshToken: 'a'.repeat(43) } },
    'POST /autenticacao/sair': { ...none, body: { refreshToken: 'a'.repeat(43) } },
    'GET /autenticacao/usuario-atual': none,
    'POST /exemplos': { ...none, body: { nome: 'Exemplo', descricao: 'Descrição' } },
    'GET /exemplos': { params: {}, query: page },
    'GET /exemplos/{id}': id(f.example.id),
    'POST /autenticacao/cadastro': { ...none, body: registration() },
    'POST /autenticacao/cadastro/professor': {
      ...none,
      body: (({
        curso: _c,
        periodo: _p,
        dataNascimento: _d,
        nacionalidade: _n,
        estado: _e,
        cidade: _ci,
        escolaridade: _es,
        ...rest
      }) => ({
        ...rest,
        departamento: 'Departamento de Física',
        siape: '1234567',
      }))(registration()),
    },
    'POST /autenticacao/recuperar-senha': { ...none, body: { email: f.owner.email } },
    'POST /autenticacao/redefinir-senha': {
      ...none,
      body: {
        token: 'a'.repeat(43),
        senha: 'nova-senha-forte-1',
        confirmacaoSenha: 'nova-senha-forte-1',
      },
    },
    // Well-formed, with a password that is not the caller's: nothing changes when it is admitted.
    'PATCH /autenticacao/senha': {
      ...none,
      body: { senhaAtual: 'nao-e-a-senha-1', novaSenha: 'nova-senha-forte-1' },
    },
    'PATCH /autenticacao/usuario-atual': { ...none, body: { curso: 'Física' } },
    'GET /autenticacao/meus-dados': none,
    'DELETE /autenticacao/conta': { ...none, body: { senha: 'nao-e-a-senha-1' } },
    'GET /autenticacao/alunos/nickname-disponivel': {
      params: {},
      query: { nickname: 'livre_nick' },
    },
    'GET /autenticacao/alunos/email-disponivel': {
      params: {},
      query: { email: 'livre@campus.test' },
    },
    'GET /autenticacao/alunos/nacionalidades': none,
    'GET /autenticacao/alunos/opcoes-academicas': none,
    'GET /autenticacao/alunos/localidades/estados': none,
    'GET /autenticacao/alunos/localidades/estados/{uf}/cidades': {
      params: { uf: 'SP' },
      query: {},
    },
    'GET /admin/usuarios': {
      params: {},
      query: { ...page, status: 'ATIVO', perfil: 'ALUNO', busca: 'user' },
    },
    'GET /admin/usuarios/{id}': id(f.owner.id),
    'PATCH /admin/usuarios/{id}/status': { ...id(f.owner.id), body: { status: 'ACTIVE' } },
    'POST /match': { ...none, body: matchBody(f.owner) },
    'GET /match': {
      params: {},
      query: { ...page, status: 'EM_BREVE', sport: 'FUTSAL', mine: 'true' },
    },
    'GET /match/{id}': id(f.match.id),
    'PATCH /match/{id}': { ...id(f.match.id), body: { title: 'Novo título' } },
    'DELETE /match/{id}': id(f.match.id),
    'POST /match/{id}/subscribe': id(f.match.id),
    'DELETE /match/{id}/unsubscribe': id(f.match.id),
    'POST /match/{id}/switch': id(f.match.id),
    'GET /match/sports': none,
    'POST /match/{id}/waitlist': id(f.match.id),
    'DELETE /match/{id}/waitlist': id(f.match.id),
    'GET /match/{id}/calendar.ics': id(f.match.id),
    'GET /post/{id}/calendar.ics': id(f.event.id),
    'GET /post': {
      params: {},
      query: { ...page, q: 'grupo', type: 'GENERAL', following: 'false', upcoming: 'false' },
    },
    'GET /post/{id}/comment': { params: { id: f.post.id }, query: page },
    'GET /post/{id}/like': { params: { id: f.post.id }, query: page },
    'GET /post/{id}/attendance': { params: { id: f.event.id }, query: page },
    'PATCH /comment/{id}': { ...id(f.comment.id), body: { content: 'Editado' } },
    'POST /comment/{id}/report': { ...id(f.comment.id), body: { reason: 'Spam' } },
    'GET /admin/denuncias': { params: {}, query: { ...page, status: 'PENDENTE' } },
    'PATCH /admin/denuncias/{tipo}/{id}': {
      params: { tipo: 'COMENTARIO', id: f.comment.id },
      query: {},
      body: { acao: 'DESCARTAR' },
    },
    'POST /post': { ...none, body: generalBody(f.owner) },
    'GET /post/{id}': id(f.post.id),
    'PATCH /post/{id}': { ...id(f.post.id), body: { title: 'Edited' } },
    'DELETE /post/{id}': id(f.post.id),
    'DELETE /comment/{id}': id(f.comment.id),
    'POST /post/{id}/comment': { ...id(f.post.id), body: { content: 'Comentário' } },
    'POST /post/{id}/like': id(f.event.id),
    'DELETE /post/{id}/like': id(f.event.id),
    'POST /post/{id}/attendance': id(f.event.id),
    'DELETE /post/{id}/attendance': id(f.event.id),
    'POST /post/{id}/report': { ...id(f.post.id), body: { reason: 'Spam' } },
    'GET /notifications': { params: {}, query: { ...page, unread: 'true' } },
    'GET /notifications/unread-count': none,
    'PATCH /notifications/{id}/read': id(f.notification.id),
    'POST /notifications/read-all': none,
    'GET /notifications/stream': none,
    'GET /match/{id}/stream': id(f.match.id),
    'GET /post/{id}/stream': id(f.post.id),
    'GET /streams/feed': none,
    'GET /group': {
      params: {},
      query: { ...page, q: 'grupo', groupType: 'ATHLETIC', verified: 'false', mine: 'true' },
    },
    'POST /group': { ...none, body: groupBody() },
    'GET /group/{id}': id(f.group.id),
    'PATCH /group/{id}': { ...id(f.group.id), body: { description: 'Nova descrição' } },
    'DELETE /group/{id}': id(f.group.id),
    'GET /group/{id}/requests': { params: { id: f.group.id }, query: page },
    'POST /group/{id}/requests': id(f.otherGroup.id),
    'POST /group/{id}/requests/{requestId}/approve': {
      params: { id: f.group.id, requestId: f.request.id },
      query: {},
    },
    'POST /group/{id}/requests/{requestId}/reject': {
      params: { id: f.group.id, requestId: f.request.id },
      query: {},
    },
    'DELETE /group/{id}/requests/mine': id(f.otherGroup.id),
    'GET /group/{id}/members': { params: { id: f.group.id }, query: page },
    'PATCH /group/{id}/members/{userId}': {
      params: { id: f.group.id, userId: f.member.id },
      query: {},
      body: { role: 'ADMIN' },
    },
    'DELETE /group/{id}/members/{userId}': {
      params: { id: f.group.id, userId: f.member.id },
      query: {},
    },
    'POST /group/{id}/follow': id(f.group.id),
    'DELETE /group/{id}/follow': id(f.group.id),
    'GET /notifications/push/public-key': none,
    'POST /notifications/push/subscriptions': { ...none, body: pushSubscription },
    'DELETE /notifications/push/subscriptions': {
      ...none,
      body: { endpoint: pushSubscription.endpoint },
    },
    'GET /notifications/preferences': none,
    'PATCH /notifications/preferences': {
      ...none,
      body: { types: { POST_COMMENT: { push: false } } },
    },
    // Multipart operations: a JSON body is refused (415) whatever it holds, as it must be.
    'POST /media': none,
    'DELETE /media/{id}': id(f.post.id),
    'PUT /autenticacao/usuario-atual/avatar': none,
    'DELETE /autenticacao/usuario-atual/avatar': none,
    'PUT /group/{id}/logo': id(f.group.id),
    'DELETE /group/{id}/logo': id(f.group.id),
  };
  const missing = documentedOperations.filter((op) => !requests[op.key]).map((op) => op.key);
  if (missing.length) throw new Error(`no valid request for ${missing.join(', ')}`);
  return requests;
}
