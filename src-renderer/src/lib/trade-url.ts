/**
 * The trade offer URL rule of the bridge contract (`tradeUrl` in the API
 * field rules), restated here because the renderer imports no runtime code from
 * the main side. It answers with the first reason a URL fails, so the input
 * can say what to fix while the trader types; a test keeps it in step with the
 * contract's rule.
 */
export function tradeUrlProblem(value: string): string | null {
  const text = value.trim();
  if (text === '') return 'Paste the account’s trade offer URL.';
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return 'This is not a URL.';
  }
  if (url.protocol !== 'https:') return 'It must start with https://.';
  if (url.username !== '' || url.password !== '') return 'It must not carry a user name or password.';
  if (url.pathname !== '/tradeoffer/new/') return 'The path must be /tradeoffer/new/.';
  if (url.hash !== '') return 'It must not end with a #fragment.';
  const keys = [...url.searchParams.keys()].sort();
  if (!keys.includes('partner')) return 'It needs partner=<digits>.';
  if (!keys.includes('token')) return 'It needs token=<token>.';
  if (keys.length !== 2 || keys[0] !== 'partner' || keys[1] !== 'token') {
    return 'It must carry only partner and token, once each.';
  }
  if (!/^\d{1,20}$/.test(url.searchParams.get('partner') ?? '')) return 'partner must be digits only.';
  if (!/^[A-Za-z0-9_-]{1,64}$/.test(url.searchParams.get('token') ?? '')) {
    return 'token must be letters, digits, - or _ (up to 64).';
  }
  return null;
}

export function isTradeUrl(value: string): boolean {
  return tradeUrlProblem(value) === null;
}
