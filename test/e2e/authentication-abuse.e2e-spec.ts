import { request as httpRequest } from 'node:http';
import { api, createUserWithToken, startTestGateway, TestGateway } from './support/test-gateway';

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: any;
}

const RIGHT = 'secret-password-1';
const INVALID_GRANT =
  'The provided authorization grant is invalid, expired, revoked, does not match the redirection URI used in the authorization request, or was issued to another client.';
const GIT_DENIED =
  "HTTP Basic: Access denied. If a password was provided for Git authentication, the password was incorrect or you're required to use a token instead of a password.\n";

/**
 * Password guessing on every door that takes a user's password (web sign-in, OAuth password
 * grant, git HTTP Basic): GitLab's account lockout (10 failures lock for 10 minutes) and the
 * protected paths throttle (10 requests a minute per IP). Each scenario sends from its own
 * loopback source address (127.0.0.x, all to the gateway on 127.0.0.1), so that the per-IP
 * throttle of one does not meet another's requests.
 */
describe('Authentication abuse', () => {
  let gw: TestGateway;
  let nextAddress = 10;

  /** A client whose requests come from its own loopback address. */
  const client = () => {
    const localAddress = `127.0.0.${nextAddress++}`;
    return (method: string, path: string, options: { headers?: Record<string, string>; json?: unknown } = {}): Promise<Answer> =>
      new Promise((resolve, reject) => {
        const url = new URL(path, gw.baseUrl);
        const body = options.json === undefined ? undefined : JSON.stringify(options.json);
        const headers: Record<string, string> = { ...options.headers, ...(body === undefined ? {} : { 'content-type': 'application/json' }) };
        const req = httpRequest({ host: '127.0.0.1', port: url.port, path: url.pathname + url.search, method, headers, localAddress, agent: false }, (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (chunk: Buffer) => chunks.push(chunk));
          res.on('end', () => {
            const text = Buffer.concat(chunks).toString('utf8');
            let parsed: unknown = text;
            try {
              parsed = text ? JSON.parse(text) : undefined;
            } catch {
              parsed = text;
            }
            resolve({ status: res.statusCode ?? 0, headers: res.headers, body: parsed });
          });
          res.on('error', reject);
        });
        req.on('error', reject);
        req.end(body);
      });
  };

  const doors = (send: ReturnType<typeof client>) => ({
    signIn: (login: string, password: string) => send('POST', '/users/sign_in', { json: { user: { login, password } } }),
    grant: (username: string, password: string) => send('POST', '/oauth/token', { json: { grant_type: 'password', username, password } }),
    git: (login: string, password: string, project: string) =>
      send('GET', `/${project}.git/info/refs?service=git-upload-pack`, {
        headers: { authorization: `Basic ${Buffer.from(`${login}:${password}`).toString('base64')}` },
      }),
  });

  const asAdmin = async (userId: number) => (await api(gw.baseUrl, 'GET', `/api/v4/users/${userId}`, { token: gw.rootToken })).body;
  const lockRow = async (userId: number) =>
    (
      (await gw.dataSource.query('SELECT failed_attempts, locked_at FROM users WHERE id = $1', [userId])) as Array<{
        failed_attempts: number;
        locked_at: Date | null;
      }>
    )[0];
  /** Time passing: the lock (and the failures) as if they had happened `minutes` earlier. */
  const age = (userId: number, minutes: number) =>
    gw.dataSource.query(`UPDATE users SET locked_at = locked_at - make_interval(mins => $2) WHERE id = $1`, [userId, minutes]);
  const setThrottle = async (settings: Record<string, unknown>) => {
    const res = await api(gw.baseUrl, 'PUT', '/api/v4/application/settings', { token: gw.rootToken, body: settings });
    expect(res.status).toBe(200);
  };
  const newUser = async (username: string) => {
    const user = await createUserWithToken(gw, username);
    const project = await api(gw.baseUrl, 'POST', '/api/v4/projects', {
      token: user.token,
      body: { name: 'repo', visibility: 'private', initialize_with_readme: true },
    });
    expect(project.status).toBe(201);
    return { ...user, project: project.body.path_with_namespace as string };
  };

  beforeAll(async () => {
    gw = await startTestGateway('auth-abuse');
  }, 60_000);

  afterAll(async () => {
    await gw?.close();
  });

  describe('account lockout', () => {
    // Each scenario makes more than 10 password requests from one address: lift the per-IP
    // throttle here (its own tests below put GitLab's default back).
    beforeAll(() => setThrottle({ throttle_protected_paths_requests_per_period: 1000 }));

    it('locks after 10 wrong passwords on the web sign-in; the right one is refused while locked; time unlocks', async () => {
      const user = await newUser('sid');
      const { signIn, grant, git } = doors(client());
      for (let attempt = 1; attempt <= 9; attempt++) {
        const wrong = await signIn('sid', `wrong-${attempt}`);
        expect({ status: wrong.status, body: wrong.body }).toEqual({ status: 401, body: { message: '401 Unauthorized' } });
      }
      expect((await asAdmin(user.id)).locked).toBe(false);
      expect(await lockRow(user.id)).toMatchObject({ failed_attempts: 9, locked_at: null });

      const tenth = await signIn('sid', 'wrong-10');
      expect({ status: tenth.status, body: tenth.body }).toEqual({ status: 401, body: { message: 'Your account is locked.' } });
      const right = await signIn('SID', RIGHT);
      expect({ status: right.status, body: right.body }).toEqual({ status: 401, body: { message: 'Your account is locked.' } });
      expect(right.headers['set-cookie']).toBeUndefined();

      // The lock is the account's: the other password doors refuse the right password too,
      // while the user's tokens keep working (GitLab locks the password, not the tokens).
      expect((await grant('sid', RIGHT)).body).toEqual({ error: 'invalid_grant', error_description: INVALID_GRANT });
      const byGit = await git('sid', RIGHT, user.project);
      expect({ status: byGit.status, body: byGit.body }).toEqual({ status: 401, body: GIT_DENIED });
      expect((await api(gw.baseUrl, 'GET', '/api/v4/user', { token: user.token })).body).toMatchObject({ username: 'sid', locked: true });

      // Administrators see the lock (GitLab's `locked`, from `access_locked?`).
      const seen = await asAdmin(user.id);
      expect(seen).toMatchObject({ id: user.id, state: 'active', locked: true });
      const listed = await api(gw.baseUrl, 'GET', '/api/v4/users?username=sid', { token: gw.rootToken });
      expect(listed.body[0]).toMatchObject({ username: 'sid', locked: true });

      // Nine minutes later it is still locked; at ten it is not, and the right password works.
      await age(user.id, 9);
      expect((await signIn('sid', RIGHT)).body).toEqual({ message: 'Your account is locked.' });
      await age(user.id, 1);
      expect((await asAdmin(user.id)).locked).toBe(false);
      const after = await signIn('sid', RIGHT);
      expect(after.status).toBe(201);
      expect(after.body).toMatchObject({ username: 'sid', locked: false });
      expect(await lockRow(user.id)).toEqual({ failed_attempts: 0, locked_at: null });
    });

    it('locks after 10 wrong passwords on the OAuth password grant', async () => {
      const user = await newUser('otto');
      const { signIn, grant } = doors(client());
      for (let attempt = 1; attempt <= 10; attempt++) {
        const wrong = await grant('otto', `wrong-${attempt}`);
        expect({ status: wrong.status, body: wrong.body }).toEqual({ status: 400, body: { error: 'invalid_grant', error_description: INVALID_GRANT } });
      }
      const right = await grant('otto@example.com', RIGHT);
      expect({ status: right.status, body: right.body }).toEqual({ status: 400, body: { error: 'invalid_grant', error_description: INVALID_GRANT } });
      expect((await signIn('otto', RIGHT)).body).toEqual({ message: 'Your account is locked.' });
      expect((await asAdmin(user.id)).locked).toBe(true);

      await age(user.id, 10);
      const granted = await grant('otto', RIGHT);
      expect(granted.status).toBe(200);
      expect(granted.body).toMatchObject({ token_type: 'Bearer', scope: 'api' });
      expect((await api(gw.baseUrl, 'GET', '/api/v4/user', { headers: { Authorization: `Bearer ${granted.body.access_token}` } })).body.username).toBe('otto');
    });

    it('locks after 10 wrong passwords over git HTTP Basic', async () => {
      const user = await newUser('gita');
      const { signIn, git } = doors(client());
      const before = await git('gita', RIGHT, user.project);
      expect(before.status).toBe(200);
      for (let attempt = 1; attempt <= 10; attempt++) {
        const wrong = await git('gita', `wrong-${attempt}`, user.project);
        expect({ status: wrong.status, body: wrong.body }).toEqual({ status: 401, body: GIT_DENIED });
        expect(wrong.headers['www-authenticate']).toBe('Basic realm="Service"');
      }
      const right = await git('gita', RIGHT, user.project);
      expect({ status: right.status, body: right.body }).toEqual({ status: 401, body: GIT_DENIED });
      expect((await signIn('gita', RIGHT)).body).toEqual({ message: 'Your account is locked.' });
      expect((await asAdmin(user.id)).locked).toBe(true);
      // A personal access token is not a password: it still clones.
      expect((await git('gita', user.token, user.project)).status).toBe(200);

      await age(user.id, 10);
      expect((await git('gita', RIGHT, user.project)).status).toBe(200);
      expect(await lockRow(user.id)).toEqual({ failed_attempts: 0, locked_at: null });
    });

    it('counts failures of all doors together, and a success starts the count again', async () => {
      const user = await newUser('mix');
      const { signIn, grant, git } = doors(client());
      const fail3 = async () => {
        expect((await signIn('mix', 'nope')).status).toBe(401);
        expect((await grant('mix', 'nope')).status).toBe(400);
        expect((await git('mix', 'nope', user.project)).status).toBe(401);
      };
      await fail3();
      await fail3();
      await fail3();
      expect((await lockRow(user.id)).failed_attempts).toBe(9);
      // A success resets the count: nine more failures do not lock.
      expect((await signIn('mix', RIGHT)).status).toBe(201);
      expect((await lockRow(user.id)).failed_attempts).toBe(0);
      await fail3();
      await fail3();
      await fail3();
      expect((await asAdmin(user.id)).locked).toBe(false);
      expect((await grant('mix', RIGHT)).status).toBe(200);
      // ...while ten in a row, across doors, do.
      await fail3();
      await fail3();
      await fail3();
      const tenth = await git('mix', 'nope', user.project);
      expect(tenth.status).toBe(401);
      expect((await asAdmin(user.id)).locked).toBe(true);
      expect((await signIn('mix', RIGHT)).body).toEqual({ message: 'Your account is locked.' });
    });

    it('counts nothing for unknown or blocked users', async () => {
      const user = await newUser('blocky');
      expect((await api(gw.baseUrl, 'POST', `/api/v4/users/${user.id}/block`, { token: gw.rootToken })).status).toBe(201);
      const { signIn } = doors(client());
      for (let attempt = 1; attempt <= 11; attempt++) {
        expect((await signIn('blocky', 'nope')).body).toEqual({ message: '401 Unauthorized' });
        expect((await signIn('nobody-here', 'nope')).body).toEqual({ message: '401 Unauthorized' });
      }
      expect(await lockRow(user.id)).toEqual({ failed_attempts: 0, locked_at: null });
    });
  });

  describe('protected paths throttle (per IP)', () => {
    beforeAll(() => setThrottle({ throttle_protected_paths_requests_per_period: 10, throttle_protected_paths_period_in_seconds: 60 }));

    it('answers the 11th sign-in request of a minute from one address 429 Retry later, with Retry-After', async () => {
      await createUserWithToken(gw, 'tess');
      const send = client();
      const { signIn } = doors(send);
      // Requests are counted before the password is looked at: right ones too.
      expect((await signIn('tess', RIGHT)).status).toBe(201);
      let throttled: Answer | undefined;
      let answered = 1;
      // Ten per window: the 11th of one window is refused. A window may end between two requests
      // (a slow machine): then the count starts again, so allow a second window.
      while (!throttled && answered < 21) {
        const res = await signIn('tess', 'wrong');
        answered++;
        if (res.status === 429) throttled = res;
        else expect(res.status).toBe(401);
      }
      expect(throttled).toBeDefined();
      expect([11, 21]).toContain(answered);
      expect(throttled!.body).toEqual({ message: 'Retry later' });
      const retryAfter = Number(throttled!.headers['retry-after']);
      expect(Number.isInteger(retryAfter) && retryAfter >= 1 && retryAfter <= 60).toBe(true);
      // Even the right password waits.
      expect((await signIn('tess', RIGHT)).status).toBe(429);
      // Another address is not affected.
      expect((await doors(client()).signIn('tess', RIGHT)).status).toBe(201);
    });

    it('throttles the OAuth password grant, not the refresh grant', async () => {
      await createUserWithToken(gw, 'olga');
      const send = client();
      const { grant } = doors(send);
      const first = await grant('olga', RIGHT);
      expect(first.status).toBe(200);
      let throttled: Answer | undefined;
      let answered = 1;
      while (!throttled && answered < 21) {
        const res = await grant('olga', 'wrong');
        answered++;
        if (res.status === 429) throttled = res;
        else expect(res.status).toBe(400);
      }
      expect(throttled).toBeDefined();
      expect(throttled!.body).toEqual({ message: 'Retry later' });
      expect(Number(throttled!.headers['retry-after'])).toBeGreaterThanOrEqual(1);
      const refreshed = await send('POST', '/oauth/token', { json: { grant_type: 'refresh_token', refresh_token: first.body.refresh_token } });
      expect(refreshed.status).toBe(200);
    });

    it("does not throttle git HTTP Basic failures (GitLab's git auth ban is off by default)", async () => {
      const user = await newUser('gus');
      // Keep the account below the lockout: nine failures, then a success, then nine more.
      const { git } = doors(client());
      for (let round = 0; round < 2; round++) {
        for (let attempt = 1; attempt <= 9; attempt++) expect((await git('gus', 'wrong', user.project)).status).toBe(401);
        expect((await git('gus', RIGHT, user.project)).status).toBe(200);
      }
    });

    it('can be turned off by an administrator', async () => {
      await setThrottle({ throttle_protected_paths_enabled: false });
      const { signIn } = doors(client());
      for (let attempt = 1; attempt <= 12; attempt++) expect((await signIn('nobody', 'wrong')).status).toBe(401);
      await setThrottle({ throttle_protected_paths_enabled: true });
    });
  });
});
