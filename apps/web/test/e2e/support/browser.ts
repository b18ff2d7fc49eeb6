import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  chromium,
  type Browser,
  type BrowserContext,
  type Locator,
  type Page,
} from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';
import { checkAccessibility, watchAccessibility } from './axe';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from './chromium';

export const SCREENSHOTS_DIR = fileURLToPath(
  new URL('../../../test-results/screenshots/', import.meta.url),
);

export function launchBrowser(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS, headless: true });
}

/** A Chromium for the enclosing describe, launched before its tests and closed after: `browser()`. */
export function onBrowser(): () => Browser {
  let browser: Browser | undefined;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(() => browser?.close());
  return () => browser!;
}

/**
 * A fresh browser profile (own localStorage): one person. Phone-sized when asked. Every state its
 * page visits is checked with axe-core (support/axe.ts): a violation fails the test.
 */
export async function newPage(browser: Browser, baseURL: string, { phone = false } = {}) {
  const context: BrowserContext = await browser.newContext({
    baseURL,
    locale: 'pt-BR',
    timezoneId: 'America/Sao_Paulo',
    viewport: phone ? { width: 390, height: 844 } : { width: 1280, height: 900 },
    ...(phone ? { isMobile: true, hasTouch: true, deviceScaleFactor: 2 } : {}),
  });
  context.setDefaultTimeout(15_000);
  const page = await context.newPage();
  watchAccessibility(page);
  return { context, page };
}

/**
 * A picture under apps/web/test-results/screenshots/<name>.png: the full page, or what the
 * screen shows (`screen: true`, for a phone with its fixed navigation).
 */
export async function screenshot(page: Page, name: string, { screen = false } = {}) {
  await checkAccessibility(page);
  mkdirSync(SCREENSHOTS_DIR, { recursive: true });
  await page.screenshot({ path: join(SCREENSHOTS_DIR, `${name}.png`), fullPage: !screen });
}

/** Waits until the locator is visible (playwright-core has no `expect`). */
export const visible = (locator: Locator) => locator.first().waitFor({ state: 'visible' });
/** Waits until the locator is in the page (e.g. an <option>, which never counts as visible). */
export const present = (locator: Locator) => locator.first().waitFor({ state: 'attached' });

export interface Student {
  nome: string;
  nickname: string;
  email: string;
  senha: string;
}

let serial = 0;
/** A student nobody has registered yet (nickname: lowercase letters, digits and _). */
export function uniqueStudent(prefix = 'aluno'): Student {
  const id = `${Date.now().toString(36)}${(serial++).toString(36)}`;
  return {
    nome: `${prefix[0]!.toUpperCase()}${prefix.slice(1)} ${id}`,
    nickname: `${prefix}_${id}`,
    email: `${prefix}.${id}@campus.test`,
    senha: 'senha-e2e-123',
  };
}

/** Registers a student straight through the REST API (for the extra people of a flow). */
export async function registerViaApi(baseUrl: string, student: Student) {
  const response = await fetch(`${baseUrl}/autenticacao/cadastro`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      ...student,
      confirmacaoSenha: student.senha,
      instituicao: 'Universidade de São Paulo (USP)',
      curso: 'Engenharia de Computação',
      periodo: '3º período',
      dataNascimento: '2003-05-17',
      nacionalidade: 'Brasileira',
      estado: 'SP',
      cidade: 'São Paulo',
      escolaridade: 'Graduação',
    }),
  });
  if (response.status !== 201)
    throw new Error(`registration failed: ${response.status} ${await response.text()}`);
  return student;
}

/** Logs in through the login page and waits for the feed. */
export async function loginViaUi(page: Page, email: string, senha: string) {
  await page.goto('/entrar');
  await page.getByLabel('E-mail').fill(email);
  await page.getByLabel('Senha', { exact: true }).fill(senha);
  await page.getByRole('button', { name: 'Entrar', exact: true }).click();
  await page.waitForURL('**/feed');
}

/** A new browser profile with this student logged in. */
export async function sessionFor(
  browser: Browser,
  baseUrl: string,
  student: { email: string; senha: string },
) {
  const session = await newPage(browser, baseUrl);
  await loginViaUi(session.page, student.email, student.senha);
  return session;
}

/** An access token straight from the REST login (valid 5 s in these tests: use it at once). */
export async function apiLogin(baseUrl: string, student: { email: string; senha: string }) {
  const response = await fetch(`${baseUrl}/autenticacao/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: student.email, senha: student.senha }),
  });
  if (response.status !== 200)
    throw new Error(`login failed: ${response.status} ${await response.text()}`);
  const { dados } = (await response.json()) as {
    dados: { accessToken: string; refreshToken: string; usuario: { id: string; nickname: string } };
  };
  return dados;
}

/** A REST call with a bearer token; throws unless the status is the expected one. */
export async function apiCall(
  baseUrl: string,
  token: string,
  method: string,
  path: string,
  body: unknown,
  expected: number,
) {
  const response = await fetch(`${baseUrl}${path}`, {
    method,
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    body: body === undefined ? null : JSON.stringify(body),
  });
  if (response.status !== expected)
    throw new Error(`${method} ${path}: ${response.status} ${await response.text()}`);
  return response.status === 204 ? undefined : ((await response.json()) as Record<string, unknown>);
}

/** A GENERAL post of `student`, created through the REST API: its answer (`id`, …). */
export async function postViaApi(baseUrl: string, student: Student, title: string) {
  const { accessToken: token, usuario } = await apiLogin(baseUrl, student);
  const body = { title, type: 'GENERAL', author: usuario.nickname, authorId: usuario.id };
  return (await apiCall(baseUrl, token, 'POST', '/post', body, 201))!;
}

/** The bottom navigation's account item, named after who is logged in. */
export const accountLink = (page: Page, nickname: string) =>
  page.getByRole('link', { name: `Conta de @${nickname}` });
