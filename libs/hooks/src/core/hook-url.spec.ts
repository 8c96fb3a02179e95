import { hookUrlProblem, MAX_HOOK_URL_LENGTH, redactHookUrl } from './hook-url';

describe(hookUrlProblem.name, () => {
  it.each(['http://example.com/hook', 'https://example.com:8443/a?b=c', 'http://127.0.0.1:9000/', 'http://[::1]:80/x', 'https://user:secret@example.com/hook'])(
    'accepts %s',
    (url) => {
      expect(hookUrlProblem(url)).toBeNull();
    },
  );

  it.each([
    ['ftp://example.com/', 'is blocked: Only allowed schemes are http, https'],
    ['javascript:alert(1)', 'is blocked: Only allowed schemes are http, https'],
    ['file:///etc/passwd', 'is blocked: Only allowed schemes are http, https'],
    ['not a url', 'is invalid'],
    ['example.com/hook', 'is invalid'],
    ['http://', 'is invalid'],
    [' http://example.com', 'is invalid'],
    ['http://exa mple.com', 'is invalid'],
    ['', "can't be blank"],
    [`http://example.com/${'a'.repeat(MAX_HOOK_URL_LENGTH)}`, `is too long (maximum is ${MAX_HOOK_URL_LENGTH} characters)`],
  ])('refuses %j', (url, problem) => {
    expect(hookUrlProblem(url)).toBe(problem);
  });
});

describe(redactHookUrl.name, () => {
  it('removes credentials and keeps the rest', () => {
    expect(redactHookUrl('https://user:secret@example.com/hook?a=1')).toBe('https://example.com/hook?a=1');
    expect(redactHookUrl('http://example.com/hook')).toBe('http://example.com/hook');
  });
});
