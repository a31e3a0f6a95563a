// The self-hosted ALTCHA proof-of-work widget (the `altcha` web component), loaded on demand: it
// fetches its challenge from our server and reports its solution (base64) or its reset.
import type {} from 'altcha/types/react';
import { useEffect, useRef } from 'react';

interface AltchaWidgetProps {
  readonly id: string;
  readonly challengeUrl: string;
  readonly onVerified?: (payload: string) => void;
  readonly onReset?: () => void;
}

export function AltchaWidget({ id, challengeUrl, onVerified, onReset }: AltchaWidgetProps) {
  const ref = useRef<HTMLElement>(null);
  const callbacks = useRef({ onVerified, onReset });
  callbacks.current = { onVerified, onReset };
  // Registers the custom element once (the module defines <altcha-widget>), then listens to it.
  useEffect(() => {
    void import('altcha');
    const element = ref.current;
    if (!element) return;
    const onStateChange = (event: Event) => {
      const detail = (event as CustomEvent<{ state?: string; payload?: string | null }>).detail;
      if (detail?.state === 'verified' && detail.payload) callbacks.current.onVerified?.(detail.payload);
      else if (detail?.state !== 'verifying') callbacks.current.onReset?.();
    };
    element.addEventListener('statechange', onStateChange);
    return () => element.removeEventListener('statechange', onStateChange);
  }, []);
  return <altcha-widget ref={ref} id={id} challenge={challengeUrl} name="altcha" />;
}
