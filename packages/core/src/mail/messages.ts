import type { MailMessage } from './outbox';

/** The service's e-mails, in Portuguese, each as plain text and HTML. */

const escapeHtml = (value: string) =>
  value.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!,
  );

const firstName = (nome: string) => nome.trim().split(/\s+/)[0] ?? nome;

function page(title: string, paragraphs: string[], action?: { label: string; url: string }) {
  const body = paragraphs.map((p) => `<p>${escapeHtml(p)}</p>`).join('\n');
  const button = action
    ? `<p><a href="${escapeHtml(action.url)}" style="display:inline-block;padding:10px 16px;background:#1d4ed8;color:#fff;text-decoration:none;border-radius:6px">${escapeHtml(action.label)}</a></p>\n<p style="font-size:12px;color:#555">Se o botão não funcionar, copie este endereço no navegador:<br>${escapeHtml(action.url)}</p>`
    : '';
  return `<!doctype html><html lang="pt-BR"><head><meta charset="utf-8"><title>${escapeHtml(title)}</title></head><body style="font-family:sans-serif;line-height:1.5">\n${body}\n${button}\n</body></html>`;
}

export interface Recipient {
  id: string;
  nome: string;
  email: string;
}

/** The password-reset link (valid for one hour, once). The token travels in the fragment. */
export function passwordResetMail(user: Recipient, link: string): MailMessage {
  const subject = 'Redefinição de senha';
  const lines = [
    `Olá, ${firstName(user.nome)}!`,
    'Recebemos um pedido para redefinir a senha da sua conta. Para escolher uma nova senha, abra o link abaixo. Ele vale por 1 hora e pode ser usado uma única vez.',
    'Se você não pediu a redefinição, ignore este e-mail: sua senha continua a mesma.',
  ];
  return {
    userId: user.id,
    to: user.email,
    subject,
    text: `${lines[0]}\n\n${lines[1]}\n\n${link}\n\n${lines[2]}\n`,
    html: page(subject, lines, { label: 'Redefinir senha', url: link }),
  };
}

/** A teacher's sign-up was approved by a site ADMIN. */
export function teacherApprovedMail(user: Recipient, loginUrl: string): MailMessage {
  const subject = 'Cadastro de professor aprovado';
  const lines = [
    `Olá, ${firstName(user.nome)}!`,
    'Seu cadastro de professor foi aprovado por um administrador. Você já pode entrar com o seu e-mail e a senha que escolheu.',
  ];
  return {
    userId: user.id,
    to: user.email,
    subject,
    text: `${lines[0]}\n\n${lines[1]}\n\n${loginUrl}\n`,
    html: page(subject, lines, { label: 'Entrar', url: loginUrl }),
  };
}
