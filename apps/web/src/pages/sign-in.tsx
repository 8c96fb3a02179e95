import { useState } from 'preact/hooks';
import { ApiError, CurrentUser, signIn } from '../api';
import { ErrorNote } from '../components';

export function SignInPage({ onSignedIn }: { onSignedIn: (user: CurrentUser) => void }) {
  const [login, setLogin] = useState('');
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const submit = async (event: Event) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      onSignedIn(await signIn(login, password));
    } catch (e) {
      setError(e instanceof ApiError && e.status === 401 ? 'Invalid login or password.' : (e as Error).message);
    } finally {
      setBusy(false);
    }
  };
  return (
    <main id="main" class="sign-in">
      <h1>Sign in to the on-call console</h1>
      <form onSubmit={submit} class="panel">
        <label for="login">Username or email</label>
        <input id="login" name="login" autoComplete="username" required value={login} onInput={(e) => setLogin(e.currentTarget.value)} />
        <label for="password">Password</label>
        <input
          id="password"
          name="password"
          type="password"
          autoComplete="current-password"
          required
          value={password}
          onInput={(e) => setPassword(e.currentTarget.value)}
        />
        <ErrorNote error={error} />
        <button class="button primary" type="submit" disabled={busy}>
          Sign in
        </button>
      </form>
    </main>
  );
}
