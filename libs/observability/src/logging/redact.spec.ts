import { REDACTED, isSecretKey, redactLogObject, redactText } from './redact';

describe(isSecretKey.name, () => {
  it.each([
    'authorization',
    'Authorization',
    'private-token',
    'PRIVATE-TOKEN',
    'job-token',
    'cookie',
    'set-cookie',
    'x-gitlab-token',
    'private_token',
    'access_token',
    'job_token',
    'token',
    'password',
    'new_password',
    'api_key',
    'signing_key',
    'secret',
    'client_secret',
    'webhook_secret_token',
  ])('treats %s as secret', (key) => {
    expect(isSecretKey(key)).toBe(true);
  });

  it.each(['id', 'name', 'url', 'tokens_count', 'token_type_hint', 'keyboard', 'monkey', 'content-type', 'user-agent'])(
    'does not treat %s as secret',
    (key) => {
      expect(isSecretKey(key)).toBe(false);
    },
  );
});

describe(redactText.name, () => {
  it('masks secret query parameters and keeps the others', () => {
    expect(redactText('/api/v4/projects?private_token=glpat-abc&per_page=20&access_token=xyz&job_token=j')).toBe(
      `/api/v4/projects?private_token=${REDACTED}&per_page=20&access_token=${REDACTED}&job_token=${REDACTED}`,
    );
  });

  it('masks percent-encoded parameter names', () => {
    expect(redactText('/x?private%5Ftoken=abc')).toBe(`/x?private%5Ftoken=${REDACTED}`);
  });

  it('leaves text without secret parameters untouched', () => {
    expect(redactText('/api/v4/projects/1?page=2')).toBe('/api/v4/projects/1?page=2');
    expect(redactText('a = b')).toBe('a = b');
  });
});

describe(redactLogObject.name, () => {
  it('masks the credential headers whatever their case', () => {
    const out = redactLogObject({
      req: { headers: { authorization: 'Bearer abc', 'private-token': 'glpat', 'JOB-TOKEN': 'j', cookie: 'c', accept: '*/*' } },
      res: { headers: { 'set-cookie': ['a=b'] } },
    });
    expect(out).toEqual({
      req: { headers: { authorization: REDACTED, 'private-token': REDACTED, 'JOB-TOKEN': REDACTED, cookie: REDACTED, accept: '*/*' } },
      res: { headers: { 'set-cookie': REDACTED } },
    });
  });

  it('masks secret body fields at any depth, inside arrays too', () => {
    const out = redactLogObject({
      body: { name: 'hook', token: 't', password: 'p', deploy_key: 'k', nested: [{ client_secret: 's', url: 'https://x' }] },
    });
    expect(out).toEqual({
      body: { name: 'hook', token: REDACTED, password: REDACTED, deploy_key: REDACTED, nested: [{ client_secret: REDACTED, url: 'https://x' }] },
    });
  });

  it('masks secret query parameters inside strings and query objects', () => {
    expect(redactLogObject({ url: '/api/v4/user?private_token=abc', query: { private_token: 'abc', page: '1' } })).toEqual({
      url: `/api/v4/user?private_token=${REDACTED}`,
      query: { private_token: REDACTED, page: '1' },
    });
  });

  it('does not modify its input', () => {
    const input = { headers: { authorization: 'Bearer abc' } };
    redactLogObject(input);
    expect(input.headers.authorization).toBe('Bearer abc');
  });

  it('leaves errors and dates to the serializers and survives cycles', () => {
    const error = new Error('boom');
    const when = new Date(0);
    const cyclic: Record<string, unknown> = { name: 'a' };
    cyclic.self = cyclic;
    const out = redactLogObject({ err: error, when, cyclic });
    expect(out.err).toBe(error);
    expect(out.when).toBe(when);
    expect(out.cyclic).toEqual({ name: 'a', self: '[Circular]' });
  });

  it('keeps empty secret fields visible as empty', () => {
    expect(redactLogObject({ token: null, password: undefined })).toEqual({ token: null, password: undefined });
  });
});
