export const MAX_HOOK_URL_LENGTH = 2048;

/**
 * Why a hook URL is refused (the message under `url` in the validation error), or null when
 * it is usable: an absolute http(s) URL with a host. Credentials in the URL (basic auth) are
 * allowed, as GitLab allows them. Loopback and private addresses are not refused here: that is
 * the delivery's outbound policy.
 */
export function hookUrlProblem(url: string): string | null {
  if (url.trim() === '') return "can't be blank";
  if (url.length > MAX_HOOK_URL_LENGTH) return `is too long (maximum is ${MAX_HOOK_URL_LENGTH} characters)`;
  if (url !== url.trim() || /[\s\u0000-\u001f]/.test(url)) return 'is invalid';
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return 'is invalid';
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return 'is blocked: Only allowed schemes are http, https';
  if (parsed.hostname === '') return 'is invalid';
  return null;
}

/** The URL without its credentials, for events and logs. */
export function redactHookUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.username === '' && parsed.password === '') return url;
    parsed.username = '';
    parsed.password = '';
    return parsed.toString();
  } catch {
    return '[invalid url]';
  }
}
