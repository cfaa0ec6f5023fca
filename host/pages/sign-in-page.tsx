import { useState, type FormEvent } from 'react';
import { Navigate, useLocation, useNavigate } from 'react-router-dom';
import { SIGN_IN_SIDEBAR_MEDIA, SlotLocation } from '../../shared';
import { ApiError, AppSlotRenderer, useSession } from '../core';
import { internalPath } from '../app/internal-path';
import { useMediaQuery } from '../app/use-media-query';

/**
 * The sign-in page: login-before-form, the form (`username`, `password`, the API's error message),
 * login-after-form, and login-sidebar on wide screens.
 */
export function SignInPage() {
  const session = useSession();
  const location = useLocation();
  const navigate = useNavigate();
  const wide = useMediaQuery(SIGN_IN_SIDEBAR_MEDIA);
  const [error, setError] = useState<string | null>(null);
  const [submitting, setSubmitting] = useState(false);
  const from = internalPath((location.state as { from?: unknown } | null)?.from);

  if (session.status === 'authenticated' && !submitting) return <Navigate to={from} replace />;

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const data = new FormData(event.currentTarget);
    const username = String(data.get('username') ?? '').trim();
    const password = String(data.get('password') ?? '');
    setSubmitting(true);
    setError(null);
    try {
      await session.signIn({ username, password });
      navigate(from, { replace: true });
    } catch (reason) {
      setError(reason instanceof ApiError ? reason.message : 'Could not sign in. Try again.');
    } finally {
      setSubmitting(false);
    }
  };

  return (
    <div className={wide ? 'login login--wide' : 'login'}>
      <div className="login__main">
        <AppSlotRenderer location={SlotLocation.LOGIN_BEFORE_FORM} />
        {session.status === 'loading' ? (
          <p className="card page-status" role="status">
            Checking your session…
          </p>
        ) : (
          <form className="card login__form" onSubmit={(event) => void submit(event)}>
            <h1 className="login__title">Sign in</h1>
            <p className="muted">Use your staff account.</p>
            {error && (
              <p className="form-error" role="alert">
                {error}
              </p>
            )}
            <label className="field">
              <span className="field__label">Username</span>
              <input className="input" name="username" autoComplete="username" required autoFocus />
            </label>
            <label className="field">
              <span className="field__label">Password</span>
              <input className="input" name="password" type="password" autoComplete="current-password" required />
            </label>
            <button type="submit" className="button button--primary button--block" disabled={submitting}>
              {submitting ? 'Signing in…' : 'Sign in'}
            </button>
          </form>
        )}
        <AppSlotRenderer location={SlotLocation.LOGIN_AFTER_FORM} />
      </div>
      {wide && <AppSlotRenderer location={SlotLocation.LOGIN_SIDEBAR} className="login__sidebar" />}
    </div>
  );
}
