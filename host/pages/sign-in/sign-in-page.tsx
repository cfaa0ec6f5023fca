import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { Navigate, useLocation, useNavigate } from 'react-router-dom';
import { SIGN_IN_SIDEBAR_MEDIA, SlotLocation } from '../../../shared';
import { ApiError, AppSlotRenderer, HiddenSlotLocation, sessionEndOf, useSession } from '../../core';
import { internalPath, type SignInState } from '../../hooks/internal-path';
import { useMediaQuery } from '../../hooks/use-media-query';
import { forgetDraftsExcept } from '../../hooks/tab-drafts';
import { usePlaceLateSlotsBelow } from '../../layout/late-slots-below';
import { PageHeading } from '../../layout/page-heading';
import { SessionUnavailable } from '../../layout/session-unavailable';
import { sessionEndedMessage, signInErrorMessage, signOutFailureMessage } from './sign-in-messages';

/**
 * The sign-in page: login-before-form, the form (`username`, `password`, the API's error message),
 * login-after-form, and login-sidebar on wide screens. An error is tied to both fields for screen readers, and
 * focus goes back to the password to try again. While GET /me fails other than with a 401 (an outage), the outage
 * shows in place of the form: the visitor may well be signed in, and signing in would only fail too.
 * When GET /slots answers after the form is drawn, the slots that would go above the form (the header banner, the
 * layout's global-before-content, login-before-form) come below it, in that order: the form never moves.
 */
export function SignInPage() {
  const session = useSession();
  const location = useLocation();
  const navigate = useNavigate();
  const wide = useMediaQuery(SIGN_IN_SIDEBAR_MEDIA);
  // GET /slots answered after the form was drawn (a slow server: the shell does not wait for it): what goes above
  // the form goes below it instead, so the form stays where it is while staff type.
  const slotsBelow = usePlaceLateSlotsBelow();
  const [error, setError] = useState<string | null>(null);
  // Whether the fields were what was wrong (a refused username or password), not the attempt (a lock-out, an outage).
  const [fieldsRefused, setFieldsRefused] = useState(false);
  const [attempt, setAttempt] = useState(0);
  const [submitting, setSubmitting] = useState(false);
  const passwordRef = useRef<HTMLInputElement>(null);
  const errorId = useId();
  const state = location.state as SignInState | null;
  const from = internalPath(state?.from);
  const sessionEnded = state?.sessionEnded === true;
  // Said after the region is there (one mounted with its text is often not announced), the focus on the username.
  const signedOut = state?.signedOut === true;
  const [saySignedOut, setSaySignedOut] = useState(false);
  useEffect(() => setSaySignedOut(signedOut), [signedOut]);
  // The session's own word first: a check that tells the cause may answer after the read whose 401 brought us here.
  const ended = (session.expired ? session.ended : null) ?? sessionEndOf(state?.endedBecause);

  // After a refused attempt: back to the password, selected, so typing replaces it.
  useEffect(() => {
    if (attempt === 0) return;
    passwordRef.current?.focus();
    passwordRef.current?.select();
  }, [attempt]);

  if (session.status === 'authenticated' && !submitting) return <Navigate to={from} replace />;

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    // The button stays enabled (disabling it would drop the keyboard focus), so a second press is ignored here.
    if (submitting) return;
    const data = new FormData(event.currentTarget);
    const username = String(data.get('username') ?? '').trim();
    const password = String(data.get('password') ?? '');
    setSubmitting(true);
    setError(null);
    try {
      const user = await session.signIn({ username, password });
      // Drafts kept for someone else on this tab are not theirs to see.
      forgetDraftsExcept(user.username);
      navigate(from, { replace: true });
    } catch (reason) {
      const refusal = reason instanceof ApiError ? reason : null;
      setError(signInErrorMessage(refusal));
      setFieldsRefused(refusal !== null && (refusal.status === 401 || refusal.status === 400));
      setAttempt((value) => value + 1);
    } finally {
      setSubmitting(false);
    }
  };

  const invalid = error !== null;
  const described = invalid ? errorId : undefined;
  // The message is tied to both fields either way (read with them); only a refusal of what they hold marks them.
  const markedInvalid = (invalid && fieldsRefused) || undefined;
  return (
    <div className={wide ? 'login login--wide' : 'login'}>
      <div className="login__main">
        {!slotsBelow && <AppSlotRenderer location={SlotLocation.LOGIN_BEFORE_FORM} />}
        {session.status === 'loading' ? (
          <p className="card page-status" role="status">
            Checking your session…
          </p>
        ) : session.status === 'unavailable' ? (
          <SessionUnavailable className="card page-error" />
        ) : (
          <form className="card login__form" onSubmit={(event) => void submit(event)}>
            <PageHeading title="Sign in" className="login__title" />
            <p className="muted">Use your staff account.</p>
            {session.signOutFailure && !invalid && (
              <p className="notice notice--warning" role="alert">
                {signOutFailureMessage(session.signOutFailure)}
              </p>
            )}
            {signedOut && !session.signOutFailure && !invalid && (
              <p className="notice notice--info" role="status" data-signed-out>
                {saySignedOut ? 'You are signed out.' : ''}
              </p>
            )}
            {sessionEnded && !invalid && (
              <p className="notice notice--info" role="status">
                {sessionEndedMessage(ended)}
              </p>
            )}
            {error && (
              <p className="form-error" role="alert" id={errorId}>
                {error}
              </p>
            )}
            <label className="field">
              <span className="field__label">Username</span>
              <input
                className="input"
                name="username"
                autoComplete="username"
                required
                autoFocus
                aria-invalid={markedInvalid}
                aria-describedby={described}
              />
            </label>
            <label className="field">
              <span className="field__label">Password</span>
              <input
                ref={passwordRef}
                className="input"
                name="password"
                type="password"
                autoComplete="current-password"
                required
                aria-invalid={markedInvalid}
                aria-describedby={described}
              />
            </label>
            <button type="submit" className="button button--primary button--block" aria-disabled={submitting}>
              {submitting ? 'Signing in…' : 'Sign in'}
            </button>
          </form>
        )}
        {slotsBelow && (
          <>
            <AppSlotRenderer location={SlotLocation.HEADER_BANNER} className="login__late-banner" />
            <AppSlotRenderer location={SlotLocation.GLOBAL_BEFORE_CONTENT} />
            <AppSlotRenderer location={SlotLocation.LOGIN_BEFORE_FORM} />
          </>
        )}
        <AppSlotRenderer location={SlotLocation.LOGIN_AFTER_FORM} />
      </div>
      {wide ? (
        <AppSlotRenderer location={SlotLocation.LOGIN_SIDEBAR} className="login__sidebar" />
      ) : (
        <HiddenSlotLocation location={SlotLocation.LOGIN_SIDEBAR} media={SIGN_IN_SIDEBAR_MEDIA} />
      )}
    </div>
  );
}
