/**
 * The server shell's sign-in and setup pages (/login, /setup): no framework,
 * no inline script (the desk's CSP holds here too). Each form posts JSON with
 * the page's CSRF token (a meta element the server writes, matching the
 * form's cookie); the setup link's token is in the URL's fragment, which no
 * server or proxy log ever sees.
 */
import '../src/styles/theme.css';
import '../src/styles/base.css';
import './access.css';
import { INSECURE_REMOTE_WARNING, PASSWORD_MIN_CHARS, passwordProblem } from '../../src-shared/sign-in.ts';

const meta = (name: string) => document.querySelector<HTMLMetaElement>(`meta[name="${name}"]`)?.content ?? '';
const byId = <T extends HTMLElement>(id: string) => document.getElementById(id) as T;

const formToken = meta('desk-form');
const passwordSet = meta('desk-password') === 'set';
const setupToken = location.hash.replace(/^#/, '');

if (meta('desk-transport') === 'insecure') {
  const warning = byId<HTMLParagraphElement>('insecure');
  warning.textContent = INSECURE_REMOTE_WARNING;
  warning.hidden = false;
}

function notice(text: string, signInLink: boolean): void {
  byId<HTMLParagraphElement>('notice-text').textContent = text;
  byId<HTMLParagraphElement>('notice-link').hidden = !signInLink;
  byId<HTMLDivElement>('notice').hidden = false;
}

function say(target: HTMLElement, text: string, error = true): void {
  target.textContent = text;
  target.classList.toggle('error', error);
}

/** Posts the form; null once signed in (the desk opens), else the sentence to show. */
async function post(path: '/login' | '/setup', body: object): Promise<string | null> {
  let res: Response;
  try {
    res = await fetch(path, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-csrf-token': formToken },
      body: JSON.stringify(body),
      credentials: 'same-origin',
    });
  } catch {
    return 'The desk did not answer. Is it running?';
  }
  if (res.ok) {
    // The screen the trader was sent here from (a redirect keeps its #/view); never the setup link's token.
    location.replace(path === '/login' ? `/${location.hash}` : '/');
    return null;
  }
  const answer = (await res.json().catch(() => ({}))) as { error?: string; retryAfterSeconds?: number };
  if (res.status === 429) {
    const minutes = Math.max(1, Math.ceil((answer.retryAfterSeconds ?? 60) / 60));
    return `Too many wrong passwords from this address: try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`;
  }
  return answer.error ?? `The desk refused (status ${res.status}).`;
}

function showLogin(): void {
  const form = byId<HTMLFormElement>('login');
  const password = byId<HTMLInputElement>('password');
  const message = byId<HTMLParagraphElement>('login-message');
  form.hidden = false;
  password.focus();
  form.addEventListener('submit', (e) => {
    e.preventDefault();
    if (password.value === '') return say(message, 'Type the password.');
    say(message, 'Signing in…', false);
    void post('/login', { password: password.value }).then((problem) => {
      if (problem === null) return;
      say(message, problem);
      password.select();
    });
  });
}

function showSetup(): void {
  const form = byId<HTMLFormElement>('setup');
  const next = byId<HTMLInputElement>('new-password');
  const repeat = byId<HTMLInputElement>('repeat-password');
  const message = byId<HTMLParagraphElement>('setup-message');
  byId<HTMLParagraphElement>('setup-rule').textContent = `At least ${PASSWORD_MIN_CHARS} characters.`;
  form.hidden = false;
  next.focus();
  form.addEventListener('submit', (e) => {
    e.preventDefault();
    const problem = passwordProblem(next.value, repeat.value);
    if (problem) return say(message, problem);
    say(message, 'Setting the password…', false);
    void post('/setup', { token: setupToken, password: next.value }).then((refusal) => {
      if (refusal !== null) say(message, refusal);
    });
  });
}

if (location.pathname === '/setup') {
  if (passwordSet) notice('A password is set already.', true);
  else if (setupToken === '') notice('Open the whole setup link the desk printed in its log: the part after # is missing.', false);
  else showSetup();
} else if (!passwordSet) {
  notice('No password is set yet. Open the setup link the desk printed in its log; it works once, within 15 minutes of the start. Restart the desk for a new one.', false);
} else {
  showLogin();
}
