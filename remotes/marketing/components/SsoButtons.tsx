import { useState } from 'react';

export interface SsoButtonsProps {
  providers: { id: string; label: string }[];
}

function providerList(providers: unknown): { id: string; label: string }[] {
  if (!Array.isArray(providers)) return [];
  return providers.filter(
    (provider): provider is { id: string; label: string } =>
      provider !== null &&
      typeof provider === 'object' &&
      typeof (provider as { id?: unknown }).id === 'string' &&
      typeof (provider as { label?: unknown }).label === 'string',
  );
}

/**
 * Single sign-on choices under the sign-in form. This workspace signs staff in with a password only, so a choice
 * says so plainly instead of leading to a dead end.
 */
export function SsoButtons({ providers }: SsoButtonsProps) {
  const [chosen, setChosen] = useState<string | null>(null);
  const items = providerList(providers);
  if (items.length === 0) return null;
  return (
    <div className="sso">
      <p className="sso__divider">
        <span>or continue with</span>
      </p>
      <div className="sso__buttons">
        {items.map((provider) => (
          <button
            key={provider.id}
            type="button"
            className="button button--secondary"
            data-provider={provider.id}
            onClick={() => setChosen(provider.label)}
          >
            {provider.label}
          </button>
        ))}
      </div>
      <p className="sso__message" role="status">
        {chosen &&
          `Single sign-on with ${chosen} is not enabled for this workspace yet. Sign in with your username and password.`}
      </p>
    </div>
  );
}
